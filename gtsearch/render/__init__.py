"""gtsearch.render: everything a person or a script reads, as pure functions of results and events.

Owns the presentation: the text of values, PVs and node labels
(:mod:`.labels`), result tables, JSON lines and CSV (:mod:`.tables`), the
comparison and experiment tables (:mod:`.research`), the text and JSON of a
step-by-step trace (:mod:`.trace`), what a picture of a search shows
(:mod:`.view`), the terminal drawing (:mod:`.terminal`), SVG and DOT
(:mod:`.svg`), the HTML replay (:mod:`.replay`), plots (:mod:`.plot`), the
one console (:mod:`.console`), the progress display (:mod:`.progress`) and
errors as CI annotations (:mod:`.annotations`).
May import algorithms (to run the searches a view shows), tree, numbers,
errors and result; rich and matplotlib only inside functions; never click,
formats or cli.
"""
