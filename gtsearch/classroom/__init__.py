"""gtsearch.classroom: exercises for searching game trees by hand, with their answer keys (one home).

Owns everything about an exercise: what one is (:mod:`.model`: Exercise,
Question), the seeded choice of trees that are good to search by hand
(:mod:`.exercises`: distinct leaf values, some pruning but not too much, the
names of their nodes), the questions and the answers, computed by the same
search engine as ``gtsearch eval`` (:mod:`.keys`), and the writers of
exercises: text, JSON lines and HTML worksheets with their answer keys
(:mod:`.worksheet`), Moodle XML (:mod:`.quiz`) and GIFT (:mod:`.gift`)
quizzes.  What a student receives never carries the seed or the settings;
the teacher's key and record do (docs/classroom.md).
Imports render (the pictures and drawings of trees and searches: labels,
view, terminal, svg), algorithms, formats, sources and the ground modules;
never click, rich, research or cli.
"""
