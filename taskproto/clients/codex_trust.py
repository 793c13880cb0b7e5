"""What `init --codex` prints: Codex CLI runs a project's hooks only in a trusted folder, and only
hooks whose content hash the user trusted; each worktree is a folder of its own."""

from __future__ import annotations

from taskproto import plainjson as json
from taskproto.clients.settings import Installer
from taskproto.config import Config

CODEX_TRUST = """\
Codex CLI runs project hooks only in a trusted project, and only hooks whose content hash
you trusted:
  1. Trust the project in ~/.codex/config.toml (or $CODEX_HOME/config.toml), once per folder
     Codex runs in:
{projects}
  2. Trust the hooks themselves: start `codex` in the repository and accept taskproto's hooks
     when it asks (they change only when the python path changes). For unattended `codex exec`
     runs you can instead pass --dangerously-bypass-hook-trust.
"""


def instructions(config: Config) -> str:
    folders = [config.repo] + Installer(config).worktrees()
    projects = "\n".join(
        f'       [projects.{json.dumps(str(f))}]\n       trust_level = "trusted"' for f in folders
    )
    return CODEX_TRUST.format(projects=projects)
