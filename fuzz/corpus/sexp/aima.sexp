(tree
  :root max
  :title "AIMA Figure 5.2, a two-ply game tree"
  :description "Russell & Norvig, Artificial Intelligence: A Modern Approach, Figure 5.2 (aima-python's Fig52Game). MAX node A, MIN nodes B, C, D; leaves named by the move that reaches them."
  :expect 3
  (A
    (B (b1 . 3) (b2 . 12) (b3 . 8))
    (C (c1 . 2) (c2 . 4) (c3 . 6))
    (D (d1 . 14) (d2 . 5) (d3 . 2))))
