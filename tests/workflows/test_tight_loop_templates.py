"""The package's tight-loop templates render on every task a loop can make: any subtasks, notes,
discovered tasks, focus and handoff results (any JSON, or text), in every phase. So the quick path
leaves a prompt nobody reads unrendered when the repository overrides none of them (hooks/move.py
`_prompted`): rendering it could not have refused the handoff. A repository's own templates are
rendered before every save (tests/hooks/test_move_tight_loop.py)."""

from __future__ import annotations

import random
from typing import Any

from taskproto.errors import TaskprotoError
from taskproto.machine import prompts
from taskproto.machine.builtin.tight_loop import PHASES
from taskproto.ops import tight_loop as ops
from taskproto.ops import tight_loop_answers as answers

RESULTS: list[Any] = [
    None,
    "",
    "two done,\none failed\n",
    {"completed": ["T1"], "failed": [{"id": "T2", "why": None}]},
    {"": "", "{{ name }}": "{% if %}", "ünï": "🎉"},
    [1, "two", {"three": 3}],
    0,
    2.5,
    True,
    {"long": "x" * 2000},
    {"deep": {"a": {"b": {"c": [[[]]]}}}},
]
NOTES: list[str | None] = [None, "", "flaky", "{{ undefined }}", 'tab\t"q" ünï 🎉', "y" * 500]
TITLES = ["Write the parser", "Fix {{ this }}", "ünï 🎉 title", "z" * 300, "a;b; c"]


def _render_every_phase(engine: Any, name: str) -> int:
    """Each phase's template on the task as it is now (the state set to that phase)."""
    task = engine.load(name)
    rendered = 0
    for phase in (*PHASES, "FULL_AUTO"):
        view = task.model_copy(deep=True)
        view.state = phase
        text = prompts.render(engine.config, view)
        assert text, phase
        rendered += 1
    return rendered


def test_every_template_renders_on_every_task_a_loop_makes(engine: Any) -> None:
    rng = random.Random(2026)
    rendered = 0
    for n in range(5):
        name = f"loop{n}"
        engine.create_task(name, workflow="tight-loop", description=rng.choice(TITLES))
        for _ in range(40):
            state = engine.load(name).state
            if state == "FULL_AUTO":
                break
            roll = rng.random()
            task = engine.load(name)
            pending = [
                s["id"] for s in task.context.get("subtasks") or [] if s["status"] == "pending"
            ]
            discovered = [
                d["id"] for d in task.context.get("discovered") or [] if not d.get("dropped")
            ]
            try:
                if roll < 0.35:
                    ops.add(engine, name, f"{rng.choice(TITLES)} {rng.randint(0, 99)}")
                elif roll < 0.55 and state == "EXECUTE" and pending:
                    ident = rng.choice(pending)
                    if rng.random() < 0.3:
                        answers.skip(engine, name, ident, rng.choice(NOTES))
                    else:
                        ops.finish(engine, name, ident, rng.random() < 0.6, rng.choice(NOTES))
                elif roll < 0.6 and state == "REVIEW" and discovered:
                    answers.drop(engine, name, rng.choice(discovered))
                else:
                    to = {"PLAN": "EXECUTE", "EXECUTE": "REVIEW"}.get(state)
                    decision = "YES"
                    if to is None:  # REVIEW: loop or break
                        to, decision = (
                            ("PLAN", "YES") if rng.random() < 0.85 else ("FULL_AUTO", "NO")
                        )
                    ops.handoff(engine, name, to, decision, rng.choice(RESULTS))
            except TaskprotoError as exc:  # the workflow's own rules refuse; never a template
                assert "render" not in str(exc), exc
            rendered += _render_every_phase(engine, name)
    assert rendered > 250, rendered
