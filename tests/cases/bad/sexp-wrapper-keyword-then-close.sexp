(tree :title)
