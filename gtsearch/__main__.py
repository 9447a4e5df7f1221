"""Run the command line as ``python -m gtsearch``."""

from .cli import cli

if __name__ == "__main__":
    cli(prog_name="gtsearch")
