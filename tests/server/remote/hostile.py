"""A stand-in OpenAI-compatible endpoint that misbehaves on request (issue 37, cases 1–6), and a
recorder that logs what reaches another port (where a redirect points).

`Hostile.mode` decides what the next POSTs meet (GETs of /models too, with `models_mode`):
- None: the toy model's answer, passed through `tamper(path, answer)` when that is set;
- "endless": a body that never ends (`chunk` bytes every `every_s` seconds);
- "trickle": one byte a second;
- "huge": a body of `huge_bytes` with its Content-Length ("huge-chunked": without one);
- "redirect": 301 to `location`;
- "echo": HTTP `echo_status` with a body that echoes the request's Authorization header, its URL
  and a key-like field back (as some proxies do in their error pages); `echo_json` False: as text.
`stream_ends` holds the times (monotonic) at which a streaming answer found its connection gone.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler

from tests.helpers.standin import QuietServer, StandIn, _Handler


class Hostile(StandIn):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.mode: str | None = None
        self.models_mode: str | None = None
        self.models_answer = None  # replaces the /models answer (a wrong shape)
        self.tamper = None
        self.location = ""
        self.chunk, self.every_s = 1024 * 1024, 0.02
        self.huge_bytes = 100 * 1024 * 1024
        self.stream_ends: list[float] = []
        self.streams_open = 0
        self.auth_seen: list[str | None] = []
        self.echo_status = 400
        self.echo_json = True


class _HostileHandler(_Handler):
    standin: Hostile

    def do_GET(self) -> None:
        s = self.standin
        with s.lock:
            s.auth_seen.append(self.headers.get("Authorization"))
        if self.path == "/v1/models" and s.models_mode == "redirect":
            return self._redirect()
        if self.path == "/v1/models" and s.models_answer is not None:
            return self._send(200, s.models_answer)
        super().do_GET()

    def do_POST(self) -> None:
        s = self.standin
        with s.lock:
            s.auth_seen.append(self.headers.get("Authorization"))
        mode = s.mode
        if mode is None:
            if s.tamper is None:
                return super().do_POST()
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            answer = s.completions(body) if self.path == "/v1/completions" else s.chat(body)
            with s.lock:
                s.posts += 1
            return self._send_raw(200, json.dumps(s.tamper(self.path, answer)).encode())
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with s.lock:
            s.posts += 1
        if mode == "redirect":
            return self._redirect()
        if mode == "echo":
            return self._echo()
        self._stream(mode)

    def _echo(self) -> None:
        s, auth = self.standin, self.headers.get("Authorization") or ""
        key = auth[len("Bearer "):]
        text = (f"{key} refused; you sent Authorization: {auth} to http://user:{key}@{self.headers.get('Host')}"
                f"{self.path}?api_key={key} {{\"api_key\": \"{key}\"}}")
        body = json.dumps({"error": {"message": text, "type": "echo"}}).encode() if s.echo_json else text.encode()
        self.send_response(s.echo_status)
        self.send_header("Content-Type", "application/json" if s.echo_json else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Echo-Authorization", auth)
        self.end_headers()
        self.wfile.write(body)

    def _closed_within(self, seconds: float) -> bool:
        """Whether the client closed the connection within `seconds` (seen at once, not at a later write)."""
        ready, _, _ = select.select([self.connection], [], [], seconds)
        if not ready:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _send_raw(self, code: int, data: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _redirect(self) -> None:
        self.send_response(301)
        self.send_header("Location", self.standin.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _stream(self, mode: str) -> None:
        s = self.standin
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if mode == "huge":
            self.send_header("Content-Length", str(s.huge_bytes))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        with s.lock:
            s.streams_open += 1
        try:
            self.wfile.write(b'{"choices": [{"text": "')
            if mode == "trickle":
                while True:
                    self.wfile.write(b"a")
                    self.wfile.flush()
                    if self._closed_within(1.0):
                        return
            block = b"a" * s.chunk
            sent = 0
            while mode != "huge" and mode != "huge-chunked" or sent < s.huge_bytes:
                self.wfile.write(block)
                self.wfile.flush()
                sent += len(block)
                if mode == "endless" and self._closed_within(s.every_s):
                    return
            self.wfile.write(b'"}]}')
        except OSError:
            pass
        finally:
            with s.lock:
                s.streams_open -= 1
                s.stream_ends.append(time.monotonic())


Hostile.handler_base = _HostileHandler


class Recorder:
    """An HTTP server on another port that records every request (method, path, Authorization)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str | None]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _any(self) -> None:
                recorder.seen.append((self.command, self.path, self.headers.get("Authorization")))
                data = b'{"data": [{"id": "standin"}], "choices": [{"text": "x", "index": 0}]}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _any

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
