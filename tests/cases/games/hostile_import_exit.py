"""A module that ends the process as it is imported."""

import sys

sys.exit(7)
