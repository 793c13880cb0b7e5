"""Task, agent and workflow names: checked once, where they enter."""

from __future__ import annotations

from taskproto.errors import InvalidName

# Validated once where a name enters (CLI argument, MCP call, hook payload, folder listing);
# inside, code takes these types and trusts them.
TYPE_CHECKING = False  # hooks import this module: no `typing` at run time
if TYPE_CHECKING:
    from typing import NewType

    TaskName = NewType("TaskName", str)
    AgentName = NewType("AgentName", str)
else:
    TaskName = AgentName = str  # what NewType is at run time: the value itself

MAX_NAME = 64
_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_ALLOWED = _FIRST | frozenset("._-")  # `[A-Za-z0-9][A-Za-z0-9._-]*`, without importing `re`
_RESERVED = {"HEAD", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "main", "master"}


def check_name(kind: str, name: str) -> str:
    """Return `name` if it is a safe task/agent/workflow name, else raise InvalidName.

    Safe means: usable as a git branch name and as a single folder name, with no
    way to climb out of the tasks folder. The rules are stricter than
    `git check-ref-format --branch` so that one character class decides
    without starting git (see tests for the list of refused names).
    """
    if (  # the common case, decided at once (a listing checks every task's name)
        name
        and len(name) <= MAX_NAME
        and name[0] in _FIRST
        and _ALLOWED.issuperset(name)
        and ".." not in name
        and "@{" not in name
        and not name.endswith((".lock", "."))
        and name not in _RESERVED
    ):
        return name
    if not name:
        raise InvalidName(kind, name, "it is empty")
    if len(name) > MAX_NAME:
        raise InvalidName(
            kind, name[:20] + "...", f"longer than {MAX_NAME} characters ({len(name)})"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise InvalidName(kind, name, "it contains control characters")
    if "/" in name or "\\" in name:
        raise InvalidName(kind, name, "it contains a path separator")
    if ".." in name:
        raise InvalidName(kind, name, "it contains '..'")
    if name.startswith("-"):
        raise InvalidName(kind, name, "it starts with '-'")
    if name.endswith((".lock", ".")):
        raise InvalidName(kind, name, "it ends with '.lock' or '.'")
    if "@{" in name or name == "@":
        raise InvalidName(kind, name, "it contains '@{' or is '@'")
    if name in _RESERVED:
        raise InvalidName(kind, name, "it is a reserved git name")
    if name[0] not in _FIRST or not _ALLOWED.issuperset(name):
        raise InvalidName(
            kind,
            name,
            "use letters, digits, '.', '_' and '-' only, starting with a letter or digit",
        )
    return name


def task_name(name: str) -> TaskName:
    return TaskName(check_name("task", name))


def agent_name(name: str) -> AgentName:
    return AgentName(check_name("agent", name))


def agent_branch(task: str, agent: str) -> str:
    branch = f"{task}-{agent}"
    if len(branch) > 2 * MAX_NAME + 1:
        raise InvalidName("agent", agent, "task and agent names together are too long")
    return branch
