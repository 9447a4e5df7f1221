(tree (1 2) 3)
