"""gtsearch.classroom: exercises for searching game trees by hand, with their answer keys.

Owns what makes an exercise (:mod:`.exercises`): the seeded choice of trees
that are good to search by hand (distinct leaf values, some pruning but not
too much), the names of their nodes, the questions, and the answers, computed
by the same search engine as ``gtsearch eval``.  Writing them out (text, JSON,
Moodle XML, GIFT, HTML) is gtsearch.render's.  Imports algorithms, formats,
sources and the ground modules; never click, rich, render, research or cli.
"""
