"""The prompt a headless agent starts with when none is given: its state's own prompt where the
workflow has one (`taskproto prompt`), else `agent.md.j2` (the package's, or `<root>/templates/`'s
of the same name): who it is, where it works, and how it says it is done."""

from __future__ import annotations

from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.engine import Engine

TEMPLATE = "agent.md.j2"


def starting_prompt(engine: Engine, task: str, agent: str) -> str:
    from taskproto.machine import prompts
    from taskproto.ops.plan_task import prompt as rendered

    loaded = engine.load(task)
    if prompts.template_path(engine.config, loaded.workflow, loaded.state) is not None:
        return rendered(engine, task)
    import jinja2

    from taskproto.names import agent_branch

    folders = [str(engine.config.root / "templates"), prompts.PACKAGE_TEMPLATES]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        keep_trailing_newline=True,
        autoescape=False,
        undefined=jinja2.StrictUndefined,
    )
    try:
        return env.get_template(TEMPLATE).render(
            task={
                "name": loaded.name,
                "description": loaded.description,
                "workflow": loaded.workflow,
                "state": loaded.state,
            },
            agent=agent,
            branch=agent_branch(task, agent),
            others=[a for a in loaded.required_agents if a != agent],
        )
    except jinja2.TemplateError as exc:
        raise TaskprotoError(
            f"the agent's prompt template {TEMPLATE} cannot be rendered ({exc}); fix it in "
            f"{engine.config.root / 'templates'} or pass --prompt TEXT"
        ) from None
