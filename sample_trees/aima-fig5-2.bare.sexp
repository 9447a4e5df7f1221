; AIMA Figure 5.2 (Russell & Norvig; aima-python's Fig52Game) in the bare
; form: nested lists, root MAX, leaf values are MAX's payoffs.  Value 3.
; The named, annotated version is aima-fig5-2.yaml.
((3 12 8) (2 4 6) (14 5 2))
