((roll :chance :weights (1 2.5) (a 1 2) 3) 4)
