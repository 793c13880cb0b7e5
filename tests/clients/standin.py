"""Stand-in model servers for running the real agent clients offline.

Each server binds 127.0.0.1 on a free port, serves from a background thread,
records every request it gets, and answers conversation turns from a script:
a list of `ToolCall` and `Text` turns. Turn N answers the Nth conversation
request; once the script runs out, the last text turn (or a default) repeats.

Clients send requests that are not conversation turns (Claude Code's title and
quota requests, token counting). A server tells them apart by the dialect's
own signs (see `is_turn` on each class) and answers them without consuming a
turn, so a script says only what the model should do.

Stdlib only, so the fixture has no dependency of its own.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

DEFAULT_TEXT = "Done."


@dataclass(frozen=True)
class ToolCall:
    """The model asks to call tool `name` with `input`."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Text:
    """The model answers with plain text and ends its turn."""

    text: str


@dataclass(frozen=True)
class Fail:
    """Answer the turn with an HTTP error, not a model turn (429: the dialect's rate limit)."""

    status: int = 429
    body: dict[str, Any] | None = None  # None: the dialect's own error body for `status`


@dataclass(frozen=True)
class Hang:
    """Never answer the turn: hold the connection until the server stops (or `seconds` pass)."""

    seconds: float = 120.0


@dataclass(frozen=True)
class Kill:
    """Kill the process that sent the turn (the client's end of the socket): a backend crash."""

    signal: int = signal.SIGKILL


@dataclass(frozen=True)
class Drop:
    """Close the connection without an answer (a server that died mid-request)."""


Turn = ToolCall | Text | Fail | Hang | Kill | Drop


@dataclass
class Request:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON
    is_turn: bool = False
    turn_index: int | None = None

    def text(self) -> str:
        """The whole body as text, for 'does the model see X' assertions."""
        return self.body if isinstance(self.body, str) else json.dumps(self.body)


@dataclass
class _Script:
    turns: list[Turn]
    next_index: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> tuple[int, Turn]:
        with self.lock:
            index = self.next_index
            self.next_index += 1
        if index < len(self.turns):
            return index, self.turns[index]
        return index, self.last_text()

    def last_text(self) -> Text:
        for turn in reversed(self.turns):
            if isinstance(turn, Text):
                return turn
        return Text(DEFAULT_TEXT)


class StandinServer:
    """Base: HTTP plumbing, recording and the script. Subclasses speak a dialect."""

    def __init__(self, script: Sequence[Turn] = ()) -> None:
        self._script = _Script(list(script))
        self.requests: list[Request] = []
        self._requests_lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._release = threading.Event()  # ends every Hang when the server stops
        self.killed: list[int] = []  # pids a Kill turn killed
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                server._handle(self, "POST")

            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_HEAD(self) -> None:
                server._handle(self, "HEAD")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name=type(self).__name__, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._release.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- what tests look at ----------------------------------------------

    @property
    def turns(self) -> list[Request]:
        """The requests that were conversation turns, in order."""
        with self._requests_lock:
            return [r for r in self.requests if r.is_turn]

    def seen(self, needle: str) -> bool:
        """Whether any conversation turn's body contains `needle`."""
        return any(needle in r.text() for r in self.turns)

    # -- HTTP plumbing ---------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        if not length and handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = _read_chunked(handler)
        raw = _maybe_decompress(raw, handler.headers.get("Content-Encoding", ""))
        body: Any
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = Request(method, handler.path, dict(handler.headers.items()), body)
        if method == "POST" and self.is_turn(request):
            request.is_turn = True
            request.turn_index, turn = self._script.take()
        else:
            turn = None
        with self._requests_lock:
            self.requests.append(request)
        if isinstance(turn, Hang):
            self._release.wait(turn.seconds)
            handler.close_connection = True
            return
        if isinstance(turn, Kill):
            pid = peer_pid(handler.client_address[1])
            if pid is not None:
                self.killed.append(pid)
                os.kill(pid, turn.signal)
            handler.close_connection = True
            return
        if isinstance(turn, Drop):
            handler.close_connection = True
            return
        try:
            if isinstance(turn, Fail):
                status, content_type = turn.status, _JSON
                payload = json.dumps(turn.body or self.error_body(turn.status)).encode()
            else:
                status, content_type, payload = self.answer(request, turn)
        except Exception as exc:  # noqa: BLE001 - a broken fixture must show, not hang the client
            status, content_type = 500, "application/json"
            payload = json.dumps({"error": {"message": repr(exc)}}).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        if method != "HEAD":
            handler.wfile.write(payload)
            handler.wfile.flush()

    # -- the dialect -----------------------------------------------------

    def is_turn(self, request: Request) -> bool:
        raise NotImplementedError

    def error_body(self, status: int) -> dict[str, Any]:
        """The dialect's error body for `status` (Fail turns without a body of their own)."""
        return {"error": {"code": status, "message": f"stand-in error {status}"}}

    def answer(self, request: Request, turn: Turn | None) -> tuple[int, str, bytes]:
        raise NotImplementedError


