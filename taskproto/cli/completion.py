"""`taskproto completion bash|zsh|fish`, and what the shells complete.

The script is click's own (`click.shell_completion`): it runs `taskproto` with
`_TASKPROTO_COMPLETE` set and the words typed so far, and click answers (cli/__init.py sends that
straight to click, past the quick paths). Sub-commands and options are click's; the values of
parameters are completed here, by the parameter's name, which the commands use consistently
(`COMPLETED`): task names (the task folders' names, no git process), the agents of the task
named earlier on the line, the states of its workflow (for `transition NAME STATE` and `--to`,
the states it can move to now), the triggers of its state, and workflow names. `attach` gives
each command's parameters their completion when the group imports the command (cli/app.py), and
only while the shell asks for completions. docs/completion.md is the setup per shell.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem, get_completion_class

if TYPE_CHECKING:
    from taskproto.layout import Layout

COMPLETE_VAR = "_TASKPROTO_COMPLETE"
SHELLS = ("bash", "zsh", "fish")

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion(ctx: click.Context, shell: str) -> None:
    """Print the completion script for SHELL (bash, zsh or fish).

    It completes commands, options, task names, the agents of a task, the states of its
    workflow and workflow names. Load it from the shell's start-up file:

    \b
      bash  in ~/.bashrc:  eval "$(taskproto completion bash)"
      zsh   in ~/.zshrc, after compinit:  eval "$(taskproto completion zsh)"
      fish  once:  taskproto completion fish > ~/.config/fish/completions/taskproto.fish

    See docs/completion.md.
    """
    kind = get_completion_class(shell)
    assert kind is not None  # click knows every shell of SHELLS
    script = kind(ctx.find_root().command, {}, "taskproto", COMPLETE_VAR).source()
    click.echo(script, nl=False)


def attach(command: click.Command, path: tuple[str, ...] = ()) -> None:
    """Give `command`'s parameters (and its sub-commands', for a group) their completion."""
    path = (*path, command.name or "")
    for param in command.params:
        found = completer(path, param.name or "")
        if found is not None and param._custom_shell_complete is None:
            # what `shell_complete=` sets; done here, by name, for every command at once
            param._custom_shell_complete = found
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            attach(sub, path)


def completer(path: tuple[str, ...], name: str) -> Completer | None:
    """The completion of parameter `name` of the command at `path` (`("task", "create")`)."""
    if path[-2:] == ("task", "create") and name == "name":
        return None  # a new task's name
    if path[-2:] == ("workflow", "show") and name == "name":
        return workflows
    return COMPLETED.get(name)


def _layout(ctx: click.Context) -> Layout | None:
    """The repository's layout (layout.py) for the line being completed, or None."""
    from taskproto.layout import SettingsError, find_layout

    top = ctx.find_root().params
    start = top.get("repo") or os.getcwd()
    try:
        return find_layout(os.path.abspath(start), top.get("root"))
    except (SettingsError, OSError):
        return None


def _items(values: list[str], incomplete: str, fold: bool = False) -> list[CompletionItem]:
    prefix = incomplete.upper() if fold else incomplete
    return [CompletionItem(v) for v in values if (v.upper() if fold else v).startswith(prefix)]


def tasks(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The tasks here: the names of the task folders."""
    from taskproto.errors import InvalidName
    from taskproto.names import task_name

    layout = _layout(ctx)
    if layout is None:
        return []
    names = []
    for name in layout.task_names():
        try:
            task_name(name)
        except InvalidName:
            continue
        names.append(name)
    return _items(names, incomplete)


def _task(ctx: click.Context) -> tuple[Layout, dict[str, Any]] | None:
    """(the layout, task.json's JSON) of the task named earlier on the line, or None."""
    from taskproto import plainjson as json
    from taskproto.state.light import read_bytes

    name = ctx.params.get("name") or ctx.params.get("task")
    if name is None and ctx.args:
        # an option waits for its value: click then leaves the arguments unparsed, in order, and
        # every command that completes these names takes the task first
        name = ctx.args[0]
    layout = _layout(ctx)
    if not isinstance(name, str) or layout is None or "/" in name or name.startswith("."):
        return None
    raw, _ = read_bytes(layout.task_file(name))
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    return (layout, data) if isinstance(data, dict) else None


def agents(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The agents of the task named earlier on the line."""
    found = _task(ctx)
    names = found[1].get("required_agents") if found else None
    return _items([n for n in names if isinstance(n, str)], incomplete) if names else []


def _table(ctx: click.Context) -> tuple[dict[str, Any], dict[str, dict[str, Any]]] | None:
    """(task.json's JSON, its workflow's state table) of the task named earlier on the line."""
    from taskproto.errors import TaskprotoError
    from taskproto.hooks.flags import state_flags

    found = _task(ctx)
    if found is None:
        return None
    layout, data = found
    workflow = data.get("workflow")
    if not isinstance(workflow, str):
        return None
    try:
        return data, state_flags(layout, workflow)
    except (TaskprotoError, OSError, ValueError):
        return None


def states(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Every state of the task's workflow."""
    found = _table(ctx)
    return _items(sorted(found[1]), incomplete, fold=True) if found else []


def next_states(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The states the task can move to from the one it is in."""
    found = _table(ctx)
    if found is None:
        return []
    data, table = found
    here = table.get(str(data.get("state")), {})
    reachable = here.get("next")
    return _items(list(reachable), incomplete, fold=True) if isinstance(reachable, list) else []


def triggers(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The triggers of the state the task is in."""
    found = _table(ctx)
    if found is None:
        return []
    data, table = found
    entries = table.get(str(data.get("state")), {}).get("triggers")
    if not isinstance(entries, list):
        return []
    return _items(sorted({str(t["trigger"]) for t in entries if isinstance(t, dict)}), incomplete)


def workflows(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The built-in workflows and this repository's own."""
    from taskproto.config import load_config
    from taskproto.errors import TaskprotoError
    from taskproto.machine.registry import workflow_names

    top = ctx.find_root().params
    try:
        config = load_config(top.get("repo") or None, top.get("root"))
    except TaskprotoError:
        config = None
    try:
        names = workflow_names(config)
    except TaskprotoError:
        names = workflow_names(None)
    return _items(names, incomplete)


# A parameter's name (click's: the option's destination) -> what completes it.
COMPLETED: dict[str, Completer] = {
    **dict.fromkeys(("name", "task", "tasks", "parent", "after", "on"), tasks),
    **dict.fromkeys(("agent", "agents"), agents),
    **dict.fromkeys(("state_name", "to"), next_states),
    **dict.fromkeys(("target", "phase", "from_phase"), states),
    "trigger": triggers,
    "workflow": workflows,
}


COMMANDS = [completion]
