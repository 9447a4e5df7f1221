(1 infinity)
