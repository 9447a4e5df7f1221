; AIMA Figure 5.2, full form: names on every node, a static value on C.
(tree :title "AIMA Figure 5.2" :root max :expect 3
  (A (B (b1 . 3) (b2 . 12) (b3 . 8))
     (C :value 2 (c1 . 2) (c2 . 4) (c3 . 6))
     (14 5 2)))
