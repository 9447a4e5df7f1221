(roll :chance :chance 1 2)
