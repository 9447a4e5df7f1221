((3 12) (roll :chance :weights (1)))
