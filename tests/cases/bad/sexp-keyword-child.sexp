(1 :foo)
