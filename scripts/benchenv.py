"""Imported by every bench script (`import benchenv`): the script, and every taskproto and git it
runs, get a config home of their own (`XDG_CONFIG_HOME`, a temporary folder removed at exit), so
the throwaway repositories a benchmark makes and `taskproto init`s are never registered in the
user's inbox registry (`$XDG_CONFIG_HOME/taskproto/repositories`, ops/inbox.py) and the user's
notification channels are never run. git's own user config there is still read (included).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

MARK = "TASKPROTO_BENCH_CONFIG_HOME"  # the config home made for this run (once per process tree)


def own_config_home() -> str:
    """Point `XDG_CONFIG_HOME` at a temporary folder of this run; its path."""
    made = os.environ.get(MARK)
    if made and os.environ.get("XDG_CONFIG_HOME") == made:
        return made  # a script imported by another, or run by one: already set
    users = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    home = tempfile.mkdtemp(prefix="taskproto-bench-config-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    if os.path.exists(os.path.join(users, "git", "config")):
        os.makedirs(os.path.join(home, "git"))
        with open(os.path.join(home, "git", "config"), "w", encoding="utf-8") as fh:
            fh.write(f"[include]\n\tpath = {os.path.join(users, 'git', 'config')}\n")
    os.environ["XDG_CONFIG_HOME"] = os.environ[MARK] = home
    return home


own_config_home()
