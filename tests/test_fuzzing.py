"""The libFuzzer harness's oracle (fuzz/oracle.py) on its seeds, under the core the suite runs.

scripts/fuzz_native.py fuzzes the C readers with it (CI runs it briefly); here it must agree
with itself on every seed: the C reader takes a seed and gives the Python reader's tree, or
declines it, and never raises.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from gtsearch import core

from .conftest import ROOT, load_script


@pytest.fixture(scope="module")
def oracle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("oracle", ROOT / "fuzz" / "oracle.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("reader", ["json", "yaml", "sexp", "efg"])
def test_oracle_on_the_seeds(reader: str, oracle: ModuleType, tmp_path: Path) -> None:
    driver = load_script("fuzz_native")
    assert driver.seeds(reader, tmp_path) >= 20
    verdicts = [oracle.check(reader, p.read_bytes()) for p in sorted(tmp_path.iterdir())]
    assert set(verdicts) <= {0, 1}
    if core.native() is None:  # the pure core: the C reader never takes anything
        assert set(verdicts) == {1}
    else:
        assert verdicts.count(0) >= 3, "the C reader takes the good seeds"
    assert not oracle.instrumented(), "in the suite the C core is the extension on disk"
    assert oracle.check(reader, b"\xff[1, 2]") in (0, 1), "a byte that is not UTF-8 is U+FFFD"
