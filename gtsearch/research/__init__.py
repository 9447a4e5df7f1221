"""gtsearch.research: comparing algorithms on trees and sweeping them over seeded random trees.

Owns the research workbench's logic: running several algorithms on one tree
and checking that they agree (:mod:`.compare`), and sweeps over grids of
seeded random trees with shards, merging and statistics (:mod:`.experiment`),
in local processes or on a Dask cluster (:mod:`.cluster`), and the reference
numbers they are set against, the minimal tree and Pearl's R(b)
(:mod:`.theory`).  Imports algorithms, sources and the ground modules; never
click, rich, render or cli.
"""
