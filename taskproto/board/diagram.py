"""A workflow as an SVG state diagram with the current state highlighted, drawn here (no
JavaScript, nothing fetched).

The states stand in one column in their definition order (the order a task goes through them).
A step to the next state is a straight arrow; a step further forward is an arc on the left, a
step back an arc on the right, each arc in its own lane so none overlap. Every edge carries its
trigger as a label and a tooltip. The Mermaid text of the same workflow is offered beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from taskproto.machine.workflow import Workflow, to_mermaid

BOX_W, BOX_H, PITCH = 210, 30, 58
LANE = 16  # horizontal space per arc lane
CHAR_W = 6  # about the width of a label character at 10px


@dataclass(frozen=True)
class Edge:
    trigger: str
    src: int
    dst: int
    guards: tuple[str, ...]


def _edges(wf: Workflow, index: dict[str, int]) -> list[Edge]:
    seen: set[tuple[str, int, int]] = set()
    out: list[Edge] = []
    for t in wf.transitions:
        for s in t.source:
            key = (t.trigger, index[s], index[t.dest])
            if key not in seen:
                seen.add(key)
                out.append(Edge(t.trigger, index[s], index[t.dest], tuple(t.guards)))
    return out


def _lanes(spans: list[tuple[int, int]]) -> list[int]:
    """Greedy interval colouring: arcs whose row spans overlap get different lanes."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][1] - spans[i][0], spans[i][0]))
    taken: list[list[tuple[int, int]]] = []
    lane_of = [0] * len(spans)
    for i in order:
        lo, hi = spans[i]
        for n, used in enumerate(taken):
            if all(hi < a or lo > b for a, b in used):
                used.append((lo, hi))
                lane_of[i] = n
                break
        else:
            taken.append([(lo, hi)])
            lane_of[i] = len(taken) - 1
    return lane_of


def render(
    wf: Workflow, current: str | None, visited: set[str] | None = None, last: str | None = None
) -> str:
    """The SVG of `wf`: `current` filled, `visited` tinted, the `last` trigger's edge bold."""
    names = wf.state_names()
    index = {n: i for i, n in enumerate(names)}
    edges = _edges(wf, index)
    forward = [e for e in edges if e.dst > e.src + 1]
    back = [e for e in edges if e.dst <= e.src]
    left_lanes = _lanes([(e.src, e.dst) for e in forward])
    right_lanes = _lanes([(e.dst, e.src) for e in back])
    n_left = max(left_lanes, default=-1) + 1
    n_right = max(right_lanes, default=-1) + 1
    x0 = 12 + n_left * LANE + 8
    right_edge = x0 + BOX_W + 8 + n_right * LANE
    longest = max((len(e.trigger) for e in back + forward), default=0)
    width = max(right_edge + 8 + longest * CHAR_W, x0 + BOX_W + 16 + 20 * CHAR_W)
    height = 20 + len(names) * PITCH
    visited = visited or set()

    def top(i: int) -> int:
        return 16 + i * PITCH

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="workflow {escape(wf.name)}, current state {escape(current or "?")}">',
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' "
        "markerHeight='7' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' "
        "class='arrowhead'/></marker></defs>",
    ]
    for e in edges:
        cls = "edge last" if e.trigger == last else "edge"
        tip = escape(e.trigger + (f" [{', '.join(e.guards)}]" if e.guards else ""))
        y1, y2 = top(e.src) + BOX_H, top(e.dst)
        if e.dst == e.src + 1:
            cx = x0 + BOX_W // 2
            path = f"M{cx},{y1} L{cx},{y2 - 1}"
            label = (cx + 8, (y1 + y2) // 2 + 4, "start")
        elif e.dst > e.src + 1:
            lane = left_lanes[forward.index(e)]
            lx = x0 - 8 - lane * LANE
            ya, yb = top(e.src) + BOX_H // 2 - 5, top(e.dst) + BOX_H // 2 - 5
            path = f"M{x0},{ya} L{lx},{ya} L{lx},{yb} L{x0 - 1},{yb}"
            label = (right_edge + 4, ya + 4, "start")
        else:
            lane = right_lanes[back.index(e)]
            rx = x0 + BOX_W + 8 + lane * LANE
            k = sum(1 for o in back[: back.index(e)] if o.src == e.src)  # earlier ones from here
            ya = top(e.src) + BOX_H // 2 - 6 + 12 * k
            yb = top(e.dst) + BOX_H // 2 + 5
            path = f"M{x0 + BOX_W},{ya} L{rx},{ya} L{rx},{yb} L{x0 + BOX_W + 1},{yb}"
            label = (right_edge + 4, ya + 4, "start")
        parts.append(
            f'<g class="{cls}" data-trigger="{escape(e.trigger)}"><title>{tip}</title>'
            f'<path d="{path}" marker-end="url(#arrow)"/>'
            f'<text x="{label[0]}" y="{label[1]}" text-anchor="{label[2]}">'
            f"{escape(e.trigger)}</text></g>"
        )
    for name in names:
        state = wf.state(name)
        i = index[name]
        classes = ["state"]
        if name == current:
            classes.append("current")
        elif name in visited:
            classes.append("visited")
        if state.checkpoint:
            classes.append("checkpoint")
        if state.terminal:
            classes.append("terminal")
        tip = escape(f"{name}: {state.description}" if state.description else name)
        parts.append(
            f'<g class="{" ".join(classes)}" data-state="{escape(name)}"><title>{tip}</title>'
            f'<rect x="{x0}" y="{top(i)}" width="{BOX_W}" height="{BOX_H}" rx="6"/>'
            f'<text x="{x0 + BOX_W // 2}" y="{top(i) + 19}" text-anchor="middle">'
            f"{escape(name)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def mermaid(wf: Workflow, current: str | None) -> str:
    """The Mermaid text of the workflow, the current state marked with a class."""
    text = to_mermaid(wf)
    if current and wf.has_state(current):
        text += f"    classDef current fill:#ffd54f,stroke:#333\n    class {current} current\n"
    return text
