(tree :root (max) (1 2))
