"""What a named client (Claude Code, Codex, Gemini) gets in its sandbox beyond a command line's
(docs/sandbox.md, "The named clients"): a home of its own with copies of the client's login and
settings, the variables it needs and nothing else of the user's, and its installed package
visible read-only.

The home is `<sandbox>/home`, the agent's, bound writable where the user's home is. Before each
start the top-level files of the client's folder (`~/.claude`, `~/.codex`, `~/.gemini`, or where
CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME point) and `~/.claude.json` are copied in over the
last copies; what the client keeps in subfolders there (Claude Code's transcripts, for `--resume`)
stays from run to run. Nothing is ever copied out: what the agent writes there stays there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping

# Variables each client needs: its keys, base URLs and switches (by prefix), and the variable that
# names its folder (set inside to the copy)
PREFIXES = {
    "claude": ("ANTHROPIC_", "CLAUDE_CODE_", "DISABLE_"),
    "codex": ("OPENAI_", "CODEX_"),
    "gemini": ("GEMINI_", "GOOGLE_"),
}
FOLDER_VAR = {"claude": "CLAUDE_CONFIG_DIR", "codex": "CODEX_HOME", "gemini": "GEMINI_CLI_HOME"}
FOLDER = {"claude": ".claude", "codex": ".codex", "gemini": ".gemini"}
FILE_LIMIT = 1 << 22  # a settings or login file larger than this is not copied


def variables(client: str, environ: Mapping[str, str]) -> list[str]:
    """The names of the user's variables `client` gets: its prefixes', and for Codex those its
    config.toml's providers name (`env_key`)."""
    prefixes = PREFIXES.get(client, ())
    names = {k for k in environ if k.startswith(prefixes) and k != FOLDER_VAR.get(client)}
    if client == "codex":
        names |= {k for k in _codex_keys(_source(client, environ)) if k in environ}
    return sorted(names)


def _source(client: str, environ: Mapping[str, str]) -> str:
    """The user's folder of the client's settings and login."""
    given = environ.get(FOLDER_VAR[client], "")
    if given and os.path.isabs(given):
        return os.path.join(given, ".gemini") if client == "gemini" else given
    return os.path.join(environ.get("HOME") or os.path.expanduser("~"), FOLDER[client])


def _codex_keys(folder: str) -> set[str]:
    import tomllib

    try:
        with open(os.path.join(folder, "config.toml"), "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, ValueError):
        return set()
    providers = data.get("model_providers")
    found = set()
    for provider in providers.values() if isinstance(providers, dict) else []:
        key = provider.get("env_key") if isinstance(provider, dict) else None
        if isinstance(key, str) and key.replace("_", "").isalnum():
            found.add(key)
    return found


def prepare_home(client: str, box: str, environ: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """The agent's home `<box>/home` with the client's files copied in; (its path, the variables
    to set inside: the client's folder variable pointed at the copy)."""
    home = environ.get("HOME") or os.path.expanduser("~")
    copy = os.path.join(box, "home")
    _folder(copy)
    target = os.path.join(copy, FOLDER[client])
    _folder(target)
    source = _source(client, environ)
    for name in _names(source):
        _copy(os.path.join(source, name), os.path.join(target, name))
    if client == "claude":  # Claude Code's own state file beside its folder
        given = environ.get("CLAUDE_CONFIG_DIR", "")
        outer = os.path.join(given, ".claude.json") if given else os.path.join(home, ".claude.json")
        inner = os.path.join(target if given else copy, ".claude.json")
        _copy(outer, inner)
    env = {}
    if environ.get(FOLDER_VAR[client]):
        inside = os.path.join(home, FOLDER[client])
        env[FOLDER_VAR[client]] = home if client == "gemini" else inside
    return copy, env


def _names(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as entries:
            return [e.name for e in entries if e.is_file(follow_symlinks=False)]
    except OSError:
        return []


def _folder(path: str) -> None:
    """A real folder at `path`: a link or file the agent left there is removed first."""
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
        os.unlink(path)
    os.makedirs(path, exist_ok=True)


def _copy(source: str, target: str) -> None:
    """`source` (the user's, a regular file) copied to a new file at `target`, never through a link
    the agent left there."""
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return
    with os.fdopen(fd, "rb") as src:
        data = src.read(FILE_LIMIT + 1)
    if len(data) > FILE_LIMIT:
        return
    if os.path.isdir(target) and not os.path.islink(target):
        shutil.rmtree(target)
    elif os.path.lexists(target):
        os.unlink(target)
    out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(out, "wb") as fh:
        fh.write(data)


def install_folder(client: str) -> str | None:
    """The folder of the client's installed package (its `node_modules`, else the executable's
    folder), to be visible read-only where it lies under a hidden folder."""
    found = shutil.which(client)
    if found is None:
        return None
    real = os.path.realpath(found)
    parts = real.split(os.sep)
    if "node_modules" in parts:
        return os.sep.join(parts[: len(parts) - parts[::-1].index("node_modules")])
    return os.path.dirname(real)
