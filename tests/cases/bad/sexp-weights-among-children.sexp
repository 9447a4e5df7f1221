(a (b 1 :weights (1)) 2)
