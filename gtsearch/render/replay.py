"""One self-contained HTML page replaying a search step by step (inline SVG, CSS, JS, trace as JSON)."""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape

from ..algorithms.events import Enter, Probe, Start, Take, Window
from .labels import format_extended
from .painter import short_range
from .svg import to_svg
from .trace import state_text, window_text
from .view import SearchView, replay_steps


def replay_data(view: SearchView, source: str | None = None) -> dict[str, Any]:
    """What the page embeds: the tree's shape, the result and every step."""
    if view.events is None:
        raise ValueError("the view was built without its events (keep_events=True)")
    tree = view.tree
    labels = view.labels
    steps = list(replay_steps(view))
    for d, ev in zip(steps, view.events, strict=True):
        d["ranges"] = [[n, short_range(t)] for n, t in d["ranges"]]
        if isinstance(ev, Enter):
            d["window"] = window_text(ev, labels, view.algorithm)
        elif isinstance(ev, Probe):
            d["window"] = f"probe: α = {format_extended(ev.alpha)}, β = {format_extended(ev.beta)}"
        elif isinstance(ev, Window):  # what the chance node's next outcome gets, shown on it
            d["note"] = (
                f"next {labels.label(ev.child)}: α = {format_extended(ev.alpha)}, "
                f"β = {format_extended(ev.beta)} (a = {format_extended(ev.a)}, "
                f"b = {format_extended(ev.b)})"
            )
        if isinstance(ev, (Start, Take)) and ev.open is not None:
            d["open_text"] = [state_text(s, labels) for s in ev.open]
    r = view.result
    return {
        "title": tree.meta.title or source or tree.source,
        "summary": view.title(),
        "algorithm": view.algorithm,
        "best_first": view.algorithm.startswith(("sss", "dual")),
        "root_max": tree.root_max,
        "leaves_total": tree.n_leaves,
        "end": list(tree.end),
        "parent": list(tree.parent),
        "labels": [labels.label(n) for n in range(tree.n_nodes)],
        "pv": view.pv,
        "result": {
            "value": r.value,
            "exact": r.exact,
            "bound": r.bound,
            "leaves": r.leaves,
            "value_text": format_extended(r.value),
        },
        "steps": steps,
    }


