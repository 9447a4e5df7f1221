(1 :chance 2)
