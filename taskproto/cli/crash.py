"""An unexpected error: its traceback kept in a log file, and the one line that says where (for
the click commands, cli/app.py, and the quick front, cli/quick_common.py, alike). A machine with no
git is no bug of ours: that is a refusal that says so (exit 1), with no traceback."""

from __future__ import annotations

import os


def crash_log(exc: BaseException) -> str:
    """Write `exc`'s traceback to a new file under the state folder; its path."""
    import tempfile
    import traceback
    from datetime import UTC, datetime

    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    folder = os.path.join(state, "taskproto")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        folder = tempfile.gettempdir()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    path = os.path.join(folder, f"crash-{stamp}-{os.getpid()}.log")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(traceback.format_exception(exc)))
    return path


def internal_error(exc: BaseException) -> str:
    """The line an unexpected error prints (exit code 3)."""
    try:
        where = f"traceback written to {crash_log(exc)}"
    except OSError as log_exc:  # the disk is full or read-only: still one line, no traceback
        where = f"no traceback saved ({log_exc.strerror or log_exc})"
    return f"taskproto: internal error: {type(exc).__name__}: {exc}; {where}"


def unexpected(exc: BaseException, as_json: bool) -> tuple[str, int]:
    """The line to print for an error nothing else caught, and the exit code: a refusal when no
    git could be started, else an internal error (3) with its traceback kept."""
    from taskproto.git.files import GIT_MISSING, git_missing

    if git_missing(exc):
        from taskproto.errors import TaskprotoError, refusal_line

        refused = TaskprotoError(GIT_MISSING)
        return refusal_line(refused, as_json), int(refused.exit_code)
    return internal_error(exc), 3
