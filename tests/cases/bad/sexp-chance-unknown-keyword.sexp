(roll :chance :prob (1 1) 1 2)
