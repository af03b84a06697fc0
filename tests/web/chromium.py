"""Headless Chromium driven over the DevTools protocol, with nothing but the standard library.

Debian's `chromium` (installed by .ci/setup.sh) is started with `--remote-debugging-pipe`: it
reads protocol messages (JSON, each ended by a NUL byte) on file descriptor 3 and writes its
answers and events on descriptor 4. Nothing is downloaded at run time: no driver, no browser build.
Typing goes through the browser's own input pipeline (`Input.insertText`), clicks through mouse
events at the element's centre, so a page is used as a person uses it.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(RuntimeError):
    """A protocol error, or a page that did not reach the state a test waited for."""


class Chromium:
    """One headless browser with one page (`javascript=False`: the page's scripts are off)."""

    def __init__(self, width: int = 1100, height: int = 900, javascript: bool = True) -> None:
        if CHROMIUM is None:
            raise BrowserError("chromium is not installed (.ci/setup.sh installs it)")
        self.profile = tempfile.mkdtemp(prefix="ambit-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def pipes() -> None:  # in the child: its fds 3 and 4 are the protocol pipe
            # copies first: a pipe end may already be fd 3 or 4, and dup2 onto itself would keep
            # its close-on-exec flag (or the first dup2 would close the other end)
            read_end, write_end = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=pipes, pass_fds=(3, 4))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._ids = itertools.count(1)
        self._replies: dict[int, dict] = {}
        self._events: list[dict] = []
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for method in ("Page.enable", "Runtime.enable"):
            self.send(method, session=True)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)
        if not javascript:
            self.send("Emulation.setScriptExecutionDisabled", {"value": True}, session=True)

    # -- the protocol -------------------------------------------------------------------------
    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._cond.notify_all()
                return
            buf += chunk
            *messages, buf = buf.split(b"\0")
            with self._cond:
                for raw in messages:
                    msg = json.loads(raw)
                    if "id" in msg:
                        self._replies[msg["id"]] = msg
                    else:
                        self._events.append(msg)
                self._cond.notify_all()

    def send(self, method: str, params: dict | None = None, session: bool = False, timeout: float = 60) -> dict:
        ident = next(self._ids)
        msg: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        with self._cond:
            if not self._cond.wait_for(lambda: ident in self._replies or self.proc.poll() is not None, timeout):
                raise BrowserError(f"{method}: no answer in {timeout} s")
            reply = self._replies.pop(ident, None)
        if reply is None:
            raise BrowserError(f"{method}: the browser exited ({self.proc.returncode})")
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    # -- pages ------------------------------------------------------------------------------
    def goto(self, url: str, timeout: float = 60) -> None:
        with self._cond:
            self._events.clear()
        self.send("Page.navigate", {"url": url}, session=True)
        with self._cond:
            if not self._cond.wait_for(lambda: any(e.get("method") == "Page.loadEventFired" for e in self._events),
                                       timeout):
                raise BrowserError(f"{url}: not loaded in {timeout} s")

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        out = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                        session=True)
        if "exceptionDetails" in out:
            raise BrowserError(f"{expression}: {out['exceptionDetails'].get('text')} "
                               f"{out['exceptionDetails'].get('exception', {}).get('description', '')}")
        return out["result"].get("value")

    def wait(self, expression: str, timeout: float = 60, every: float = 0.1) -> Any:
        """Poll until the expression is truthy; its value. A hang guard, not a speed check."""
        end = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > end:
                shown = self.js("[...document.querySelectorAll('section:not([hidden]) .result')]"
                                ".map(e => e.innerText).join('\\n').slice(0, 4000)")
                raise BrowserError(f"still false after {timeout} s: {expression}\nthe page shows:\n{shown}")
            time.sleep(every)

    def html(self) -> str:
        """The document as the browser holds it (works with scripts off too)."""
        root = self.send("DOM.getDocument", {"depth": -1}, session=True)["root"]["nodeId"]
        return self.send("DOM.getOuterHTML", {"nodeId": root}, session=True)["outerHTML"]

    def _centre(self, selector: str) -> tuple[float, float]:
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
                      f" e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();"
                      f" return [r.left + r.width / 2, r.top + r.height / 2]; }})()")
        if box is None:
            raise BrowserError(f"no element {selector}")
        return box[0], box[1]

    def click(self, selector: str) -> None:
        x, y = self._centre(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
                      session=True)

    def type(self, selector: str, text: str) -> None:
        """Replace the field's text by typing `text` into it."""
        self.click(selector)
        self.js(f"document.querySelector({json.dumps(selector)}).select()")
        self.send("Input.insertText", {"text": text}, session=True)

    def choose(self, selector: str, value: str) -> None:
        """Pick an option of a select, as a person's choice does (a change event)."""
        self.js(f"(() => {{ const s = document.querySelector({json.dumps(selector)}); s.value = {json.dumps(value)};"
                f" s.dispatchEvent(new Event('change', {{bubbles: true}})); }})()")

    def screenshot(self, path: Path) -> Path:
        """A PNG of the whole page (not just the window)."""
        size = self.send("Page.getLayoutMetrics", session=True)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 6000), "scale": 1}
        data = self.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True},
                         session=True)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except BrowserError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
