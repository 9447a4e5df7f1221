(:chance :weights (1 -0.5) 1 2)
