(tree :title "x")
