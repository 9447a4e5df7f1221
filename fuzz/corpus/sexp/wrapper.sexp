(tree :root min :title "t\u00e9" :description "d" :expect 3 (A (b . 1) (c :value 2 3 4)))
