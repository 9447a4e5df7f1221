"""gtsearch._native: the compiled C core (``_core``), built from the C files here when a compiler is present.

Owns nothing of its own: every function of the extension mirrors one of the
pure-Python reference (gtsearch/algorithms, gtsearch/formats,
gtsearch/sources/uniform.py).  Only :mod:`gtsearch.core` imports it; this
package imports nothing.
"""
