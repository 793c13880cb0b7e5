"""What `init` did to the agent clients' settings files (clients/settings.py)."""

from __future__ import annotations


class Report:
    """What an install or uninstall did (a plain class: a new worktree's set-up imports this
    module, and `dataclasses` would cost it more than the rest)."""

    def __init__(self) -> None:
        self.installed: list[str] = []
        self.unchanged: list[str] = []
        self.removed: list[str] = []
        self.warnings: list[str] = []
        self.moved: list[str] = []  # places the record named before (old -> new)
        self.migrated: list[str] = []  # shared file -> per-machine file

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "installed": self.installed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "warnings": self.warnings,
            "moved": self.moved,
            "migrated": self.migrated,
        }
