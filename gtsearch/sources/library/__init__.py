"""gtsearch.sources.library: the built-in games beyond tic-tac-toe and Nim, one module each.

Owns Connect Four (:mod:`.connect4`), Pig with its chance nodes (:mod:`.pig`),
dots and boxes with its repeated turns (:mod:`.dotsandboxes`), Othello on
small boards (:mod:`.othello`) and Hexapawn (:mod:`.hexapawn`): plain objects
of the game protocol (gtsearch.sources.protocol), registered in
gtsearch.sources.builtin_games, each with its ``estimate`` for ``--depth`` and
a ``render`` for ``gtsearch play``.  Imports nothing of gtsearch but
gtsearch.sources.protocol's names of the players; states are ints and tuples
of ints (bitboards), so that the compiled core can write small games out whole.
"""
