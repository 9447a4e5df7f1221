; a comment
(1 +2 -3 ; more
 4.5e1)
