(tree max (1 2))
