(roll :chance :weights (1 1) :weights (1 1) 1 2)
