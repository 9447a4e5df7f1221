; A uniform binary tree of depth 4, root MAX, the example of SSS* teaching
; code attributed to Stockman 1979 (G. C. Stockman, "A minimax algorithm
; better than alpha-beta?", Artificial Intelligence 12, 1979).  Not checked
; against the paper itself: cite it as the teaching code's example.
;
; Minimax, level by level (MAX root, then MIN, MAX, MIN over the leaves):
;   depth 3 (MIN):  30  21   9  43   28  52   22  53
;   depth 2 (MAX):    30      43       52       53
;   depth 1 (MIN):         30               52
;   root    (MAX):                  52
; Leaves evaluated: minimax 16, f1 15, alphabeta 13, sss 8, dual 13.
; SSS* evaluates them in the order 30 21 28 78 52 22 53 80.
(tree :title "Binary depth-4 tree from SSS* teaching code (Stockman 1979)"
      :root max
      :expect 52
  ((((30 54) (21 73)) ((9 71) (43 91)))
   (((28 94) (78 52)) ((22 35) (53 80)))))
