(tree
  :root min
  :title "Hand-made MIN-root tree with static values (s-expression)"
  :description "MIN to move; 3.5 by full search, 1.5 with --depth 1, 0.5 with --depth 2."
  :expect 3.5
  (S :value 2
    (L :value 3
      (LL :value 1 (ll1 . 4) (ll2 . 6.5))
      (LR :value 5 (lr1 . 7) (lr2 . 2)))
    (M :value 1.5 (MM :value 0.5 (mm1 . 5.5) (mm2 . 9)))
    (R :value 4 (RL :value 6 (rl1 . 3.5) (rl2 . 8) (rl3 . 4.5)) (rr . 2.5))))
