"""The HTML replay (gtsearch show --html) in a real headless browser: Playwright driving /usr/bin/chromium.

Skipped when the Python package ``playwright`` (extra ``browser``) or the
Debian package ``chromium`` is missing.  Playwright's own browser download
(``playwright install``) is not used: the system's chromium is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gtsearch import load_tree
from gtsearch.render.replay import to_html
from gtsearch.render.view import build_view

pytestmark = [pytest.mark.browser, pytest.mark.extra("browser")]

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright  # the mark "extra" made sure of both

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def open_replay(
    browser: Any, tmp_path: Path, sample: str, algo: str, **params: Any
) -> tuple[Any, list[str]]:
    tree = load_tree(str(REPO / "sample_trees" / sample))
    view = build_view(tree, algo, keep_events=True, **params)
    page_file = tmp_path / f"{algo}.html"
    page_file.write_text(to_html(view, source=sample), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.clock.install()  # the page's timers run when the test moves the clock, not before
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on(
        "request",
        lambda r: errors.append(f"request {r.url}") if not r.url.startswith("file://") else None,
    )
    page.goto(page_file.as_uri())
    return page, errors


def texts(page: Any, selector: str) -> list[str]:
    """The exact text of each match (inner_text would fold runs of spaces)."""
    return [t.strip() for t in page.locator(selector).all_text_contents()]


def click_next(page: Any, times: int) -> None:
    for _ in range(times):
        page.click("#next")


def test_sss_replay_on_the_aima_tree(browser: Any, tmp_path: Path) -> None:
    page, errors = open_replay(browser, tmp_path, "aima-fig5-2.yaml", "sss")
    assert page.inner_text("#step") == "0 / 19"
    assert texts(page, "#open li") == ["(A, LIVE, +∞)"]
    assert page.get_attribute("body", "data-current") == ""
    assert page.is_disabled("#prev") and not page.is_disabled("#next")

    click_next(page, 11)  # case 2 on d3: the fifth leaf
    assert page.inner_text("#step") == "11 / 19"
    assert page.get_attribute("body", "data-current") == "12"
    assert "current" in (page.get_attribute("#node-12", "class") or "")
    assert page.text_content("#desc").startswith("take (d3, LIVE, 5)  case 2: evaluate d3 = 2")
    assert texts(page, "#open li") == ["(b1, SOLVED, 3)", "(c1, SOLVED, 2)", "(d3, SOLVED, 2)"]
    assert page.locator("g.node.evaluated").count() == 5
    assert texts(page, "#node-2 .rank, #node-6 .rank, #node-12 .rank") == ["#1", "#2", "#5"]
    assert page.text_content("#range-0") == "[2, 3]"
    assert page.locator("g.node.pruned").count() == 0

    click_next(page, 6)  # case 5: B solves A, the states of C and D are purged
    assert page.inner_text("#step") == "17 / 19"
    assert texts(page, "#open li") == ["(A, SOLVED, 3)"]
    assert "purge (c1, SOLVED, 2) (d3, SOLVED, 2)" in page.text_content("#desc")
    assert sorted(
        page.locator("g.node.pruned").evaluate_all("els => els.map(e => e.dataset.node)")
    ) == ["7", "8"]
    assert page.locator("line.edge.pruned").count() == 2
    # the drops from the ends of those edges to the leaves' heads (their names) go grey too
    assert page.locator("line.drop.pruned").count() == 2
    assert page.locator("line.drop").count() == 12
    drop = page.locator('line.drop[data-node="7"]')
    assert drop.evaluate("e => getComputedStyle(e).strokeDasharray") != "none"

    page.click("#last")
    assert page.inner_text("#step") == "19 / 19"
    assert page.text_content("#desc").startswith("result: value 3 (exact), 7 of 9 leaves")
    assert page.locator("line.edge.pv").count() == 2
    assert page.locator("line.drop.pv").count() == 2
    assert page.locator('line.drop[data-node="2"]').evaluate(
        "e => getComputedStyle(e).strokeWidth"
    ) == page.locator("#edge-2").evaluate("e => getComputedStyle(e).strokeWidth")
    assert page.locator("g.node.evaluated").count() == 7
    assert page.is_disabled("#next")
    page.click("#prev")
    assert page.inner_text("#step") == "18 / 19"
    assert page.locator("line.edge.pv").count() == 0
    assert page.locator("line.drop.pv").count() == 0
    assert not errors


def test_alphabeta_replay_shows_the_stack_and_the_cutoff(browser: Any, tmp_path: Path) -> None:
    page, errors = open_replay(browser, tmp_path, "aima-fig5-2.yaml", "alphabeta")
    assert not page.is_visible("#open-box") and page.is_visible("#stack-box")
    click_next(page, 9)
    assert page.text_content("#desc").startswith("cutoff at C: 2 ≤ α = 3")
    assert texts(page, "#stack li") == [
        "A (MAX)  α = -∞, β = +∞  best 3",
        "C (MIN)  α = 3, β = +∞  best 2",
    ]
    assert page.text_content("#range-5") == "≤2"
    assert page.locator("g.node.pruned").count() == 2
    assert page.inner_text("#counts") == "leaves evaluated: 4 of 9 · pruned so far: 2"
    # the slider and the keyboard move too
    page.locator("#slider").fill("3")
    assert page.inner_text("#step") == "3 / 17"
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-step") == "4"
    page.keyboard.press("End")
    assert page.inner_text("#step") == "17 / 17"
    page.keyboard.press("Home")
    assert page.inner_text("#step") == "0 / 17"
    # play runs on by itself, a step every 0.8 s of the page's clock (moved by the test)
    page.click("#play")
    page.clock.run_for(1_000)
    assert page.get_attribute("body", "data-step") == "1"
    page.clock.run_for(700)
    assert page.get_attribute("body", "data-step") == "2"
    page.click("#play")
    page.clock.run_for(2_000)
    assert page.get_attribute("body", "data-step") == "2"  # paused
    assert page.inner_text("#play") == "▶ play"
    assert not errors


def test_star2_replay_shows_windows_and_probes(browser: Any, tmp_path: Path) -> None:
    """Chance nodes: their outcomes' windows on the stack, Star2's probes as frames of their own."""
    page, errors = open_replay(browser, tmp_path, "chance-worked.yaml", "star2")
    assert page.inner_text("#step") == "0 / 24"
    assert page.locator("#node-1 circle").count() == 1  # C1 is a circle
    click_next(page, 3)  # C1 works out the window of its first outcome
    assert texts(page, "#stack li") == [
        "A (MAX)  α = -∞, β = +∞",
        "C1 (CHANCE)  α = -∞, β = +∞  · next m1: α = 2, β = 9 (a = -∞, b = +∞)",
    ]
    click_next(page, 13)  # the probe of m3 has read its first leaf
    assert page.text_content("#desc").startswith("leaf 1.0.0 = 3")
    assert texts(page, "#stack li")[-1] == "m3 (MIN)  probe: α = 2, β = 9  best 3"
    click_next(page, 5)  # the probes decide: C2 is worth at most 9/4
    assert page.text_content("#desc").startswith("cutoff at C2: the probes give C2 ≤ 2.25")
    assert texts(page, "#stack li")[-1].startswith("C2 (CHANCE)  α = 13/3, β = +∞")
    assert page.text_content("#range-8") == "[2, 2.25]"
    page.click("#last")
    assert page.text_content("#desc").startswith("result: value 13/3 (exact), 6 of 8 leaves")
    assert page.locator("g.node.evaluated").count() == 6
    assert not errors


def test_the_legend_shows_only_what_the_search_has(browser: Any, tmp_path: Path) -> None:
    """Depth-first searches have no LIVE/SOLVED states, SSS* no call stack."""
    page, errors = open_replay(browser, tmp_path, "aima-fig5-2.yaml", "alphabeta")
    assert page.is_visible(".legend .df") and not page.is_visible(".legend .bf")
    page, errors = open_replay(browser, tmp_path, "aima-fig5-2.yaml", "sss")
    assert page.is_visible(".legend .bf") and not page.is_visible(".legend .df")
    assert not errors


def test_mcts_replay_shows_each_phase_and_the_visits(browser: Any, tmp_path: Path) -> None:
    """mcts: one phase a step; each backup writes visits · mean beside its path's nodes."""
    page, errors = open_replay(browser, tmp_path, "aima-fig5-2.yaml", "mcts", iterations=6, seed=1)
    assert page.inner_text("#step") == "0 / 23"
    click_next(page, 10)  # iteration 4 selects at A: B, C, D compared
    assert page.text_content("#desc").startswith("select at A (MAX, n=3): B (n=1, q=0.500")
    assert page.text_content("#range-0") == "3 · .556"  # A: n = 3, w = 1.667
    click_next(page, 3)  # its backup: d1 has been visited once, worth 1
    assert page.text_content("#rank-10") == "1 · 1.000"
    assert page.text_content("#range-9") == "2 · 1.000"
    page.click("#last")
    assert page.text_content("#desc").startswith("result: value ≈ 11 (estimate)")
    assert not errors
