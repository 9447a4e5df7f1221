; three outcomes, two weights
(tree :root max
  (roll :chance :weights (1 3) 1 2 3))
