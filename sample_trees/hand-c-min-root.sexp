; A hand-made tree for --depth and MIN roots (gtsearch's own example, no
; outside source).  MIN is to move at the root S; every internal node has a
; static value after :value, used by --depth N at the limit.
;
; Full search, by hand:
;   LL = min(4, 6.5) = 4    LR = min(7, 2) = 2                L = max = 4
;   MM = min(5.5, 9) = 5.5                                    M = 5.5
;   RL = min(3.5, 8, 4.5) = 3.5    rr = 2.5 (a leaf)           R = max = 3.5
;   S = min(4, 5.5, 3.5) = 3.5, played by R then RL then rl1.
; --depth 1: the static values of L, M, R: min(3, 1.5, 4) = 1.5.
; --depth 2: L = max(1, 5) = 5, M = max(0.5) = 0.5, R = max(6, 2.5) = 6
;            (rr is a real leaf); S = min(5, 0.5, 6) = 0.5.
(tree :root min
      :title "Hand-made MIN-root tree with static values (s-expression)"
      :description "MIN to move; 3.5 by full search, 1.5 with --depth 1, 0.5 with --depth 2."
      :expect 3.5
  (S :value 2
     (L :value 3
        (LL :value 1 (ll1 . 4) (ll2 . 6.5))
        (LR :value 5 (lr1 . 7) (lr2 . 2)))
     (M :value 1.5
        (MM :value 0.5 (mm1 . 5.5) (mm2 . 9)))
     (R :value 4
        (RL :value 6 (rl1 . 3.5) (rl2 . 8) (rl3 . 4.5))
        (rr . 2.5))))
