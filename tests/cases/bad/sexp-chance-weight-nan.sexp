(:chance :weights (nan 1) 1 2)
