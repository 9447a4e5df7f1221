"""``gtsearch exercise``: exercises to search game trees by hand, with their answer keys."""

from __future__ import annotations

import os

import click

from ..algorithms.params import check_one
from ..errors import UsageError
from ..numbers import Number
from ..sources.uniform import ORDERS, parse_value_range
from .common import STDIN, alpha_option, beta_option, write_output
from .show import algo_option, bound_option

FORMATS = ("text", "json", "moodle", "gift", "html")


def answers_path(path: str) -> str:
    """Where ``--format html -o sheet.html`` writes the answer key: ``sheet-answers.html``."""
    stem, ext = os.path.splitext(path)
    return f"{stem}-answers{ext or '.html'}"


@click.command("exercise")
@algo_option
@bound_option
@alpha_option
@beta_option
@click.option(
    "-b",
    "--branching",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    metavar="B",
    help="Children of every inner node.",
)
@click.option(
    "-d",
    "--depth",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    metavar="D",
    help="Levels below the root (the tree has B**D leaves).",
)
@click.option(
    "-s",
    "--seed",
    type=int,
    default=0,
    show_default=True,
    metavar="S",
    help="Seed: the same arguments always give the same exercises, byte for byte.",
)
@click.option(
    "--values",
    "value_range",
    default=None,
    metavar="LO:HI",
    help="Leaf values: different integers from LO..HI [default: 0:40, or 0:99 above 41 leaves].",
)
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="random",
    show_default=True,
    help="random leaves, or every node's children sorted best-first / worst-first.",
)
@click.option(
    "-n",
    "--count",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="How many different exercises to make from the seed.",
)
@click.option(
    "--any",
    "any_tree",
    is_flag=True,
    help="Take the trees as drawn: no check that the algorithm prunes some leaves but not too many.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text (questions, then answers), json (one object per exercise), moodle "
    "(Moodle XML), gift, or html (a worksheet and its answer key: needs -o).",
)
@click.option(
    "-o",
    "--output",
    default=None,
    metavar="FILE",
    help="Write to FILE instead of standard output; --format html writes FILE and "
    "FILE-answers.html.",
)
def exercise_command(
    algo: str | None,
    bound: Number | None,
    alpha: Number | None,
    beta: Number | None,
    branching: int,
    depth: int,
    seed: int,
    value_range: str | None,
    order: str,
    count: int,
    any_tree: bool,
    output_format: str,
    output: str | None,
) -> None:
    """Make exercises: trees to search by hand, their questions and the answer key.

    Each exercise is a seeded uniform tree with all-different leaf values and
    named nodes (A, B, ... inside, a, b, ... at the leaves) and questions about
    one algorithm's search of it: the value, the PV, the number of leaf
    evaluations, the leaves in the order evaluated, the leaves never
    evaluated and the pruned subtrees, and for SSS*/DUAL* the merits of the
    SOLVED states. The answers come from the engine of 'gtsearch eval'. With
    the default random order a tree is kept only if the algorithm prunes at
    least one leaf in six and evaluates at least one in three (--any: keep
    every tree).

    \b
    Examples:
      gtsearch exercise
      gtsearch exercise -a sss -b 2 -d 4 --seed 7
      gtsearch exercise --count 10 --format moodle -o quiz.xml
      gtsearch exercise --count 3 --format html -o sheet.html
      gtsearch exercise -a alphabeta --order best --format json
    """
    from ..classroom.exercises import Spec, make_exercises

    if output_format == "html" and (output is None or output == STDIN):
        raise UsageError(
            "--format html writes two pages, the worksheet and its answer key; "
            "name the first with -o (e.g. -o sheet.html)"
        )
    algorithm, params = check_one([algo or "alphabeta"], bound=bound, alpha=alpha, beta=beta)
    values = parse_value_range(value_range) if value_range is not None else None
    spec = Spec(algorithm, params, branching, depth, values, order, any_tree)
    exercises = make_exercises(spec, seed, count)
    if output_format == "html":
        from ..classroom.worksheet import answers_html, worksheet_html

        assert output is not None
        key = answers_path(output)
        write_output(output, worksheet_html(exercises))
        write_output(key, answers_html(exercises))
        return
    if output_format == "json":
        from ..classroom.worksheet import exercises_json

        text = exercises_json(exercises)
    elif output_format == "moodle":
        from ..classroom.quiz import moodle_xml

        text = moodle_xml(exercises)
    elif output_format == "gift":
        from ..classroom.quiz import gift

        text = gift(exercises)
    else:
        from ..classroom.worksheet import exercises_text

        text = exercises_text(exercises)
    write_output(STDIN if output is None else output, text)
