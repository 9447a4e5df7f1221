(:chance :weights "x" 1 2)
