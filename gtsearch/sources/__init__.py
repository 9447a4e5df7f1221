"""gtsearch.sources: trees that come from parameters rather than files.

Owns the seeded tree generators: :mod:`.uniform` builds or streams the
uniform trees of ``gtsearch gen`` and ``gtsearch experiment``.  Imports only
the ground modules (tree, numbers, errors, core: the compiled generator).
"""
