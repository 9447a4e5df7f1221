((:value 1 . 2) 3)
