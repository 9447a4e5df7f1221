(roll :value 3 :chance 1 2)
