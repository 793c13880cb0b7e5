"""phone-a-team's backend preflight and the seed's degradation table.

codex and gemini are CLIs looked up on PATH; ollama is an HTTP endpoint
(configurable, `[phone_a_team] ollama_url` in the repo config, else
$OLLAMA_HOST) and has no binary to check.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from typing import Any

from taskproto.errors import TaskprotoError

VALID = ("codex", "gemini", "ollama", "both")
DEFAULT = "codex"
INSTALL_HINT = {
    "codex": "install the Codex CLI (npm install -g @openai/codex) and make sure `codex` is on "
    "PATH",
    "gemini": "install the Gemini CLI (npm install -g @google/gemini-cli) and make sure `gemini` "
    "is on PATH",
}
DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"


@dataclass
class Preflight:
    requested: str
    active: list[str]
    found: dict[str, str | None] = field(
        default_factory=dict
    )  # backend -> path of its CLI (None: missing)
    warnings: list[str] = field(default_factory=list)
    ollama_url: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "active": self.active,
            "found": self.found,
            "warnings": self.warnings,
            "ollama_url": self.ollama_url,
        }


def ollama_url(
    settings: dict[str, Any] | None = None, environ: dict[str, str] | None = None
) -> str:
    env = os.environ if environ is None else environ
    table = (settings or {}).get("phone_a_team") or {}
    url = table.get("ollama_url") if isinstance(table, dict) else None
    host = env.get("OLLAMA_HOST")
    if not url and host:
        url = host if "://" in host else f"http://{host}"
    return str(url or DEFAULT_OLLAMA_URL)


def check_name(backend: str) -> str:
    if backend not in VALID:
        raise TaskprotoError(f"invalid backend {backend!r}: valid values are {', '.join(VALID)}")
    return backend


def preflight(
    backend: str,
    path: str | None = None,
    settings: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Preflight:
    """Apply the degradation table; refuse (TaskprotoError) when no requested backend is usable.

    `path` is the PATH to search (default: this process's PATH).
    """
    check_name(backend)
    if backend == "ollama":
        return Preflight(
            backend, ["ollama"], {"ollama": None}, ollama_url=ollama_url(settings, environ)
        )
    wanted = ["codex", "gemini"] if backend == "both" else [backend]
    found = {b: shutil.which(b, path=path) for b in wanted}
    available = [b for b in wanted if found[b]]
    if backend != "both":
        if not available:
            raise TaskprotoError(f"backend {backend} is not available: {INSTALL_HINT[backend]}")
        return Preflight(backend, available, found)
    if not available:
        raise TaskprotoError(
            "no backends: neither codex nor gemini is on PATH; "
            f"{INSTALL_HINT['codex']}, or {INSTALL_HINT['gemini']}"
        )
    result = Preflight(backend, available, found)
    if len(available) == 1:
        missing = next(b for b in wanted if not found[b])
        result.warnings.append(f"backend {missing} is not on PATH: degraded to {available[0]} only")
    return result
