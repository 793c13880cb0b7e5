"""What is never an agent's to write, wherever it works and whatever its task's state: taskproto's
state and session registry, the clients' hook settings and the launchers they name, git's hooks
and configuration, the files of git's refs (taskproto's among them), git's objects, index and
worktree links, taskproto's settings, and the code the hooks run (taskproto's package, its
interpreter, and what that runs at start-up from site-packages); and what no agent deletes or
moves away: a folder that holds taskproto's root or git's repository. Standard library only (the
tool guard's hot path)."""

from __future__ import annotations

import os
import sys

from taskproto.layout import inside

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.layout import Layout

# taskproto's own code (the hooks run it), and the site-packages of the interpreter that runs them,
# where a `.pth` file or `sitecustomize` would run at every start with site-packages on
CODE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
# A venv's prefix is its executable's folder's parent (where its pyvenv.cfg is): the hooks run
# `python -I -S`, and without site sys.prefix is the base interpreter's, not the venv's
VENV = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
SITE = {
    os.path.realpath(
        os.path.join(
            prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages"
        )
    )
    for prefix in (sys.prefix, sys.base_prefix, VENV)
}
STARTUP = (".pth", "sitecustomize.py", "usercustomize.py")


def as_named(path: str) -> str:
    """`path` with its folder resolved but not its last part: a link itself, not what it names."""
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


# the interpreter the hooks run, as git's hooks and the clients' launchers name it (in a venv a
# link: a link put in its place swaps the interpreter) and as it is; and a venv's pyvenv.cfg, whose
# `home` picks the interpreter behind that link
INTERPRETER = {
    as_named(sys.executable),
    os.path.realpath(sys.executable),
    *(
        os.path.join(os.path.realpath(folder), "pyvenv.cfg")
        for folder in (sys.prefix, VENV, os.path.dirname(os.path.abspath(sys.executable)))
    ),
}
LAUNCHERS = "taskproto-hooks"  # in the common git dir: clients/launcher.py's FOLDER
CLIENT_SETTINGS = {
    ".claude": {"settings.json", "settings.local.json"},
    ".codex": {"hooks.json", "config.toml"},
    ".gemini": {"settings.json"},
}


def protected(layout: Layout, env: dict[str, str], path: str) -> str | None:
    """Why `path` (real) is never an agent's to write, or None."""
    if layout.where(path)[0] == "state":
        return (
            f"{path} is taskproto's own state (task.json, status files, locks): only "
            "taskproto writes it. Use the taskproto commands (claim, transition, agent) for the "
            "task's state, and edit files only in a worktree (a task's or an agent's `code` "
            "folder)."
        )
    registry = registry_dir(env)
    if inside(path, registry):
        return f"{path} is taskproto's session registry: only taskproto writes it."
    parent, name = os.path.basename(os.path.dirname(path)), os.path.basename(path)
    if name in CLIENT_SETTINGS.get(parent, ()) or name == ".mcp.json":
        return (
            f"{path} holds an agent client's hooks: only the user changes them "
            "(`taskproto init` installs taskproto's)."
        )
    dirs = layout.dirs
    if dirs is not None and (
        inside(path, os.path.join(dirs.common_dir, "hooks"))
        or name in ("config", "config.worktree")
        and inside(path, dirs.common_dir)
    ):
        return f"{path} is git's hooks or configuration: only the user changes them."
    if dirs is not None and inside(path, os.path.join(dirs.common_dir, LAUNCHERS)):
        return (
            f"{path} is taskproto's launcher of the agent clients' hooks: the hooks run what it "
            "names, so only `taskproto init` writes it."
        )
    if dirs is not None and (
        any(
            inside(path, os.path.join(dirs.common_dir, *where))
            for where in (("refs",), ("logs",), ("packed-refs",))
        )
        or (name == "HEAD" and inside(path, dirs.common_dir))
    ):
        return (
            f"{path} is one of git's refs (taskproto's journals and claims among them): only "
            "git's own commands move them, where the guard sees what they move."
        )
    if name == ".git" or (
        dirs is not None
        and inside(path, dirs.common_dir)
        and (
            name == "index"
            or any(inside(path, os.path.join(dirs.common_dir, d)) for d in ("objects", "worktrees"))
        )
    ):
        return (
            f"{path} is git's own (its objects, an index, a worktree's link to the repository): "
            "only git's own commands write it, where the guard sees what they do; a file lost "
            "there loses commits."
        )
    if path in user_git_config(env):
        return (
            f"{path} is git's configuration for every repository (`core.hooksPath` there points "
            "git away from taskproto's hooks): only the user changes it."
        )
    if path == os.path.join(layout.main, ".taskproto.toml"):
        return f"{path} holds taskproto's settings: only the user changes them."
    if inside(path, CODE) or (os.path.dirname(path) in SITE and name.endswith(STARTUP)):
        return (
            f"{path} is taskproto's own code, or code its interpreter runs at start-up: the "
            "hooks run it, so only the user changes it."
        )
    if path in INTERPRETER:
        return (
            f"{path} is the interpreter taskproto's hooks run (or the venv setting that picks "
            "it): only the user changes it."
        )
    return None


def holder(layout: Layout, path: str) -> str | None:
    """Why deleting or moving away `path` (real) loses what is never an agent's: a folder that
    holds taskproto's root or git's repository (the main checkout, `.git`, a parent of them), or
    what the hooks run (taskproto's code, the folder their interpreter is named in)."""
    dirs = layout.dirs
    for inner, what in (
        (layout.root, "taskproto's state"),
        (dirs.common_dir if dirs is not None else None, "git's repository (every commit)"),
        (CODE, "taskproto's code, which the hooks run"),
        (os.path.dirname(as_named(sys.executable)), "the interpreter the hooks run"),
    ):
        if inner is not None and inside(inner, path):
            return (
                f"this deletes or moves {path}, which holds {what} ({inner}): only the user does "
                "that."
            )
    return None


_GIT_CONFIG_VARS = ("HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM")
_user_git_config: dict[tuple[str | None, ...], frozenset[str]] = {}


def user_git_config(env: dict[str, str]) -> frozenset[str]:
    """The configuration files git reads in every repository: the user's and the system's
    (resolved once a hook: the guard asks for every path a call writes)."""
    key = tuple(env.get(k) for k in _GIT_CONFIG_VARS)
    found = _user_git_config.get(key)
    if found is None:
        home = env.get("HOME") or os.path.expanduser("~")
        xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        named = [os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config")]
        named += ["/etc/gitconfig", *(env[k] for k in _GIT_CONFIG_VARS[2:] if env.get(k))]
        found = _user_git_config[key] = frozenset(os.path.realpath(p) for p in named)
    return found


def removal(layout: Layout, env: dict[str, str], path: str) -> str | None:
    """Why deleting or moving away `path` is not an agent's: a folder that holds what is never
    an agent's (`holder`), or one of those paths itself (`mv` takes it away as `rm` would; a link
    moved is the link itself)."""
    return holder(layout, os.path.realpath(path)) or protected(layout, env, as_named(path))


def registry_dir(env: dict[str, str]) -> str:
    state = env.get("XDG_STATE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(os.path.realpath(state), "taskproto", "sessions")