def _script_json(data: dict[str, Any]) -> str:
    """JSON that is safe inside a <script> element (no "</" can close it early)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def to_html(
    view: SearchView,
    max_depth: int | None = None,
    source: str | None = None,
    *,
    page: str = "a4",
    layout: str = "auto",
) -> str:
    """The replay page: the bare tree as SVG (laid out for ``page``, gtsearch.render.layout),
    a panel, controls; no network, nothing external."""
    data = replay_data(view, source)
    svg = to_svg(view, max_depth, state=False, source=source, page=page, layout=layout)
    svg = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    return (
        _PAGE.replace("%TITLE%", escape(data["title"]))
        .replace("%SUMMARY%", escape(data["summary"]))
        .replace("%ALGORITHM%", escape(view.algorithm))
        .replace("%SVG%", svg)
        .replace("%DATA%", _script_json(data))
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE% — %ALGORITHM% step by step</title>
<style>
  :root { --pv: #d35400; --pruned: #9a9a9a; --evaluated: #2f6fc9; --current: #f1a208;
          --live: #1e8c3a; --solved: #8e44ad; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; }
  header { padding: 10px 18px; border-bottom: 1px solid #ddd; background: #fafafa; }
  header h1 { font-size: 18px; margin: 0 0 2px; }
  header p { margin: 0; }
  main { display: flex; align-items: flex-start; gap: 12px; padding: 12px 18px; }
  #picture { flex: 1 1 auto; overflow: auto; border: 1px solid #e3e3e3; border-radius: 6px;
             max-height: calc(100vh - 110px); }
  #panel { flex: 0 0 380px; max-height: calc(100vh - 110px); overflow: auto; }
  #controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
  #controls button { font-size: 15px; min-width: 38px; padding: 3px 8px; cursor: pointer; }
  #slider { width: 100%; margin: 8px 0 4px; }
  #step { font-weight: bold; font-variant-numeric: tabular-nums; margin-left: 6px; }
  #desc { min-height: 3.6em; padding: 8px 10px; margin: 8px 0; background: #fff8e5;
          border-left: 4px solid var(--current); border-radius: 3px; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #666;
       margin: 12px 0 4px; }
  ol.states { margin: 0; padding-left: 26px; font-family: "DejaVu Sans Mono", monospace;
              font-size: 13px; }
  ol.states li.live { color: var(--live); }
  ol.states li.solved { color: var(--solved); }
  ol.states li.top { font-weight: bold; }
  #log { margin: 0; padding-left: 34px; font-size: 12px; max-height: 260px; overflow: auto;
         font-family: "DejaVu Sans Mono", monospace; }
  #log li.now { background: #fff1c2; font-weight: bold; }
  #counts { font-variant-numeric: tabular-nums; }
  .hidden { display: none; }
  #picture.fit svg { width: 100%; height: auto; max-height: calc(100vh - 130px); }
  /* the picture: the bare tree, styled by the step */
  .node .shape { fill: white; stroke: black; stroke-width: 1; stroke-dasharray: none; }
  .node text { fill: #222; }
  .node .name { fill: #333; }
  .node .rank { fill: var(--evaluated); }
  .node.chance .shape { stroke: #7d3c98; }
  .edge, .drop, .stem { stroke: black; stroke-width: 0.9; }
  .node.onstack .shape { fill: #fff4cc; }
  .node.live .shape { stroke: var(--live); stroke-width: 2; }
  .node.solved .shape { stroke: var(--solved); stroke-width: 2; }
  .node.evaluated .shape { fill: var(--evaluated); }
  .node.evaluated .value { fill: white; }
  .node.pruned .shape { stroke: var(--pruned); stroke-dasharray: 3 2.25; fill: white; }
  .node.pruned text { fill: var(--pruned); }
  .edge.pruned, .drop.pruned, .stem.pruned { stroke: var(--pruned); stroke-dasharray: 3.75 3; }
  .edge.pv, .drop.pv, .stem.pv { stroke: var(--pv); stroke-width: 2.6; }
  .node.pv .shape { stroke: var(--pv); stroke-width: 2.2; }
  .node.current .shape { stroke: var(--current); stroke-width: 3.5; }
  .node.current:not(.evaluated) .shape { fill: #ffe8a3; }
  .legend span { display: inline-block; margin-right: 10px; font-size: 12px; }
  .legend span.hidden { display: none; }
  .swatch { display: inline-block; width: 14px; height: 10px; border: 2px solid; margin-right: 3px;
            vertical-align: -1px; }
</style>
</head>
<body data-step="0" data-current="">
<header>
  <h1>%TITLE%</h1>
  <p id="summary">%SUMMARY%</p>
</header>
<main>
  <section id="picture" class="fit">
%SVG%
  </section>
  <aside id="panel">
    <div id="controls">
      <button id="first" title="first step (Home)">|◀</button>
      <button id="prev" title="previous step (←)">◀</button>
      <button id="play" title="play / pause (space)">▶ play</button>
      <button id="next" title="next step (→)">▶</button>
      <button id="last" title="last step (End)">▶|</button>
      <label title="shrink the picture to the width of the page">
        <input id="fit" type="checkbox" checked> fit</label>
      <span>step <span id="step">0 / 0</span></span>
    </div>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <div id="desc"></div>
    <div id="counts"></div>
    <div id="stack-box" class="hidden">
      <h2>Call stack (windows in MAX's terms)</h2>
      <ol id="stack" class="states"></ol>
    </div>
    <div id="open-box" class="hidden">
      <h2>OPEN (next state first)</h2>
      <ol id="open" class="states"></ol>
    </div>
    <h2>Steps</h2>
    <ol id="log"></ol>
    <h2>Legend</h2>
    <div class="legend">
      <span><i class="swatch" style="background:var(--evaluated);border-color:#000"></i>evaluated</span>
      <span><i class="swatch" style="border-color:var(--pruned);border-style:dashed"></i>pruned</span>
      <span><i class="swatch" style="border-color:var(--current);background:#ffe8a3"></i>current</span>
      <span><i class="swatch" style="border-color:var(--pv)"></i>PV</span>
      <span class="bf"><i class="swatch" style="border-color:var(--live)"></i>LIVE state</span>
      <span class="bf"><i class="swatch" style="border-color:var(--solved)"></i>SOLVED state</span>
      <span class="df"><i class="swatch" style="background:#fff4cc;border-color:#000"></i>on the stack</span>
    </div>
  </aside>
</main>
<script id="trace-data" type="application/json">%DATA%</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const steps = data.steps;
  const last = steps.length - 1;
  const $ = (id) => document.getElementById(id);
  const nodeEl = (n) => document.getElementById("node-" + n);
  // each node's edge, the drop from the edge's end to the node's head and the stem below a
  // MIN node: styled alike (a stem is on the PV when the PV goes down it)
  const edges = new Map();
  document.querySelectorAll(".edges [data-node]").forEach((el) => {
    const n = Number(el.dataset.node);
    if (!edges.has(n)) edges.set(n, []);
    edges.get(n).push(el);
  });
  let at = 0, timer = null;

  $("slider").max = String(last);
  $(data.best_first ? "open-box" : "stack-box").classList.remove("hidden");
  document.querySelectorAll(data.best_first ? ".legend .df" : ".legend .bf")
    .forEach((el) => el.classList.add("hidden"));
  const log = $("log");
  for (let i = 1; i <= last; i++) {
    const li = document.createElement("li");
    li.value = i;
    li.textContent = steps[i].text;
    li.addEventListener("click", () => go(i));
    log.appendChild(li);
  }

  // the state after step k, replayed from the start (steps are small; going back is exact)
  function stateAt(k) {
    const s = { current: null, evaluated: new Map(), pruned: new Set(), ranges: new Map(),
                stack: [], open: steps[0].open || [], openText: steps[0].open_text || [],
                solved: new Set(), done: false, evaluations: 0 };
    for (let i = 1; i <= k; i++) {
      const st = steps[i];
      if (st.event === "enter" || st.event === "probe") {
        s.stack.push({ node: st.node, label: st.label, player: st.player, window: st.window,
                       best: null, note: null });
      } else if (st.event === "return" || st.event === "probed") {
        s.stack.pop();
      } else if (st.event === "window" && s.stack.length) {
        s.stack[s.stack.length - 1].note = st.note;  // the chance node: its next outcome's window
      }
      if ((st.event === "leaf" || st.event === "return" || st.event === "tt_cut") &&
          st.parent_best !== null &&
          s.stack.length) {
        s.stack[s.stack.length - 1].best = st.parent_best;
      }
      if (st.event === "leaf" || (st.event === "take" && st.case === 2)) {
        // every evaluation numbered, a leaf read again once more: "#3,16"
        const before = s.evaluated.get(st.node);
        s.evaluated.set(st.node, (before ? before + "," : "#") + st.rank);
        s.evaluations++;
      }
      if (st.event === "take") {
        s.open = st.open || [];
        s.openText = st.open_text || [];
        (st.solved || []).forEach((n) => s.solved.add(n));
      }
      for (const [n, text] of st.ranges || []) s.ranges.set(n, text);
      for (const head of st.pruned || []) {
        for (let m = head; m < data.end[head]; m++) s.pruned.add(m);
      }
      s.current = st.event === "result" ? null : (st.node === undefined ? null : st.node);
      if (st.event === "result") s.done = true;
    }
    return s;
  }

  function show(k) {
    const s = stateAt(k);
    const onStack = new Set(s.stack.map((f) => f.node));
    const live = new Set(s.open.filter((x) => x.status === "live").map((x) => x.node));
    const solvedOpen = new Set(s.open.filter((x) => x.status === "solved").map((x) => x.node));
    const pv = new Set(s.done ? data.pv : []);
    const through = new Set(s.done ? data.pv.map((k) => data.parent[k]) : []);
    for (let n = 0; n < data.end.length; n++) {
      const el = nodeEl(n);
      if (!el) continue;
      el.classList.toggle("current", s.current === n);
      el.classList.toggle("evaluated", s.evaluated.has(n));
      el.classList.toggle("pruned", s.pruned.has(n));
      el.classList.toggle("onstack", onStack.has(n));
      el.classList.toggle("live", live.has(n));
      el.classList.toggle("solved", solvedOpen.has(n));
      el.classList.toggle("pv", pv.has(n));
      const range = document.getElementById("range-" + n);
      if (range) range.textContent = s.ranges.get(n) || "";
      const rank = document.getElementById("rank-" + n);
      // a leaf's place in the order; mcts: a leaf's visits and mean, under it
      const leafText = data.end[n] === n + 1 ? s.ranges.get(n) || "" : "";
      if (rank) rank.textContent = s.evaluated.has(n) ? s.evaluated.get(n) : leafText;
      for (const edge of edges.get(n) || []) {
        edge.classList.toggle("pruned", s.pruned.has(n));
        const stem = edge.classList.contains("stem");
        edge.classList.toggle("pv", stem ? through.has(n) : pv.has(n) && n !== 0);
      }
    }
    const st = steps[k];
    $("step").textContent = k + " / " + last;
    $("slider").value = String(k);
    $("desc").textContent = k === 0
      ? "Before the first step. Press ▶ or → to search."
      : st.text;
    let prunedLeaves = 0;
    s.pruned.forEach((n) => { if (data.end[n] === n + 1) prunedLeaves++; });
    const again = s.evaluations > s.evaluated.size ? " in " + s.evaluations + " evaluations" : "";
    $("counts").textContent = "leaves evaluated: " + s.evaluated.size + " of " +
      data.leaves_total + again + " · pruned so far: " + prunedLeaves;
    const stack = $("stack");
    stack.replaceChildren(...s.stack.map((f, i) => {
      const li = document.createElement("li");
      let text = f.label + " (" + f.player.toUpperCase() + ")";
      if (f.window) text += "  " + f.window;
      if (f.best !== null) text += (f.player === "chance" ? "  sum " : "  best ") + fmt(f.best);
      if (f.note) text += "  · " + f.note;
      li.textContent = text;
      li.dataset.node = f.node;
      if (i === s.stack.length - 1) li.className = "top";
      return li;
    }));
    const open = $("open");
    open.replaceChildren(...s.openText.map((text, i) => {
      const li = document.createElement("li");
      li.textContent = text;
      li.dataset.node = s.open[i].node;
      li.className = s.open[i].status + (i === 0 ? " top" : "");
      return li;
    }));
    log.querySelectorAll("li.now").forEach((li) => li.classList.remove("now"));
    if (k > 0) {
      const li = log.children[k - 1];
      li.classList.add("now");
      li.scrollIntoView({ block: "nearest" });
    }
    document.body.dataset.step = String(k);
    document.body.dataset.current = s.current === null ? "" : String(s.current);
    $("prev").disabled = $("first").disabled = k === 0;
    $("next").disabled = $("last").disabled = k === last;
  }

  function fmt(v) {
    if (v === "+inf") return "+∞";
    if (v === "-inf") return "-∞";
    return String(v);
  }

  function go(k) {
    at = Math.max(0, Math.min(last, k));
    show(at);
    if (at === last) stop();
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "▶ play";
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (at === last) go(0);
    $("play").textContent = "❚❚ pause";
    timer = setInterval(() => go(at + 1), 800);
  }

  $("first").addEventListener("click", () => { stop(); go(0); });
  $("prev").addEventListener("click", () => { stop(); go(at - 1); });
  $("next").addEventListener("click", () => { stop(); go(at + 1); });
  $("last").addEventListener("click", () => { stop(); go(last); });
  $("play").addEventListener("click", play);
  $("fit").addEventListener("change", (e) => $("picture").classList.toggle("fit", e.target.checked));
  $("slider").addEventListener("input", (e) => { stop(); go(Number(e.target.value)); });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.key !== " ") return;
    if (e.key === "ArrowRight") { stop(); go(at + 1); }
    else if (e.key === "ArrowLeft") { stop(); go(at - 1); }
    else if (e.key === "Home") { stop(); go(0); }
    else if (e.key === "End") { stop(); go(last); }
    else if (e.key === " ") { e.preventDefault(); play(); }
    else return;
  });
  go(0);
})();
</script>
</body>
</html>
"""

__all__ = ["replay_data", "to_html"]
