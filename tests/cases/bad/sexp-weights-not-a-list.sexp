(:chance :weights 3 1 2)
