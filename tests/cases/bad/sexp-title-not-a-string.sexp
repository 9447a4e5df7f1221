(tree :title 5 (1 2))
