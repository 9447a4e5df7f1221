"""``gtsearch schema`` and ``gtsearch completion``: gtsearch for editors and shells."""

from __future__ import annotations

import click

from .common import STDIN, write_output
from .options import output_option

#: the program the completion scripts complete, and the variable click's protocol uses
PROGRAM = "gtsearch"
COMPLETE_VAR = "_GTSEARCH_COMPLETE"
SHELLS = ("bash", "zsh", "fish")


@click.command("schema")
@output_option("the schema", "OUT", default=STDIN)
def schema_command(output: str) -> None:
    """Print the JSON Schema (draft 2020-12) of JSON and YAML tree files.

    Editors validate and complete tree files with it: the bare form, the full
    form (names, static values) and the document wrapper with its keys. In a
    YAML file, the first line

    \b
      # yaml-language-server: $schema=tree.schema.json

    points yaml-language-server (VS Code's YAML extension, ...) at the file
    written by 'gtsearch schema -o tree.schema.json'. Some rules are the
    reader's alone (siblings' names differ, integers within ±2**53): see
    docs/formats.md.

    \b
    Examples:
      gtsearch schema -o tree.schema.json
      gtsearch schema | python -m json.tool
    """
    from ..formats.schema import schema_text

    write_output(output, schema_text())


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion_command(shell: str) -> None:
    """Print the completion script of SHELL: bash, zsh or fish.

    Commands, options, algorithm names ('-a alph' then TAB gives alphabeta),
    formats and file names complete (click's shell completion; bash 4.4 or
    later). Install it once:

    \b
      bash:  echo 'eval "$(gtsearch completion bash)"' >> ~/.bashrc
      zsh:   echo 'eval "$(gtsearch completion zsh)"' >> ~/.zshrc
      fish:  gtsearch completion fish > ~/.config/fish/completions/gtsearch.fish

    \b
    Examples:
      gtsearch completion bash
      gtsearch completion zsh > gtsearch.zsh
    """
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    assert cls is not None  # every shell of SHELLS has one in click
    root = click.get_current_context().find_root().command
    click.echo(cls(root, {}, PROGRAM, COMPLETE_VAR).source())
