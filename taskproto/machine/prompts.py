"""A state's prompt, rendered from a jinja2 template.

Templates ship in the package (`taskproto/templates/<workflow>/<state>.md.j2`)
and a repository overrides any of them in `<root>/templates/<workflow>/`.
Undefined names fail loudly (StrictUndefined): a broken template must stop a
transition, not render a prompt with holes in it.

Standard library only until something is rendered (then jinja2): the quick write path
(hooks/move.py) renders a tight-loop handoff's prompt here too, on task.json's JSON seen as a task
(machine/steps.py `Record`), with the workflow's own scope (`SCOPES`).
"""

from __future__ import annotations

import os

from taskproto import layout
from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.config import Config
    from taskproto.state.models import Task

# paths are str here: a quick transition asks whether its new state has a template, and imports
# no pathlib
PACKAGE_TEMPLATES = layout.PACKAGE_TEMPLATES
SUFFIX = layout.TEMPLATE_SUFFIX


def template_dirs(config: Config, workflow: str) -> list[str]:
    """Where `workflow`'s templates are looked up, the override first; only folders that exist."""
    return layout.template_dirs(config.layout.root, workflow)  # config.root would import pathlib


def overridden(config: Config, workflow: str) -> bool:
    """Whether the repository has a folder of templates for `workflow` (overriding any of the
    package's own, or adding any)."""
    return os.path.isdir(layout.own_template_dir(config.layout.root, workflow))


def template_path(config: Config, workflow: str, state: str) -> str | None:
    """The template of `state`'s prompt, or None when it has none."""
    return _find(config, workflow, f"{state}{SUFFIX}")


def _find(config: Config, workflow: str, name: str) -> str | None:
    for folder in template_dirs(config, workflow):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


# Workflows whose prompts see a scope of their own instead of the general one below
# ("module:function", imported when first needed). tight-loop's handoff prompts see the
# decision, the results and the phase's fresh workflow context, and nothing else.
SCOPES = {"tight-loop": "taskproto.machine.builtin.tight_loop_scope:handoff_scope"}


def _own_scope(workflow: str) -> Callable[[Task], dict[str, Any]] | None:
    target = SCOPES.get(workflow)
    if target is None:
        return None
    import importlib

    module, _, function = target.partition(":")
    found: Callable[[Task], dict[str, Any]] = getattr(importlib.import_module(module), function)
    return found


def scope(task: Task) -> dict[str, Any]:
    """The names a template sees."""
    own = _own_scope(task.workflow)
    if own is not None:
        return own(task)
    from taskproto.state import review

    notes = list(task.context.get("feedback_notes") or [])
    questions = (task.artifacts.get("context_artifact") or {}).get("questions_for_developer") or []
    answers = task.context.get("answers") or {}
    return {
        "task": {
            "name": task.name,
            "description": task.description,
            "state": task.state,
            "workflow": task.workflow,
        },
        "state": task.state,
        "context_store": dict(task.artifacts),
        "context": dict(task.context),
        "counters": task.counters.model_dump(),
        "feedback_notes": notes,
        "feedback": [n for n in notes if n.get("state") == task.state],
        "clarifications": [
            {"number": i, "question": q, "answer": answers.get(str(i))}
            for i, q in enumerate(questions, 1)
        ],
        # The user's latest revision from the board while the agent still has to act on it.
        "review": review.pending(task),
        "review_feedback": review.context_text(task),
    }


def render(config: Config, task: Task) -> str | None:
    """The prompt for the task's current state, or None when its workflow has no template for it.

    Raises TaskprotoError (naming the template) when the template is broken.
    """
    path = template_path(config, task.workflow, task.state)
    if path is None:
        return None
    return render_file(config, task.workflow, path, scope(task))


def render_named(config: Config, workflow: str, name: str, names: dict[str, Any]) -> str:
    """Render template `name` (e.g. `_help.md.j2`) of `workflow`, overridable like the others."""
    path = _find(config, workflow, name)
    if path is not None:
        return render_file(config, workflow, path, names)
    raise TaskprotoError(
        f"workflow {workflow} has no template {name} "
        f"(looked in {config.root / 'templates' / workflow} and the package)"
    )


def render_file(config: Config, workflow: str, path: str, names: dict[str, Any]) -> str:
    import jinja2  # only when there is something to render

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dirs(config, workflow)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["mermaid_id"] = mermaid_id
    env.filters["mermaid_label"] = mermaid_label
    try:
        return env.get_template(os.path.basename(path)).render(**names)
    except jinja2.TemplateError as exc:
        where = f"{path}:{exc.lineno}" if isinstance(exc, jinja2.TemplateSyntaxError) else str(path)
        raise TaskprotoError(
            f"the prompt template {where} failed to render ({type(exc).__name__}: {exc}); "
            "nothing was changed; fix or remove the template"
        ) from None


def mermaid_id(value: object) -> str:
    """A Mermaid node id for any text (SLOT ids like `S1.1`): letters, digits and `_` only."""
    import re

    return "n_" + re.sub(r"[^A-Za-z0-9_]", "_", str(value))


def mermaid_label(value: object) -> str:
    """Text safe inside a quoted Mermaid label."""
    return (
        str(value)
        .replace("&", "#amp;")
        .replace('"', "#quot;")
        .replace("<", "#lt;")
        .replace(">", "#gt;")
        .replace("\n", " ")
    )
