((roll :chance :weights (0 0) (4 6) (2 8)) 3)
