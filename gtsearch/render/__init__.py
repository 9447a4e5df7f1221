"""gtsearch.render: everything a person or a script reads, as pure functions of results and events.

Owns the presentation: the text of values, PVs and node labels
(:mod:`.labels`), result tables, JSON lines and CSV (:mod:`.tables`), the
comparison and experiment tables (:mod:`.research`), the text and JSON of a
step-by-step trace (:mod:`.trace`), what a picture of a search shows
(:mod:`.view`), one subtree of it and the collapsed view (:mod:`.focus`), the
terminal drawing (:mod:`.terminal`), SVG and DOT (:mod:`.svg`), LaTeX/TikZ
(:mod:`.tikz`), the HTML replay (:mod:`.replay`), Jupyter's displays
(:mod:`.notebook`), plots (:mod:`.plot`), the one console
(:mod:`.console`), the progress display (:mod:`.progress`) and errors as CI
annotations (:mod:`.annotations`).  Exercises are written out by
gtsearch.classroom, which draws their trees with these modules.
May import algorithms (to run the searches a view shows) and the ground
modules; rich and matplotlib only inside functions; never click, formats,
sources, research, classroom or cli.
"""
