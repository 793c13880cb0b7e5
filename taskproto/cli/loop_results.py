"""A tight-loop handoff's results file (`taskproto handoff --results FILE`), read the same way by
the full command (cli/tight_loop.py) and the quick path (cli/quick.py). Standard library only."""

from __future__ import annotations

from taskproto import plainjson as json
from taskproto.errors import ValidationFailed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

MAX_RESULTS = 100 * 1024  # results are a digest for the next phase, not a transcript
# Keys that would carry the previous phase's ask_user state across a handoff.
QUESTION_KEYS = {"questions", "question", "ask_user", "pending_questions", "open_questions"}


def read_results(path: Path) -> Any:
    """A handoff's results: JSON if the file holds JSON, else its text. Questions are refused."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ValidationFailed(f"{path}: no such file (--results FILE)") from None
    if len(data) > MAX_RESULTS:
        raise ValidationFailed(
            f"{path} is {len(data)} bytes; results over {MAX_RESULTS} bytes are refused: "
            "hand off a digest"
        )
    text = data.decode("utf-8", errors="replace")
    try:
        results: Any = json.loads(text)
    except json.JSONDecodeError:
        return text
    if isinstance(results, dict):
        carried = sorted(k for k in results if k.lower() in QUESTION_KEYS)
        if carried:
            raise ValidationFailed(
                f"{path} carries {', '.join(carried)}: a handoff carries only the decision and the "
                "results, "
                "never the previous phase's questions (the next phase starts a fresh ask_user "
                "cycle)"
            )
    return results
