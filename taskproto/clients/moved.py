"""`<root>/agent-hooks.json` after the repository (or taskproto's root) was moved: the same record,
its paths named for the new place.

The record keeps the absolute path of every file `init` wrote (the settings files, the folders it
made, the `info/exclude` it changed), so `--uninstall` can put each back. Moving the repository
leaves them naming the old place; `init` would then fail writing the old `info/exclude` and lose
track of the files. The record also keeps where it was written (`repo`, `root`, `common_dir`); a
record from before that is read for them from its own paths. Pure: no file or git is touched here.
"""

from __future__ import annotations

import os

from taskproto.config import Config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PLACES = ("repo", "root", "common_dir")
EXCLUDE_TAIL = os.sep + os.path.join("info", "exclude")


def places(config: Config) -> dict[str, str]:
    """Where the repository, taskproto's root and the common git dir are now."""
    return {
        "repo": str(config.repo),
        "root": str(config.root),
        "common_dir": str(config.common_dir),
    }


def recorded_places(
    record: dict[str, Any], config: Config, main_files: dict[str, str]
) -> dict[str, str]:
    """Where the record was written: its own fields, else worked out from the paths it holds (the
    `info/exclude` it changed, a main worktree's settings file: `main_files`, client -> its path in
    the main worktree); what cannot be told is taken to be where it is now."""
    found = {k: record[k] for k in PLACES if isinstance(record.get(k), str)}
    exclude = record.get("exclude")
    path = exclude.get("path") if isinstance(exclude, dict) else None
    if "common_dir" not in found and isinstance(path, str) and path.endswith(EXCLUDE_TAIL):
        found["common_dir"] = path[: -len(EXCLUDE_TAIL)]
    files = record.get("files")
    if "repo" not in found and isinstance(files, dict):
        for name in sorted(files, key=len):  # a main worktree's file is the shortest of its name
            entry = files[name]
            client = entry.get("client") if isinstance(entry, dict) else None
            tail = main_files.get(client) if isinstance(client, str) else None
            if tail and name.endswith(os.sep + tail):
                found["repo"] = name[: -len(tail) - 1]
                break
    now = places(config)
    if "repo" not in found and "common_dir" in found:
        if os.path.basename(found["common_dir"]) == ".git":
            found["repo"] = os.path.dirname(found["common_dir"])
    if "root" not in found and "repo" in found:
        inside = os.path.relpath(now["root"], now["repo"])
        if not inside.startswith(os.pardir):  # the root lives in the repository: it moved with it
            found["root"] = os.path.normpath(os.path.join(found["repo"], inside))
    return {k: found.get(k, now[k]) for k in PLACES}


def relocated(
    record: dict[str, Any], config: Config, main_files: dict[str, str]
) -> tuple[dict[str, Any], list[str]]:
    """The record with every path under an old place named under the new one, and the places that
    moved (`old -> new`, empty when nothing did)."""
    old, new = recorded_places(record, config, main_files), places(config)
    pairs = sorted(((old[k], new[k]) for k in PLACES if old[k] != new[k]), key=lambda p: -len(p[0]))
    out = dict(record)
    out.update(new)
    if not pairs:
        return out, []

    def move(path: str) -> str:
        for before, after in pairs:  # the longest first: the root and the git dir before the repo
            if path == before or path.startswith(before + os.sep):
                return after + path[len(before) :]
        return path

    files = record.get("files")
    if isinstance(files, dict):
        moved_files: dict[str, Any] = {}
        for name, entry in files.items():
            if isinstance(entry, dict) and isinstance(entry.get("created_dirs"), list):
                entry = {**entry, "created_dirs": [move(str(d)) for d in entry["created_dirs"]]}
            moved_files[move(name)] = entry
        out["files"] = moved_files
    exclude = record.get("exclude")
    if isinstance(exclude, dict) and isinstance(exclude.get("path"), str):
        out["exclude"] = {**exclude, "path": move(exclude["path"])}
    implied = {  # the root and the git dir that moved with the repository go without saying
        (before, after)
        for before, after in pairs
        for b, a in pairs
        if before.startswith(b + os.sep) and after == a + before[len(b) :]
    }
    return out, [
        f"{before} -> {after}" for before, after in pairs if (before, after) not in implied
    ]
