(:chance :weights ("1" 3) 1 2)
