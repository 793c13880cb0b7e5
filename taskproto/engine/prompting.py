"""The prompt of the state a transition reached, for the commands that print it (`handoff
--json`, plan-task's steps, the MCP server): rendered from the package's templates only when asked
for (they render for every task: tests/workflows), from a repository's own templates before the
change is saved, so a broken one refuses it (engine/transitions.py `advance`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.config import Config
    from taskproto.state.models import Task


class Prompts:
    def __init__(self, config: Config) -> None:
        self.config = config
        self._text: str | None = None
        self._of: Task | None = None  # a task whose prompt is rendered when asked for

    def text(self) -> str | None:
        if self._of is not None:
            from taskproto.machine import prompts

            task, self._of = self._of, None
            self._text = prompts.render(self.config, task)
        return self._text

    def set(self, value: str | None) -> None:
        self._text, self._of = value, None

    def keep(self, task: Task) -> None:
        """The prompt of `task`'s state: rendered now when the repository has templates of its
        own for its workflow (a broken one refuses the change), else when asked for."""
        from taskproto.machine import prompts

        if prompts.template_path(self.config, task.workflow, task.state) is None:
            self.set(None)
        elif prompts.overridden(self.config, task.workflow):
            self.set(prompts.render(self.config, task))
        else:
            self._text, self._of = None, task
