(tree :root max :root min (1 2))
