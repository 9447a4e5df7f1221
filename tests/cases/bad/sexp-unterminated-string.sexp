(tree :title "x (1 2))
