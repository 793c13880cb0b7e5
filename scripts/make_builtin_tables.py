"""Write the built-in workflows' state tables (taskproto/machine/builtin/tables/<name>.json).

    python scripts/make_builtin_tables.py

The hooks and the quick read and write paths decide on these tables without loading the workflows
(pydantic). They ship with the package, where no agent writes (hooks/agents/protected.py), instead
of the repository's cache, which a git command could overwrite. tests/machine/test_builtin_tables.py
fails when a definition changed and this was not run again.
"""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.machine.registry import builtin, builtin_names

FOLDER = Path(__file__).resolve().parents[1] / "taskproto" / "machine" / "builtin" / "tables"


def text(name: str) -> str:
    return json.dumps(builtin(name).state_table(), indent=1, sort_keys=True) + "\n"


def main() -> int:
    FOLDER.mkdir(exist_ok=True)
    for name in builtin_names():
        (FOLDER / f"{name}.json").write_text(text(name), encoding="utf-8")
        print(f"wrote {FOLDER / f'{name}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
