"""What `taskproto init --claude` left in a repository before it wrote
`.claude/settings.local.json`: for the tests of the move (init, doctor, uninstall) from that
layout."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

from taskproto.clients import hookjson
from taskproto.config import Config


def older_claude_init(config: Config) -> Path:
    """taskproto's hooks merged into the main worktree's `.claude/settings.json`, as the older init
    wrote them, and recorded as it recorded them in `<root>/agent-hooks.json`: the file's bytes
    before (none when it made the file), the folder it made, a hash of what it wrote."""
    path = config.repo / ".claude" / "settings.json"
    before = path.read_bytes() if path.exists() else None
    made = [] if path.parent.exists() else [str(path.parent)]
    data = json.loads(before) if before else {}
    text = (json.dumps(hookjson.merged(data, "claude"), indent=2) + "\n").encode()
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text)
    record_path = config.root / "agent-hooks.json"
    if record_path.exists():
        record = json.loads(record_path.read_text())
    else:
        record = {"clients": [], "files": {}}
    record["clients"] = sorted({*record["clients"], "claude"})
    record["files"][str(path)] = {
        "client": "claude",
        "original": None if before is None else base64.b64encode(before).decode(),
        "created_dirs": made,
        "written": hashlib.sha256(text).hexdigest(),
    }
    record |= {"repo": str(config.repo), "root": str(config.root)}
    record["common_dir"] = str(config.common_dir)
    config.root.mkdir(exist_ok=True)
    record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return path
