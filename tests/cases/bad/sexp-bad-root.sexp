(tree :root 3 (1))
