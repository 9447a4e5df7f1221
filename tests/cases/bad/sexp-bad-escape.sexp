(tree :title "a\qb" (1))
