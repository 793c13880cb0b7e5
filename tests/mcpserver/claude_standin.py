"""A stand-in Anthropic Messages API on 127.0.0.1 that drives Claude Code through taskproto's MCP tools.

The "model" asks for `mcp__taskproto__status`, then, once that tool's result is in the
conversation, for `mcp__taskproto__transition`, then ends its turn. Every request body is
recorded, so a test can read exactly what reached the model. Stdlib only.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

STATUS_ID = "toolu_taskproto_status"
TRANSITION_ID = "toolu_taskproto_transition"


@dataclass
class Standin:
    task: str
    target: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _httpd: ThreadingHTTPServer | None = None

    def __enter__(self) -> Standin:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                with standin._lock:
                    standin.requests.append({"path": self.path, "body": body})
                content_type, payload = standin.answer(self.path, body)
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    # --- what tests read -------------------------------------------------------

    def turns(self) -> list[dict[str, Any]]:
        """Conversation requests (they offer tools; Claude Code's side requests do not)."""
        with self._lock:
            return [r["body"] for r in self.requests
                    if r["path"].split("?")[0] == "/v1/messages" and r["body"].get("tools")]

    def tool_results(self) -> dict[str, dict[str, Any]]:
        """tool_use_id -> the tool_result block Claude Code sent back."""
        found: dict[str, dict[str, Any]] = {}
        for body in self.turns():
            for message in body.get("messages", []):
                content = message.get("content")
                for block in content if isinstance(content, list) else []:
                    if block.get("type") == "tool_result":
                        found[block["tool_use_id"]] = block
        return found

    # --- the script ----------------------------------------------------------------

    def answer(self, path: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if path.split("?")[0] != "/v1/messages":
            return "application/json", json.dumps({"input_tokens": 10}).encode()
        block: dict[str, Any]
        seen = json.dumps(body.get("messages", []))
        if not body.get("tools") or TRANSITION_ID in seen:
            block, stop = {"type": "text", "text": "Done."}, "end_turn"
        elif STATUS_ID in seen:
            block = {"type": "tool_use", "id": TRANSITION_ID, "name": "mcp__taskproto__transition",
                     "input": {"task": self.task, "state": self.target, "note": "moved by Claude Code"}}
            stop = "tool_use"
        else:
            block = {"type": "tool_use", "id": STATUS_ID, "name": "mcp__taskproto__status",
                     "input": {"task": self.task}}
            stop = "tool_use"
        model = body.get("model", "claude-sonnet-4-5")
        message = {"id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant", "model": model,
                   "content": [], "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": 10, "output_tokens": 1}}
        if not body.get("stream"):
            return "application/json", json.dumps({**message, "content": [block], "stop_reason": stop}).encode()
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
        events = [
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        text = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)
        return "text/event-stream", text.encode()
