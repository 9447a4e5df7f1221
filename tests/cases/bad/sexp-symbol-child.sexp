(a b c)
