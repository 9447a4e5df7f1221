(tree :expect three (1 2))
