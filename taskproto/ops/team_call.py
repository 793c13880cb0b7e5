"""One call to one phone-a-team backend, as a real process or HTTP request, and what became of it.

- codex: `codex exec --json --skip-git-repo-check --sandbox MODE [ARGS] -`, the payload on stdin;
  the answer is the last `agent_message` of its JSON event stream.
- gemini: `gemini -p INSTRUCTION --output-format json --approval-mode MODE [ARGS]`, the payload on
  stdin (Gemini appends `-p` to it); the answer is the `response` of its JSON result.
- ollama: `POST {ollama_url}/api/generate` with `{model, prompt, stream: false}`; the answer is
  `response`.

The payload never goes on the command line (it can be 1 MB; one argument is capped at
128 KB) and no user string ever reaches a shell. The process inherits this process's
environment, so the user's own client configuration applies (CODEX_HOME, GEMINI_CLI_HOME,
API keys); `[phone_a_team.<backend>] args` and `env` in the repository's settings add to it.
Each process starts a session of its own; at the deadline the whole process group is killed
(SIGTERM, then SIGKILL), children included.

Outcomes: `answered` (exit 0 with an answer), `rate-limited` (HTTP 429: the clients' own
reports of it, never a path that holds 429 nor a process killed by a signal), `timeout` (the
deadline passed), `crash` (any other failure: non-zero exit, killed by a signal, no answer,
connection refused or dropped).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskproto.errors import ConfigError

DEFAULT_TIMEOUT = 600.0
KILL_GRACE = 2.0  # seconds between SIGTERM and SIGKILL of a timed-out process group
DEFAULT_OLLAMA_MODEL = "llama3.1"
GEMINI_INSTRUCTION = "The task and its context are on standard input. Answer as it asks."
SANDBOX = {  # read-only by default; `--write` escalates (disclosed in the synthesis)
    "codex": {"read-only": "read-only", "workspace-write": "workspace-write"},
    "gemini": {"read-only": "default", "workspace-write": "auto_edit"},
}
_RATE = re.compile(
    r"\b429\b|too many requests|rate[ _-]?limit|resource[ _]exhausted", re.IGNORECASE
)
_PATH = re.compile(r"\S*/\S*")  # paths and URLs: a folder named pytest-429 is no rate limit
_TAIL = 2000  # characters of stderr kept in a failure's record


@dataclass
class Call:
    """What one backend did in one round."""

    backend: str
    outcome: str  # answered | rate-limited | timeout | crash
    text: str = ""  # the answer (answered only)
    detail: str = ""  # why it failed, one line
    exit: int | None = None  # the exit status; negative: killed by that signal
    seconds: float = 0.0
    argv: list[str] = field(default_factory=list)
    pid: int | None = None  # the process group leader (the group was killed on timeout)

    def record(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "outcome": self.outcome,
            "detail": self.detail,
            "exit": self.exit,
            "seconds": round(self.seconds, 2),
        }


@dataclass(frozen=True)
class Settings:
    """How to call the backends: `[phone_a_team]` of the repository's settings, then options."""

    timeout: float = DEFAULT_TIMEOUT
    sandbox: str = "read-only"
    ollama_url: str = "http://127.0.0.1:11434"
    ollama_model: str = DEFAULT_OLLAMA_MODEL
    args: Mapping[str, Sequence[str]] = field(default_factory=dict)
    env: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


def settings_from(raw: dict[str, Any], ollama_url: str) -> Settings:
    """Read `[phone_a_team]`: timeout, ollama_model, per backend `args` (list) and `env` (table)."""
    table = raw.get("phone_a_team") or {}
    if not isinstance(table, dict):
        raise ConfigError("[phone_a_team] must be a table")
    timeout = table.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise ConfigError(f"[phone_a_team] timeout must be a positive number, not {timeout!r}")
    args: dict[str, list[str]] = {}
    env: dict[str, dict[str, str]] = {}
    for backend in ("codex", "gemini", "ollama"):
        sub = table.get(backend) or {}
        if not isinstance(sub, dict):
            raise ConfigError(f"[phone_a_team.{backend}] must be a table")
        a = sub.get("args", [])
        if not isinstance(a, list) or not all(isinstance(x, str) for x in a):
            raise ConfigError(f"[phone_a_team.{backend}] args must be a list of strings")
        e = sub.get("env", {})
        if not isinstance(e, dict) or not all(isinstance(v, str) for v in e.values()):
            raise ConfigError(f"[phone_a_team.{backend}] env must be a table of strings")
        args[backend], env[backend] = list(a), {str(k): v for k, v in e.items()}
    model = table.get("ollama_model", DEFAULT_OLLAMA_MODEL)
    return Settings(
        timeout=float(timeout),
        ollama_url=ollama_url,
        ollama_model=str(model),
        args=args,
        env=env,
    )