def peer_pid(port: int) -> int | None:
    """The pid of the process holding the local TCP port `port` (the client's end), from /proc."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as fh:
                lines = fh.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    return int(pid)
            except OSError:
                continue
    return None


def _read_chunked(handler: BaseHTTPRequestHandler) -> bytes:
    chunks: list[bytes] = []
    while True:
        size = int(handler.rfile.readline().strip().split(b";")[0], 16)
        if size == 0:
            handler.rfile.readline()
            return b"".join(chunks)
        chunks.append(handler.rfile.read(size))
        handler.rfile.readline()


def _maybe_decompress(raw: bytes, encoding: str) -> bytes:
    encoding = encoding.lower()
    if encoding == "gzip":
        import gzip

        return gzip.decompress(raw)
    if encoding == "zstd":
        # Codex may compress request bodies; no stdlib zstd on 3.11, so keep
        # the bytes and let the JSON parse fail visibly in the record.
        return raw
    return raw


def _sse(events: Sequence[tuple[str | None, Any]]) -> bytes:
    out = []
    for name, data in events:
        if name is not None:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


_SSE = "text/event-stream"
_JSON = "application/json"


# ---------------------------------------------------------------------------
# Anthropic Messages API (Claude Code)
# ---------------------------------------------------------------------------


class AnthropicServer(StandinServer):
    """`POST /v1/messages` in Anthropic's dialect.

    A conversation turn is a Messages request that offers tools: Claude Code's
    side requests (session title, quota probe) offer none, so they get plain
    text and leave the script where it was.
    """

    model = "claude-sonnet-4-5"

    def is_turn(self, request: Request) -> bool:
        body = request.body
        return (
            request.path.split("?")[0] == "/v1/messages"
            and isinstance(body, dict)
            and bool(body.get("tools"))
        )

    def answer(self, request: Request, turn: Turn | None) -> tuple[int, str, bytes]:
        path = request.path.split("?")[0]
        if request.method != "POST" or path != "/v1/messages":
            return 200, _JSON, json.dumps({"input_tokens": 10}).encode()
        body = request.body if isinstance(request.body, dict) else {}
        if turn is None:
            turn = Text(DEFAULT_TEXT)
        index = request.turn_index if request.turn_index is not None else len(self.requests)
        message_id = f"msg_standin_{index}"
        model = body.get("model", self.model)
        if isinstance(turn, ToolCall):
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": f"toolu_standin_{index}",
                "name": turn.name,
                "input": turn.input,
            }
            stop_reason = "tool_use"
        else:
            block = {"type": "text", "text": turn.text}
            stop_reason = "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5}
        if not body.get("stream"):
            message = {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [block],
                "stop_reason": stop_reason,
                "stop_sequence": None,
                "usage": usage,
            }
            return 200, _JSON, json.dumps(message).encode()
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(turn.input)}  # type: ignore[union-attr]
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events: list[tuple[str | None, Any]] = [
            (
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        "id": message_id,
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": {"input_tokens": 10, "output_tokens": 1},
                    },
                },
            ),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": start},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                    "usage": {"output_tokens": 5},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        return 200, _SSE, _sse(events)


# ---------------------------------------------------------------------------
# OpenAI Responses API (Codex CLI)
# ---------------------------------------------------------------------------


class OpenAIResponsesServer(StandinServer):
    """`POST /v1/responses` in OpenAI's Responses dialect.

    A conversation turn is a Responses request that offers tools (`exec_command`
    and friends). Anything else (model listing, other side requests) is
    answered without consuming a turn.
    """

    def error_body(self, status: int) -> dict[str, Any]:
        if status == 429:
            return {
                "error": {
                    "message": "Rate limit reached for requests",
                    "type": "requests",
                    "code": "rate_limit_exceeded",
                }
            }
        return super().error_body(status)

    def is_turn(self, request: Request) -> bool:
        body = request.body
        return (
            request.path.split("?")[0].endswith("/responses")
            and isinstance(body, dict)
            and bool(body.get("tools"))
        )

    def answer(self, request: Request, turn: Turn | None) -> tuple[int, str, bytes]:
        path = request.path.split("?")[0]
        if path.endswith("/models"):
            return 200, _JSON, json.dumps({"object": "list", "data": [], "models": []}).encode()
        if request.method != "POST" or not path.endswith("/responses"):
            return 404, _JSON, json.dumps({"error": {"message": f"no {path}"}}).encode()
        body = request.body if isinstance(request.body, dict) else {}
        if turn is None:
            turn = Text(DEFAULT_TEXT)
        index = request.turn_index if request.turn_index is not None else len(self.requests)
        response_id = f"resp_standin_{index}"
        model = body.get("model", "mock-model")
        item: dict[str, Any]
        if isinstance(turn, ToolCall):
            item = {
                "type": "function_call",
                "id": f"fc_standin_{index}",
                "call_id": f"call_{index}",
                "name": turn.name,
                "arguments": json.dumps(turn.input),
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_standin_{index}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        base = {"id": response_id, "object": "response", "model": model}
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        events: list[tuple[str | None, Any]] = [
            (
                "response.created",
                {
                    "type": "response.created",
                    "response": {**base, "status": "in_progress", "output": []},
                },
            ),
        ]
        if item["type"] == "message":
            added = {**item, "status": "in_progress", "content": []}
            events.append(
                (
                    "response.output_item.added",
                    {"type": "response.output_item.added", "output_index": 0, "item": added},
                )
            )
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": turn.text,  # type: ignore[union-attr]
                    },
                )
            )
        else:
            events.append(
                (
                    "response.output_item.added",
                    {"type": "response.output_item.added", "output_index": 0, "item": item},
                )
            )
        events.append(
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            )
        )
        events.append(
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {**base, "status": "completed", "output": [item], "usage": usage},
                },
            )
        )
        return 200, _SSE, _sse(events)


# ---------------------------------------------------------------------------
# Gemini API (Gemini CLI)
# ---------------------------------------------------------------------------


class GeminiServer(StandinServer):
    """`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` (and the
    non-streaming `:generateContent`).

    A conversation turn is a generate request that offers tools; Gemini CLI's
    side requests (its routing classifier, next-speaker checks, loop
    detection) offer none and get plain text. Token counting gets a count.
    """

    def error_body(self, status: int) -> dict[str, Any]:
        # A 429 as the real API sends it for an exhausted daily quota. Gemini CLI gives up on
        # that one at once; a transient 429 (no QuotaFailure) it retries itself with backoff.
        if status == 429:
            violation = {
                "quotaMetric": "generativelanguage.googleapis.com/generate_content_requests",
                "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
            }
            return {
                "error": {
                    "code": 429,
                    "message": "You exceeded your current quota.",
                    "status": "RESOURCE_EXHAUSTED",
                    "details": [
                        {
                            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                            "violations": [violation],
                        }
                    ],
                }
            }
        return super().error_body(status)

    def is_turn(self, request: Request) -> bool:
        body = request.body
        return (
            "Content" in request.path
            and "countTokens" not in request.path
            and isinstance(body, dict)
            and bool(body.get("tools"))
        )

    def answer(self, request: Request, turn: Turn | None) -> tuple[int, str, bytes]:
        path = request.path.split("?")[0]
        if path.endswith(":countTokens"):
            return 200, _JSON, json.dumps({"totalTokens": 10}).encode()
        if request.method != "POST" or "Content" not in path:
            return (
                404,
                _JSON,
                json.dumps({"error": {"code": 404, "message": f"no {path}"}}).encode(),
            )
        if turn is None:
            turn = self._side_answer(request)
        if isinstance(turn, ToolCall):
            part: dict[str, Any] = {"functionCall": {"name": turn.name, "args": turn.input}}
        else:
            part = {"text": turn.text}
        chunk = {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 5,
                "totalTokenCount": 15,
            },
            "modelVersion": path.rsplit("/", 1)[-1].split(":")[0],
        }
        if ":streamGenerateContent" in path:
            return 200, _SSE, _sse([(None, chunk)])
        return 200, _JSON, json.dumps(chunk).encode()

    def _side_answer(self, request: Request) -> Turn:
        # Side requests that ask for JSON (generationConfig.responseMimeType)
        # must get JSON back or the client logs a parse error and carries on.
        body = request.body if isinstance(request.body, dict) else {}
        config = body.get("generationConfig") or {}
        if config.get("responseMimeType") == "application/json":
            return Text(
                json.dumps(
                    {"reasoning": "stand-in", "next_speaker": "user", "model_choice": "flash"}
                )
            )
        return Text(DEFAULT_TEXT)


# ---------------------------------------------------------------------------
# Ollama (its HTTP API, called by taskproto directly: there is no client)
# ---------------------------------------------------------------------------


class OllamaServer(StandinServer):
    """`POST /api/generate` and `/api/chat`, non-streaming, as Ollama answers them."""

    def is_turn(self, request: Request) -> bool:
        return request.path.split("?")[0] in ("/api/generate", "/api/chat")

    def error_body(self, status: int) -> dict[str, Any]:
        return {"error": "too many requests" if status == 429 else f"stand-in error {status}"}

    def answer(self, request: Request, turn: Turn | None) -> tuple[int, str, bytes]:
        path = request.path.split("?")[0]
        if request.method != "POST" or not self.is_turn(request):
            return 404, _JSON, json.dumps({"error": f"no {path}"}).encode()
        body = request.body if isinstance(request.body, dict) else {}
        text = turn.text if isinstance(turn, Text) else DEFAULT_TEXT
        base = {"model": body.get("model", "llama3.1"), "created_at": "2025-01-01T00:00:00Z"}
        if path == "/api/chat":
            reply = {**base, "message": {"role": "assistant", "content": text}, "done": True}
        else:
            reply = {**base, "response": text, "done": True, "done_reason": "stop"}
        return 200, _JSON, json.dumps(reply).encode()
