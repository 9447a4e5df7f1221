(:chance :weights (0 0) :value x 1 2)
