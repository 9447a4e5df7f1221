"""The numbers of the random tree models: SplitMix64, whose one home is :mod:`gtsearch.splitmix`.

Kept so that ``gtsearch.sources.splitmix`` names what it always named.
"""

from __future__ import annotations

from ..splitmix import *  # noqa: F403
from ..splitmix import __all__ as __all__
