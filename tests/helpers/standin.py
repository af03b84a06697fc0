"""A small stand-in for an OpenAI-compatible server (stdlib `http.server` in a thread), for the
remote backend's fast tests: a deterministic toy "model" behind /v1/models, /v1/completions
(echo + logprobs, n, beams, a grammar probe) and /v1/chat/completions, plus scripted faults
(429 with Retry-After, 5xx, a stall past the client's timeout, a dropped connection), an API
key check, a count of the requests it received and the most it had in flight at once.
The real server these tests stand in for is vLLM (tests/server/remote/test_remote_vllm.py)."""

from __future__ import annotations

import collections
import json
import re
import socket
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ALL_CAPS = ("chat", "completions", "prompt_logprobs", "grammar", "beam_search", "n_samples")
_TOKEN = re.compile(r" ?\w+| ?[^\w\s]+|\s+")


def tokenize(text: str) -> list[str]:
    """Toy tokens that concatenate back to `text`."""
    return _TOKEN.findall(text)


def logprob(prev: str, token: str) -> float:
    """The toy model's log-probability of `token` after `prev`."""
    return -(0.05 + (zlib.crc32(f"{prev}|{token}".encode()) % 1000) / 250.0)


def reply(text: str) -> str:
    return "yes" if zlib.crc32(text.encode()) % 2 == 0 else "no"


def toy_answer(prompt: str, j: int) -> str:
    """The toy model's choice `j` (0: the greedy one) for `prompt`: yes or no, then j."""
    return reply(prompt) + ("" if j == 0 else f" {j}")


class QuietServer(ThreadingHTTPServer):
    """An HTTP server whose dropped connections stay quiet: a stand-in killed mid-reply, or a client
    that gave up, would otherwise print a traceback from the server's thread into whatever test of
    the same process captures stderr next."""

    def handle_error(self, request, client_address) -> None:  # noqa: ARG002 - socketserver's hook
        pass


