"""Started by every Python process of a mutation run (scripts/mutation.py puts this folder on
PYTHONPATH): mutmut's trampolines in the package copy under mutants/ read mutmut's
configuration from pyproject.toml in the current folder, and a test that runs gtsearch in a
real process from another folder (a temporary one, tests/cases/bad/) would stop there.  So
the configuration is read once here, from the repository's root."""

from __future__ import annotations

import os

root = os.environ.get("GTSEARCH_MUTATION_ROOT")
if root and os.environ.get("MUTANT_UNDER_TEST"):
    here = os.getcwd()
    try:
        os.chdir(root)
        from mutmut.configuration import config

        config()
    finally:
        os.chdir(here)
