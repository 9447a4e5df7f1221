(tree :author "me" (1 2))
