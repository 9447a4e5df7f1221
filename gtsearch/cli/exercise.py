"""``gtsearch exercise``: exercises to search game trees by hand, with their answer keys."""

from __future__ import annotations

import os
import secrets
from typing import Any

import click

from ..algorithms.params import check_one
from ..errors import UsageError
from .common import STDIN, write_output
from .options import (
    algo_option,
    bound_option,
    count_option,
    exploration_option,
    format_option,
    iterations_option,
    order_option,
    output_option,
    seed_option,
    shape_options,
    values_option,
    window_options,
)

FORMATS = ("text", "json", "moodle", "gift", "html")


def answers_path(answers: str, output: str, ext: str) -> str:
    """Where the teacher's key goes: the file ``--answers`` names, or in the folder it names,
    ``STEM-answers.EXT`` after the students' FILE (never beside the students' files unasked)."""
    if os.path.isdir(answers):
        stem = os.path.splitext(os.path.basename(output))[0] if output != STDIN else "quiz"
        return os.path.join(answers, f"{stem}-answers{ext}")
    return answers


def random_seed() -> int:
    """A seed nobody can guess (63 bits from the system's source): the teacher's record keeps it."""
    return secrets.randbits(63)


@click.command("exercise")
@algo_option("alphabeta", several=False)
@bound_option()
@window_options
@iterations_option
@exploration_option
@shape_options((3, 3), min_depth=1)
@seed_option(
    "exercises, byte for byte",
    default=None,
    more=" Without one, a random seed, written in the teacher's key and record only.",
)
@values_option(None, ", all different [default: 0:40, or 0:99 above 41 leaves]")
@order_option(strong=False)
@count_option("--count", 1, "How many different exercises to make from the seed.")
@click.option(
    "--any",
    "any_tree",
    is_flag=True,
    help="Take the trees as drawn: no check that the algorithm prunes some leaves but not too many.",
)
@format_option(
    FORMATS,
    "text (questions, then answers), json (one object per exercise), moodle (Moodle XML), "
    "gift, or html (a worksheet and its answer key: needs -o).",
    "text",
)
@output_option(
    "the exercises",
    more=" With --format html, moodle or gift that is what the students get; the key goes "
    "where --answers names it.",
)
@click.option(
    "--answers",
    "answers",
    default=None,
    metavar="PATH",
    help="Write the teacher's answer key and record (html: a page; moodle, gift: text) to "
    "PATH, or into the folder PATH as FILE-answers.html/.txt. Needed by --format html.",
)
def exercise_command(
    algo: str | None,
    branching: int,
    depth: int,
    seed: int | None,
    value_range: tuple[int, int] | None,
    order: str,
    count: int,
    any_tree: bool,
    output_format: str,
    output: str | None,
    answers: str | None,
    **numbers: Any,
) -> None:
    """Make exercises: trees to search by hand, their questions and the answer key.

    Each exercise is a seeded uniform tree with all-different leaf values and
    named nodes (A, B, ... inside, a leaf its parent's name and place: b1,
    b2, ...) and questions about one algorithm's search of it: the value, the
    PV, the number of leaf evaluations, the leaves in the order evaluated,
    the leaves never evaluated and the pruned subtrees, for SSS*/DUAL* the
    merits of the SOLVED states, for Star2 its probes. For expectiminimax,
    star1 and star2 the tree has chance nodes (weighted) at every other
    level. For mcts: after --iterations K (default twice the branching)
    iterations seeded by --seed, which child of the root UCB1 selects next
    and its UCB value, then the reward, visits and mean after that
    iteration's backup, and the move it would play. What a student receives names no seed and no setting; the
    teacher's key and record do. The answers come from the engine of
    'gtsearch eval'. With
    the default random order a tree is kept only if the algorithm prunes at
    least one leaf in six and evaluates at least one in three (--any: keep
    every tree).

    \b
    Examples:
      gtsearch exercise
      gtsearch exercise -a sss -b 2 -d 4 --seed 7
      gtsearch exercise --count 10 --format moodle -o quiz.xml --answers key.txt
      gtsearch exercise --count 3 --format html -o sheet.html --answers teacher/
      gtsearch exercise -a alphabeta --order best --format json
      gtsearch exercise -a mcts -b 3 -d 2 --iterations 6
    """
    from ..classroom.exercises import Spec, make_exercises

    if output_format == "html" and (output is None or output == STDIN or answers is None):
        raise UsageError(
            "--format html writes two pages, the worksheet and its answer key; name the first "
            "with -o and the second with --answers, apart from the students' files "
            "(e.g. -o sheet.html --answers teacher/)"
        )
    if answers is not None and output_format not in ("html", "moodle", "gift"):
        raise UsageError(
            f"--answers writes the key of --format html, moodle or gift; --format "
            f"{output_format} holds the key already"
        )
    if answers is not None and output is not None and output != STDIN:
        if os.path.abspath(answers_path(answers, output, ".txt")) == os.path.abspath(output):
            raise UsageError("--answers names the students' file; give the key a path of its own")
    chosen = seed is None
    seed = random_seed() if seed is None else seed
    # the algorithm's numbers, as they come: --bound, --alpha, --beta, --variant, --iterations,
    # --exploration
    algorithm, params = check_one([algo or "alphabeta"], **numbers)
    if algorithm.sampled:  # mcts: k iterations (every child of the root tried), seeded by --seed
        k = numbers["iterations"] or 2 * branching
        if k < branching:
            raise UsageError(
                f"--iterations {k} leaves a child of the root untried (b={branching}); give at "
                f"least {branching}, so that UCB1 compares every child in the next iteration"
            )
        params = {**params, "iterations": k, "seed": seed}
    spec = Spec(algorithm, params, branching, depth, value_range, order, any_tree)
    exercises = make_exercises(spec, seed, count)
    if output_format == "html":
        from ..classroom.worksheet import answers_html, worksheet_html

        assert output is not None and answers is not None
        write_output(output, worksheet_html(exercises))
        write_output(answers_path(answers, output, ".html"), answers_html(exercises))
        return
    if output_format == "json":
        from ..classroom.worksheet import exercises_json

        text = exercises_json(exercises)
    elif output_format in ("moodle", "gift"):
        from ..classroom.gift import gift, left_out
        from ..classroom.quiz import moodle_xml
        from ..classroom.worksheet import key_text

        if output_format == "gift":
            for line in left_out(exercises):
                click.echo(line, err=True)
        text = moodle_xml(exercises) if output_format == "moodle" else gift(exercises)
        if answers is not None:  # the quiz is the students'; the key goes where the teacher says
            write_output(answers_path(answers, output or STDIN, ".txt"), key_text(exercises))
        elif chosen:  # a random seed, and no key: say what makes the set again
            click.echo(
                f"no answer key written (--answers PATH writes one); this set is --seed {seed}",
                err=True,
            )
    else:
        from ..classroom.worksheet import exercises_text

        text = exercises_text(exercises)
    write_output(STDIN if output is None else output, text)
