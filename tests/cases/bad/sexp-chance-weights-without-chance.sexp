((B :weights (1 1) 2 4) 3)
