(1 nan)
