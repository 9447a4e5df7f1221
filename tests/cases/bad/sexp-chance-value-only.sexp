(roll :chance :value 3)