class StandIn:
    """`start()`, `url` (…/v1), `kill()` (stop answering: connections refused), `restart()` on the
    same port; `faults`: what the next POSTs meet ("429", "429:<retry-after>", "500", "stall",
    "drop"); `delay_s`: time each POST takes; `caps`: what the toy endpoint offers; `answer`: the
    toy model's choice j for a prompt (default `toy_answer`), for completions and chat alike."""

    handler_base: type = None  # type: ignore[assignment] - _Handler, set below

    def __init__(self, model: str = "standin", key: str | None = None, caps=ALL_CAPS, delay_s: float = 0.0,
                 stall_s: float = 3.0, answer=None) -> None:
        self.model, self.key, self.caps = model, key, set(caps)
        self.answer = answer or toy_answer
        self.delay_s, self.stall_s = delay_s, stall_s
        self.faults: collections.deque[str] = collections.deque()
        self.posts = 0
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Lock()
        self.port = 0
        self.httpd: ThreadingHTTPServer | None = None
        self.conns: set[socket.socket] = set()  # open client connections (kept alive between requests)
        self.dead = False  # killed: requests on connections still open are dropped unanswered

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "StandIn":
        self.dead = False
        handler = type("Handler", (self.handler_base,), {"standin": self})
        self.httpd = QuietServer(("127.0.0.1", self.port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, name="standin", daemon=True).start()
        return self

    def kill(self) -> None:
        """Stop answering as a dead server does: the port refuses, and open connections are reset."""
        self.dead = True
        with self.lock:
            conns, self.conns = list(self.conns), set()
        for c in conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None
        with self.lock:
            conns, self.conns = list(self.conns), set()
        for c in conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def restart(self) -> None:
        self.kill()
        for _ in range(50):  # the port may linger a moment
            try:
                self.start()
                return
            except OSError:
                time.sleep(0.1)
        raise OSError(f"stand-in could not rebind port {self.port}")

    # -- the toy model -------------------------------------------------------------------------
    def completions(self, body: dict) -> dict:
        prompts = body["prompt"] if isinstance(body["prompt"], list) else [body["prompt"]]
        n = int(body.get("n", 1))
        if n > 1 and "n_samples" not in self.caps and not (body.get("use_beam_search") and "beam_search" in self.caps):
            n = 1
        choices, used = [], 0
        for p in prompts:
            for j in range(n):
                text = self._continuation(p, body, j)
                ch = {"index": len(choices), "text": text, "finish_reason": "stop"}
                if body.get("logprobs") is not None:
                    ch["logprobs"] = self._logprobs(p, text, bool(body.get("echo")))
                choices.append(ch)
                used += len(tokenize(text))
        if body.get("echo") and "prompt_logprobs" not in self.caps:
            for ch in choices:
                ch.pop("logprobs", None)
        return {"object": "text_completion", "model": self.model, "choices": choices,
                "usage": {"prompt_tokens": sum(len(tokenize(p)) for p in prompts), "completion_tokens": used}}

    def _continuation(self, prompt: str, body: dict, j: int) -> str:
        if int(body.get("max_tokens", 16)) == 0:
            return prompt if body.get("echo") else ""
        grammar = (body.get("structured_outputs") or {}).get("grammar")
        m = re.fullmatch(r'start: "(\w+)"', grammar or "")
        if m and "grammar" in self.caps:
            out = m.group(1)
        else:
            out = " " + self.answer(prompt, j)
        return (prompt if body.get("echo") else "") + out

    def _logprobs(self, prompt: str, text: str, echo: bool) -> dict:
        toks = tokenize(text)
        offsets, pos = [], 0
        for t in toks:
            offsets.append(pos + (0 if echo else len(prompt)))
            pos += len(t)
        prev = [""] + toks[:-1] if echo else ([tokenize(prompt)[-1]] + toks[:-1])
        lps = [logprob(a, b) for a, b in zip(prev, toks)]
        if echo:
            lps[0] = None
        return {"tokens": toks, "token_logprobs": lps, "text_offset": offsets, "top_logprobs": None}

    def chat(self, body: dict) -> dict:
        prompt = body["messages"][-1]["content"]
        n = int(body.get("n", 1)) if "n_samples" in self.caps else 1
        choices = [{"index": j, "message": {"role": "assistant", "content": self.answer(prompt, j)},
                    "finish_reason": "stop"} for j in range(n)]
        return {"object": "chat.completion", "model": self.model, "choices": choices,
                "usage": {"prompt_tokens": sum(len(tokenize(m["content"])) for m in body["messages"]),
                          "completion_tokens": n}}


class _Handler(BaseHTTPRequestHandler):
    standin: StandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def handle_one_request(self) -> None:
        if self.standin.dead:
            self.close_connection = True
            return
        super().handle_one_request()

    def setup(self) -> None:
        super().setup()
        # headers and body go out in two writes: without this, Nagle holds the body back until the
        # client's delayed ACK of the headers (~40 ms per answer on a kept-alive connection)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.standin.lock:
            self.standin.conns.add(self.connection)

    def finish(self) -> None:
        with self.standin.lock:
            self.standin.conns.discard(self.connection)
        try:
            super().finish()
        except OSError:
            pass

    def _send(self, code: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _authorised(self) -> bool:
        s = self.standin
        if s.key is not None and self.headers.get("Authorization") != f"Bearer {s.key}":
            self._send(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
            return False
        return True

    def do_GET(self) -> None:
        if not self._authorised():
            return
        if self.path == "/v1/models":
            self._send(200, {"object": "list", "data": [{"id": self.standin.model, "object": "model"}]})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        s = self.standin
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        with s.lock:
            s.posts += 1
            s.in_flight += 1
            s.max_in_flight = max(s.max_in_flight, s.in_flight)
            fault = s.faults.popleft() if s.faults else None
        try:
            self._answer(s, body, fault)
        finally:
            with s.lock:
                s.in_flight -= 1

    def _answer(self, s: StandIn, body: dict, fault: str | None) -> None:
        if fault == "drop":
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        if fault == "stall":
            time.sleep(s.stall_s)
        if fault and fault.startswith("429"):
            wait = fault.partition(":")[2]
            self._send(429, {"error": {"message": "rate limited"}}, {"Retry-After": wait} if wait else None)
            return
        if fault == "500":
            self._send(500, {"error": {"message": "internal"}})
            return
        if not self._authorised():
            return
        if body.get("model") != s.model:
            self._send(404, {"error": {"message": f"The model `{body.get('model')}` does not exist."}})
            return
        if s.delay_s:
            time.sleep(s.delay_s)
        if self.path == "/v1/completions" and "completions" in s.caps:
            self._send(200, s.completions(body))
        elif self.path == "/v1/chat/completions" and "chat" in s.caps:
            self._send(200, s.chat(body))
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})


StandIn.handler_base = _Handler