def argv_for(backend: str, exe: str, settings: Settings) -> list[str]:
    mode = SANDBOX[backend][settings.sandbox]
    extra = list(settings.args.get(backend, ()))
    if backend == "codex":
        return [exe, "exec", "--json", "--skip-git-repo-check", "--sandbox", mode, *extra, "-"]
    return [
        exe,
        "-p",
        GEMINI_INSTRUCTION,
        "--output-format",
        "json",
        "--approval-mode",
        mode,
        *extra,
    ]


def call(backend: str, payload: str, cwd: Path, settings: Settings, timeout: float) -> Call:
    """Call `backend` once with `payload`; never raises for what the backend does."""
    if backend == "ollama":
        return call_ollama(payload, settings, timeout)
    exe = shutil.which(backend)
    if exe is None:
        return Call(backend, "crash", detail=f"{backend} is not on PATH any more")
    argv = argv_for(backend, exe, settings)
    env = {**os.environ, **settings.env.get(backend, {})}
    result = run_process(backend, argv, payload, cwd, env, timeout)
    if result.outcome == "answered":
        _read_answer(result)
    return result


def run_process(
    backend: str, argv: list[str], stdin: str, cwd: Path, env: Mapping[str, str], timeout: float
) -> Call:
    """Run argv in a new session; at the deadline kill its whole process group."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: a timeout kills the children too
        )
    except OSError as exc:
        return Call(backend, "crash", detail=f"could not start {argv[0]}: {exc.strerror or exc}")
    timed_out = False
    try:
        out, err = proc.communicate(stdin.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out, err = _drain(proc)
    except BaseException:
        _kill_group(proc)  # interrupted (Ctrl-C): leave no backend running
        proc.wait()
        raise
    finally:
        _reap_group(proc)
    seconds = time.monotonic() - started
    call = Call(
        backend,
        "answered",
        text=out.decode("utf-8", "replace"),
        detail=err.decode("utf-8", "replace")[-_TAIL:],
        exit=proc.returncode,
        seconds=seconds,
        argv=argv,
        pid=proc.pid,
    )
    if timed_out:
        call.outcome, call.detail = (
            "timeout",
            f"no answer within {timeout:g} s; process group killed",
        )
    elif proc.returncode != 0:
        _classify_failure(call)
    return call


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """What a killed process wrote; one that left the group and kept the pipes is not waited for."""
    try:
        return proc.communicate(timeout=KILL_GRACE + 3)
    except subprocess.TimeoutExpired:
        proc.kill()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
        return b"", b""


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group, SIGKILL what is left after the grace. The leader is reaped
    while waiting: a zombie leader keeps its group 'alive' until its parent (us) waits."""
    for sig, wait in ((signal.SIGTERM, KILL_GRACE), (signal.SIGKILL, 1.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            proc.poll()
            if not _group_alive(proc.pid):
                return
            time.sleep(0.05)


def _reap_group(proc: subprocess.Popen[bytes]) -> None:
    """A leader that exited may leave children in its group (a relaunched node); end them too."""
    proc.poll()
    if _group_alive(proc.pid):
        _kill_group(proc)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _errors_in(text: str) -> list[str]:
    """Error messages in a client's JSON output (codex's event lines, gemini's result object)."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        found += _error_messages(event)
    # gemini prints one pretty-printed JSON object (on stdout, or on stderr after other text):
    # try each line that opens an object.
    decoder = json.JSONDecoder()
    for match in re.finditer(r"^\{\s*$", text, re.MULTILINE):
        try:
            data, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        found += _error_messages(data)
    return found


def _error_messages(event: Any) -> list[str]:
    if not isinstance(event, dict):
        return []
    error = event.get("error")
    if event.get("type") == "error" and isinstance(event.get("message"), str):
        return [event["message"]]
    if isinstance(error, dict):
        code = error.get("code")
        message = str(error.get("message") or "")
        return [f"{code} {message}".strip() if code is not None else message]
    return []


def _classify_failure(call: Call) -> None:
    errors = _errors_in(call.text) + _errors_in(call.detail)
    signal_name = None
    if call.exit is not None and call.exit < 0:
        try:
            signal_name = signal.Signals(-call.exit).name
        except ValueError:
            signal_name = f"signal {-call.exit}"
    if signal_name is None and (
        any(_RATE.search(e) for e in errors)
        or (not errors and _RATE.search(_PATH.sub(" ", call.detail[-300:])))
    ):
        call.outcome = "rate-limited"
        call.detail = _first(errors) or "HTTP 429 (rate limited)"
    else:
        call.outcome = "crash"
        if signal_name:  # its last words are from before it died: they do not say why
            call.detail = f"killed by {signal_name}"
        else:
            last = _first(errors) or _last_line(call.detail)
            call.detail = f"exit {call.exit}: {last}" if last else f"exit {call.exit}"
    call.text = ""


def _first(items: list[str]) -> str:
    return items[-1][:300] if items else ""


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


def _read_answer(call: Call) -> None:
    """Pull the answer out of the client's JSON output; no answer is a crash."""
    answer: str | None = None
    if call.backend == "codex":
        for line in call.text.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            item = event.get("item") if isinstance(event, dict) else None
            if isinstance(item, dict) and item.get("type") == "agent_message":
                answer = str(item.get("text") or "")
            if isinstance(event, dict) and event.get("type") == "turn.failed":
                _classify_failure(call)  # exit 0 but the turn failed: its error decides
                return
    else:
        blob = call.text.strip()
        try:
            data = json.loads(blob[blob.find("{") :]) if "{" in blob else None
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            call.detail = blob
            _classify_failure(call)
            return
        if isinstance(data, dict) and isinstance(data.get("response"), str):
            answer = data["response"]
    if not answer or not answer.strip():
        call.outcome, call.text = "crash", ""
        call.detail = (
            f"exit 0 but no answer in its output ({_last_line(call.detail) or 'no stderr'})"
        )
        return
    call.text = answer


# --- ollama ----------------------------------------------------------------------------


def call_ollama(payload: str, settings: Settings, timeout: float) -> Call:
    """`POST /api/generate`, non-streaming; the socket is shut at the deadline."""
    started = time.monotonic()
    url = urllib.parse.urlsplit(settings.ollama_url)
    host, port = url.hostname or "127.0.0.1", url.port or (443 if url.scheme == "https" else 11434)
    conn_type = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    conn = conn_type(host, port, timeout=timeout)
    body = json.dumps({"model": settings.ollama_model, "prompt": payload, "stream": False})
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    try:
        conn.request(
            "POST",
            url.path.rstrip("/") + "/api/generate",
            body=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        status, raw = response.status, response.read()
    except (OSError, http.client.HTTPException) as exc:
        seconds = time.monotonic() - started
        if expired.is_set() or isinstance(exc, TimeoutError):
            detail = f"no answer within {timeout:g} s; connection closed"
            return Call("ollama", "timeout", detail=detail, seconds=seconds)
        return Call("ollama", "crash", detail=f"{type(exc).__name__}: {exc}", seconds=seconds)
    finally:
        timer.cancel()
        conn.close()
    seconds = time.monotonic() - started
    text = raw.decode("utf-8", "replace")
    if status == 429:
        return Call("ollama", "rate-limited", detail=f"HTTP 429: {text[:200]}", seconds=seconds)
    if status != 200:
        return Call("ollama", "crash", detail=f"HTTP {status}: {text[:200]}", seconds=seconds)
    try:
        data = json.loads(text)
        answer = data.get("response") if isinstance(data, dict) else None
    except ValueError:
        answer = None
    if not isinstance(answer, str) or not answer.strip():
        return Call("ollama", "crash", detail="HTTP 200 without a response", seconds=seconds)
    return Call("ollama", "answered", text=answer, exit=0, seconds=seconds)
