"""A state's prompt, rendered from a jinja2 template.

Templates ship in the package (`taskproto/templates/<workflow>/<state>.md.j2`)
and a repository overrides any of them in `<root>/templates/<workflow>/`.
Undefined names fail loudly (StrictUndefined): a broken template must stop a
transition, not render a prompt with holes in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskproto.errors import TaskprotoError
from taskproto.state import review

if TYPE_CHECKING:
    from taskproto.config import Config
    from taskproto.state.models import Task

PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
SUFFIX = ".md.j2"


def template_dirs(config: Config, workflow: str) -> list[Path]:
    """Where `workflow`'s templates are looked up, the override first; only folders that exist."""
    dirs = [config.root / "templates" / workflow, PACKAGE_TEMPLATES / workflow]
    return [d for d in dirs if d.is_dir()]


def template_path(config: Config, workflow: str, state: str) -> Path | None:
    for folder in template_dirs(config, workflow):
        path = folder / f"{state}{SUFFIX}"
        if path.is_file():
            return path
    return None


def scope(task: Task) -> dict[str, Any]:
    """The names a template sees."""
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
    import jinja2  # only when there is something to render

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in template_dirs(config, task.workflow)]),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    try:
        return env.get_template(path.name).render(**scope(task))
    except jinja2.TemplateError as exc:
        where = f"{path}:{exc.lineno}" if isinstance(exc, jinja2.TemplateSyntaxError) else str(path)
        raise TaskprotoError(
            f"the prompt template {where} failed to render ({type(exc).__name__}: {exc}); "
            "nothing was changed; fix or remove the template"
        ) from None
