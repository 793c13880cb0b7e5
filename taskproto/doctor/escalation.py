"""The escalation message for a finding doctor cannot fix safely, rendered with jinja2.

The template ships as taskproto/templates/escalation.md.j2; a file of the same
name in `<root>/templates/` overrides it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from taskproto.config import Config
from taskproto.doctor.model import ABANDON, Finding, Option
from taskproto.doctor.snapshot import Snapshot, relative
from taskproto.names import agent_branch

TEMPLATE = "escalation.md.j2"
PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def template_dirs(config: Config) -> list[str]:
    return [str(config.root / "templates"), str(PACKAGE_TEMPLATES)]


def work_at_risk(snap: Snapshot | None, task: str | None) -> str:
    """The branches and worktrees that hold this task's work, from the snapshot (no git)."""
    if task is None:
        return "no task's work: this concerns the repository"
    if snap is None:
        return "unknown"
    view = snap.tasks.get(task)
    agents = (
        view.task.required_agents
        if view is not None and view.task is not None
        else (view.agent_dirs if view is not None else [])
    )
    config = snap.config
    # where each branch's worktree is now: git's registration names the old place until a moved
    # repository is re-linked (docs/doctor.md, "A moved repository"), taskproto's layout the new
    here = {task: config.task_worktree(task)}
    here.update({agent_branch(task, a): config.agent_worktree(task, a) for a in agents})
    held = []
    for b in here:  # the task's branch first, then its agents', in order
        if b in snap.branches:
            wt = snap.wt_by_branch.get(b)
            path = None if wt is None else wt.path
            if path is not None and not os.path.isdir(path):
                path = here[b] if here[b].is_dir() else None
            held.append(
                f"branch {b} at {snap.branches[b][:12]}"
                + (f" (worktree {relative(config, path)})" if path is not None else "")
            )
    if not held:
        return "no task branch exists; only the task's records are affected"
    return "commits and uncommitted changes on " + ", ".join(held) + " (doctor never deletes them)"


def _named(text: str, names: dict[str, str]) -> str:
    """Placeholders (`TASK`, `AGENT`, `BRANCH`, `PATH`, `REMOTE`) inside backticks replaced by the
    real names, so every command shown can be pasted as it is."""
    import re

    def fill(m: re.Match[str]) -> str:
        span = m.group(0)
        for key, value in names.items():
            span = re.sub(rf"\b{key}\b", value.replace("\\", "\\\\"), span)
        return span

    return re.sub(r"`[^`]*`", fill, text)


def named_options(
    options: tuple[Option, ...] | list[Option], names: dict[str, str]
) -> list[Option]:
    """The options with the real names in their titles and commands."""
    out = []
    for o in options:
        command = None
        if o.command is not None:
            command = tuple(names.get(a, a) for a in o.command)
        out.append(
            Option(_named(o.title, names), o.pros, o.cons, command) if o is not ABANDON else o
        )
    return out


def names_of(finding: Finding, config: Config | None = None) -> dict[str, str]:
    names = {
        "TASK": finding.task,
        "AGENT": finding.agent,
        "BRANCH": finding.data.get("branch"),
        "PATH": finding.path,
        "REMOTE": config.remote if config is not None else None,
    }
    return {k: str(v) for k, v in names.items() if v}


def numbered(
    finding: Finding, options: tuple[Option, ...] | None = None, config: Config | None = None
) -> list[Option]:
    """The options an escalation of `finding` offers, in order, with the real names."""
    opts = named_options(
        list(options if options is not None else finding.info.options), names_of(finding, config)
    )
    if not finding.task or finding.data.get("removed"):  # no task to abandon (docs/doctor.md)
        return [o for o in opts if o is not ABANDON]
    if ABANDON not in opts:
        opts.append(ABANDON)
    return opts


def render(
    config: Config,
    finding: Finding,
    state: str | None,
    tried: list[str],
    impact: str,
    options: tuple[Option, ...] | None = None,
    also: list[str] | None = None,
    selector: str = "",
) -> str:
    """The message; `also`: further symptoms of the same root cause (one message for all);
    `selector`: what `taskproto recover TASK` needs besides `--option N` to find this message."""
    import jinja2  # only when something has to be escalated

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dirs(config)),
        keep_trailing_newline=True,
        autoescape=False,
        undefined=jinja2.StrictUndefined,
    )
    opts = numbered(finding, options, config)
    context: dict[str, Any] = {
        "task": finding.task or "(repository)",
        "issue": finding.message
        + (f" (and, from the same cause: {'; '.join(also)})" if also else ""),
        "check": finding.check,
        "state": state
        or (
            "unknown (task.json unreadable)"
            if finding.task
            else "- (the repository's finding, not one task's)"
        ),
        "tried": tried,
        "impact": impact,
        "options": opts,
        "agent": finding.agent,
        "recover": f"taskproto recover {finding.task}{selector}" if finding.task else None,
    }
    return env.get_template(TEMPLATE).render(**context)
