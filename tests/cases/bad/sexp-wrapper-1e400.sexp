(tree :title "t" 1e400)
