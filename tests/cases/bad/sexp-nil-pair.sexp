(a (nil . 3))
