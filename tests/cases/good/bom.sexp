; AIMA figure 5.2, with a byte order mark
((3 12 8) (2 4 6) (14 5 2))
