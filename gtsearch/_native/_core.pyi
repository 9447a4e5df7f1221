"""Types of gtsearch._native._core, the compiled core (see gtsearch/core.py)."""

from array import array
from typing import Any

_Leaves = array[int]
_Progress = array[int] | None

def negamax(
    end: array[int],
    values: array[float],
    root_max: bool,
    alpha: float,
    beta: float,
    deep: bool,
    prune: bool,
    progress: _Progress,
) -> tuple[float, list[int], _Leaves, int]: ...
def game_negamax(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, ...],
    root_max: bool,
    limit: int,
    max_nodes: int,
    first: array[int],
    alpha: float,
    beta: float,
    deep: bool,
    prune: bool,
    hard: bool,
    progress: _Progress,
) -> tuple[float, list[int], _Leaves, int, array[int], array[int], array[int]] | None: ...
def game_negascout(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, ...],
    root_max: bool,
    limit: int,
    max_nodes: int,
    first: array[int],
    line: bool,
    progress: _Progress,
) -> (
    tuple[float, list[int] | None, _Leaves, int, int, array[int], array[int], array[int]] | None
): ...
def game_scout(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, ...],
    root_max: bool,
    limit: int,
    max_nodes: int,
    first: array[int],
    line: bool,
    progress: _Progress,
) -> (
    tuple[float, list[int] | None, _Leaves, int, int, array[int], array[int], array[int]] | None
): ...
def game_sss(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, ...],
    root_max: bool,
    limit: int,
    max_nodes: int,
    first: array[int],
    up: array[int],
    depth: array[int],
    h0: float,
    mirror: float,
    progress: _Progress,
) -> tuple[float, list[int], _Leaves, int, int, array[int], array[int], array[int]] | None: ...
def game_mtd(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, ...],
    root_max: bool,
    limit: int,
    max_nodes: int,
    first: array[int],
    guess: float,
    line: bool,
    progress: _Progress,
) -> (
    tuple[float, list[int] | None, _Leaves, int, int, array[int], array[int], array[int]] | None
): ...
def sss(
    end: array[int],
    values: array[float],
    root_max: bool,
    h0: float,
    mirror: float,
    progress: _Progress,
) -> tuple[float, list[int], _Leaves, int, int]: ...
def negascout(
    end: array[int], values: array[float], root_max: bool, progress: _Progress
) -> tuple[float, _Leaves, int, int]: ...
def scout(
    end: array[int], values: array[float], root_max: bool, progress: _Progress
) -> tuple[float, _Leaves, int, int]: ...
def mtd(
    end: array[int], values: array[float], root_max: bool, first: float, progress: _Progress
) -> tuple[float, _Leaves, int, int]: ...
def mcts(
    end: Any,
    values: array[float] | None,
    root_max: bool,
    chance: bytearray | None,
    wnodes: array[int],
    woff: array[int],
    wval: array[float],
    lo: float,
    span: float,
    iterations: int,
    seconds: float,
    seed: int,
    exploration: float,
    playout_depth: int,
    progress: _Progress,
) -> tuple[
    array[int], array[int], array[float], array[float], _Leaves, int, int, int, int, int
]: ...
def mcts_game(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, int, int, int],
    root_max: bool,
    cut: int,
    max_nodes: int,
    lo: float,
    span: float,
    iterations: int,
    seconds: float,
    seed: int,
    exploration: float,
    playout_depth: int,
    progress: _Progress,
    chance: bool = ...,
) -> (
    tuple[
        tuple[
            array[int],
            array[int],
            array[float],
            array[float],
            _Leaves,
            int,
            int,
            int,
            int,
            int,
            list[int],
            list[int],
        ],
        tuple[array[int], array[int], array[int], list[tuple[int, ...]], int, array[int] | None],
    ]
    | None
): ...
def principal_variation(
    end: array[int],
    values: array[float],
    root_max: bool,
    leaves: Any,
    value: float,
    bound: int,
) -> list[int] | None: ...
def random_tree(
    b: int, d: int, model: int, seed: int, lo: int, hi: int, p: float, wide: bool, k: int = 1
) -> tuple[array[int], array[float]]: ...
def sss_dense_limit(n: int) -> int: ...
def expand_states(
    first: array[int],
    kids: array[int],
    sizes: array[int],
    values: array[float],
    root: int,
    wide: bool,
) -> tuple[array[int], array[float]]: ...
def count_game(
    kernel: int, root: int, most: int, room: int = 0
) -> (
    tuple[array[int], array[int], array[int], array[int], array[int], array[int], array[float]]
    | None
): ...

_Numbered = tuple[array[int], array[int], array[int], array[int] | None, int]

def objects_negamax(
    state: Any,
    tag: int,
    chance_player: int,
    by_string: int,
    with_turns: bool,
    root_max: bool,
    max_nodes: int,
    prior: _Numbered | None,
    alpha: float,
    beta: float,
    deep: bool,
    prune: bool,
    progress: _Progress,
) -> tuple[float, list[int], _Leaves, int, _Numbered] | None: ...
def objects_expectiminimax(
    state: Any,
    tag: int,
    chance_player: int,
    by_string: int,
    with_turns: bool,
    root_max: bool,
    max_nodes: int,
    prior: _Numbered | None,
    weigh: Any,
    progress: _Progress,
) -> tuple[int, int, list[int], _Leaves, int, _Numbered] | None: ...
def game_tabled(
    name: str,
    params: tuple[int, ...],
    words: tuple[int, ...],
    root_max: bool,
    limit: int,
    max_nodes: int,
    first: array[int],
    general: bool,
    buckets: int,
    pv_buckets: int,
    kind: int,
    alpha: float,
    beta: float,
    progress: _Progress,
) -> (
    tuple[
        float,
        list[int],
        _Leaves,
        int,
        int,
        int,
        tuple[int, ...],
        array[int],
        array[int],
        array[int],
        array[int],
    ]
    | None
): ...
def game_initial(name: str, params: tuple[int, ...]) -> tuple[int, int, int, int] | None: ...
def game_step(
    name: str, params: tuple[int, ...], words: tuple[int, ...]
) -> (
    tuple[int, list[int], list[tuple[int, int, int, int]], list[int] | None, float | None] | None
): ...
def game_perft(
    name: str, params: tuple[int, ...], words: tuple[int, ...], depth: int
) -> int | None: ...
def load_mapping(text: str, yaml: bool, max_nodes: int, wide: bool) -> tuple[Any, ...] | None: ...
def load_sexp(text: str, max_nodes: int, wide: bool) -> tuple[Any, ...] | None: ...
def load_efg(text: str, max_nodes: int, wide: bool) -> tuple[Any, ...] | None: ...

class VisitLimit(Exception):
    """A search of a source computed on demand passed its most allowed visits."""
