#!/usr/bin/env python3
"""Browser test of the playground and the SVG wireframe (issue 10).

Starts `layoutd serve` (the binary given by --binary) on a free port with an in-memory
database, then:

- checks `POST /solve` answering `image/svg+xml` (by `Accept` and by `?format=svg`):
  well-formed XML (xml.etree), every view's rect carrying the frame that the JSON
  `/solve` reports, absolute positions that add up the parents' offsets, a viewBox that
  holds every rect, one panel per size of a `sizes` request;
- checks `GET /` is one self-contained HTML page (no external URL);
- drives headless Chromium (Debian's `chromium`; install it with
  scripts/install-browser.sh) over the DevTools protocol (a minimal RFC 6455 websocket
  client below, standard library only): loads the page, types a scene into `#scene`,
  waits for the debounced re-solve, and compares the rects in the DOM with `/solve`'s
  frames; types an edit key by key and checks the solves were coalesced (debounce); enters a scene with a VFL syntax error and checks the caret line sits under
  the column `/validate` reports; picks the conflict example and checks the warning
  style; saves screenshots to artifacts/playground.png (and playground-syntax.png,
  playground-conflict.png).

Prints one PASS/FAIL line per check and "N passed, M failed"; exits 1 on any failure.
Installs nothing. Usage: python3 integration/browser/run.py --binary .build/debug/layoutd
"""

import argparse
import base64
import http.client
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SVG_NS = "{http://www.w3.org/2000/svg}"

# ---------------------------------------------------------------------------
# Scenes

CONTRACT = {
    "container": {"width": 375, "height": 667},
    "views": {
        "card": {},
        "title": {"parent": "card", "intrinsicSize": {"width": 120, "height": 21}, "baseline": 17},
        "icon": {"parent": "card", "intrinsicSize": {"width": 24, "height": 24},
                 "hugging": {"horizontal": 251}, "compressionResistance": {"horizontal": 749}},
    },
    "metrics": {"pad": 16},
    "constraints": [
        "H:|-pad-[card]-pad-|",
        "V:|-20-[card(>=44)]",
        {"vfl": "H:|-[icon]-[title]-|", "options": ["alignAllCenterY"]},
        "V:|-[title]-|",
        {"id": "title-min", "equation": "title.width >= 80", "priority": 750},
    ],
}

# Three levels of nesting and fractional positions: the scene typed into the page.
NESTED = {
    "container": {"width": 400, "height": 300},
    "views": {
        "panel": {},
        "header": {"parent": "panel"},
        "button": {"parent": "header"},
        "body": {"parent": "panel"},
    },
    "constraints": [
        "H:|-24-[panel]-24-|",
        "V:|-30-[panel(200)]",
        "H:|-10-[header]-10-|",
        "V:|-10-[header(50)]-12.5-[body]-10-|",
        "H:|-10-[body]-10-|",
        "H:[button(80)]-7.25-|",
        "V:|-5-[button]-5-|",
    ],
}

SYNTAX_ERROR = {
    "container": {"width": 375, "height": 100},
    "views": ["red", "blue"],
    "constraints": ["V:|[red]|", "H:|-0-[red-0-|", "H:|[blue]|"],
}

SIZES = {
    "views": ["a", "b"],
    "constraints": ["H:|-10-[a]-8-[b(==a)]-10-|", "V:|-10-[a]-10-|", "V:|-10-[b]-10-|"],
    "sizes": [{"width": 200, "height": 100}, {"width": 320, "height": 60}, {"width": 120, "height": 80}],
}

# ---------------------------------------------------------------------------
# Report


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, function, *arguments):
        try:
            function(*arguments)
        except CheckFailed as failure:
            self.failed += 1
            print(f"FAIL {name}: {failure}", flush=True)
            return False
        except Exception as error:  # a crash of the check is a failure, with its trace
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(file=sys.stdout)
            return False
        self.passed += 1
        print(f"PASS {name}", flush=True)
        return True


# ---------------------------------------------------------------------------
# The server


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, binary, workdir):
        self.port = free_port()
        self.log_path = os.path.join(workdir, "server.log")
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", ":memory:"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"layoutd exited with {self.process.returncode}; log: {self.log_path}")
            try:
                status, _, _ = self.request("GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("layoutd did not answer /healthz within 20 s")

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
            connection.request(method, path, body=data, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


# ---------------------------------------------------------------------------
# A minimal websocket client (RFC 6455) for the DevTools protocol


class WebSocket:
    def __init__(self, url):
        parsed = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        path = parsed.path + (("?" + parsed.query) if parsed.query else "")
        request = (f"GET {path} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("websocket handshake: connection closed")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"websocket handshake refused: {head[:80]!r}")

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("websocket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send_text(self, text):
        payload = text.encode()
        header = bytes([0x81])  # FIN + text
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)  # clients must mask (RFC 6455 §5.3)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive_text(self):
        message = b""
        while True:
            first, second = self._read(2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise RuntimeError("websocket closed by the browser")
            if opcode == 0x9:  # ping → pong
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0x1, 0x2, 0x0):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, executable, workdir):
        self.profile = os.path.join(workdir, "chromium-profile")
        os.makedirs(self.profile, exist_ok=True)
        self.log = open(os.path.join(workdir, "chromium.log"), "wb")
        self.process = subprocess.Popen(
            [executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--mute-audio",
             "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={self.profile}",
             "--window-size=1280,860", "--force-device-scale-factor=1", "about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        port = None
        while time.monotonic() < deadline and port is None:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.process.returncode}")
            try:
                with open(port_file) as handle:
                    first = handle.readline().strip()
                    port = int(first) if first else None
            except (OSError, ValueError):
                time.sleep(0.1)
        if port is None:
            raise RuntimeError("chromium did not open its DevTools port within 30 s")
        targets = []
        while time.monotonic() < deadline:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/json/list")
            targets = [t for t in json.loads(connection.getresponse().read()) if t.get("type") == "page"]
            connection.close()
            if targets:
                break
            time.sleep(0.1)
        if not targets:
            raise RuntimeError("chromium has no page target")
        self.socket = WebSocket(targets[0]["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events = []   # DevTools events (messages without an id), in arrival order
        self.command("Page.enable")
        self.command("Runtime.enable")
        self.command("Log.enable")
        # Runs before the page's own script in every document (DevTools-injected scripts are
        # not subject to the page's CSP): records each CSP violation the page causes.
        self.command("Page.addScriptToEvaluateOnNewDocument", source=CSP_RECORDER)

    def command(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.socket.send_text(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive_text())
            if "method" in message and "id" not in message:
                self.events.append(message)
            if message.get("id") == my_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def navigate(self, url):
        self.command("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && !!document.getElementById('scene')", "page load")

    def wait_for(self, expression, what, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(f"Boolean({expression})"):
                return
            time.sleep(0.05)
        raise CheckFailed(f"timed out waiting for {what}")

    def screenshot(self, path):
        data = self.command("Page.captureScreenshot", format="png")["data"]
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # our own session: chromium and its helpers
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


# ---------------------------------------------------------------------------
# Helpers


def solve_json(server, scene):
    status, headers, body = server.request("POST", "/solve", scene, {"Content-Type": "application/json"})
    expect(status == 200, f"/solve answered {status}: {body[:300]!r}")
    return json.loads(body)


def absolute_frames(frames, scene):
    """Frames relative to the container, from /solve's parent-relative frames."""
    views = scene.get("views", {})
    parents = {name: (spec.get("parent") if isinstance(views, dict) else None)
               for name, spec in (views.items() if isinstance(views, dict) else ((v, {}) for v in views))}
    result = {}

    def resolve(name, depth=0):
        if name in result:
            return result[name]
        frame = frames[name]
        parent = parents.get(name)
        if name == "superview" or depth > 64:
            origin = (0.0, 0.0)
        else:
            parent_frame = resolve(parent or "superview", depth + 1)
            origin = (parent_frame[0], parent_frame[1])
        result[name] = (frame["x"] + origin[0], frame["y"] + origin[1], frame["width"], frame["height"])
        return result[name]

    for name in frames:
        resolve(name)
    return result


def svg_rects(root):
    """{panel index: {view: rect attributes}} of a parsed wireframe."""
    panels = []
    for panel in root.iter(f"{SVG_NS}g"):
        if panel.get("class") != "panel":
            continue
        rects = {}
        for group in panel.iter(f"{SVG_NS}g"):
            view = group.get("data-view")
            rect = group.find(f"{SVG_NS}rect")
            if view is not None and rect is not None:
                rects[view] = rect.attrib
        panels.append(rects)
    return panels


def compare_rects(rects, frames, scene, where):
    expect(set(rects) == set(frames), f"{where}: views {sorted(rects)} != frames {sorted(frames)}")
    absolute = absolute_frames(frames, scene)
    for name, frame in frames.items():
        rect = rects[name]
        got = [float(rect["data-x"]), float(rect["data-y"]), float(rect["data-width"]), float(rect["data-height"])]
        want = [frame["x"], frame["y"], frame["width"], frame["height"]]
        expect(got == want, f"{where}: {name} data-x/y/width/height {got} != /solve frame {want}")
        drawn = [float(rect["x"]), float(rect["y"]), float(rect["width"]), float(rect["height"])]
        expect(all(abs(a - b) < 1e-6 for a, b in zip(drawn, absolute[name])),
               f"{where}: {name} x/y/width/height {drawn} != absolute {list(absolute[name])}")


# ---------------------------------------------------------------------------
# HTTP checks


def check_svg_endpoint(server, scene, how):
    path, headers = ("/solve?format=svg", {}) if how == "query" else ("/solve", {"Accept": "image/svg+xml"})
    headers["Content-Type"] = "application/json"
    status, response_headers, body = server.request("POST", path, scene, headers)
    expect(status == 200, f"status {status}: {body[:300]!r}")
    expect(response_headers.get("content-type") == "image/svg+xml; charset=utf-8",
           f"Content-Type {response_headers.get('content-type')!r}")
    root = ET.fromstring(body)  # raises on XML that is not well-formed
    expect(root.tag == f"{SVG_NS}svg", f"root element {root.tag}")
    frames = solve_json(server, scene)["frames"]
    panels = svg_rects(root)
    expect(len(panels) == 1, f"{len(panels)} panels")
    compare_rects(panels[0], frames, scene, how)
    # The viewBox holds every rect (after the panel's translation).
    box = [float(v) for v in root.get("viewBox").split()]
    panel = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "panel")
    dx, dy = (float(v) for v in re.fullmatch(r"translate\((\S+) (\S+)\)", panel.get("transform")).groups())
    for name, rect in panels[0].items():
        left, top = float(rect["x"]) + dx, float(rect["y"]) + dy
        right, bottom = left + float(rect["width"]), top + float(rect["height"])
        expect(box[0] <= left and box[1] <= top and right <= box[0] + box[2] and bottom <= box[1] + box[3],
               f"{name} ({left},{top})–({right},{bottom}) outside viewBox {box}")


def check_svg_sizes(server):
    status, _, body = server.request("POST", "/solve", SIZES, {"Accept": "image/svg+xml"})
    expect(status == 200, f"status {status}")
    root = ET.fromstring(body)
    layouts = solve_json(server, SIZES)["layouts"]
    panels = svg_rects(root)
    expect(len(panels) == len(SIZES["sizes"]) == len(layouts), f"{len(panels)} panels for {len(SIZES['sizes'])} sizes")
    for index, (rects, layout) in enumerate(zip(panels, layouts)):
        compare_rects(rects, layout["frames"], SIZES, f"panel {index}")
    captions = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "caption"]
    expect(captions == ["200×100", "320×60", "120×80"], f"captions {captions}")


def check_svg_syntax_error(server):
    status, headers, body = server.request("POST", "/solve", SYNTAX_ERROR, {"Accept": "image/svg+xml"})
    expect(status == 422, f"status {status}")
    expect(headers.get("content-type") == "application/problem+json", f"Content-Type {headers.get('content-type')}")
    expect(json.loads(body)["diagnostics"][0]["code"] == "vfl_syntax", body[:200])


def check_json_by_default(server):
    for accept in (None, "*/*", "application/json, image/svg+xml", "image/svg+xml;q=0.5, application/json"):
        headers = {"Content-Type": "application/json"}
        if accept:
            headers["Accept"] = accept
        status, response_headers, body = server.request("POST", "/solve", CONTRACT, headers)
        expect(status == 200 and response_headers.get("content-type") == "application/json",
               f"Accept {accept!r}: {status} {response_headers.get('content-type')}")


def check_page(server):
    status, headers, body = server.request("GET", "/")
    expect(status == 200, f"status {status}")
    policy = headers.get("content-security-policy", "")
    expect("frame-ancestors 'none'" in policy and "unsafe-inline" not in policy, f"Content-Security-Policy {policy!r}")
    expect(headers.get("x-content-type-options") == "nosniff", f"X-Content-Type-Options {headers.get('x-content-type-options')!r}")
    expect(headers.get("content-type") == "text/html; charset=utf-8", f"Content-Type {headers.get('content-type')}")
    page = body.decode()
    for needle in ('id="scene"', 'id="wireframe"', 'id="diagnostics"', 'id="examples"'):
        expect(needle in page, f"missing {needle}")
    external = re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}", page)
    expect(not external, f"external URLs in the page: {external[:5]}")
    expect(not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)\s*=", page), "the page loads a resource")


# ---------------------------------------------------------------------------
# Browser checks

READ_RECTS = """
JSON.stringify(Array.from(document.querySelectorAll('#wireframe g.view')).map(function (g) {
  var r = g.querySelector(':scope > rect');
  var box = r.getBoundingClientRect();
  return {view: g.getAttribute('data-view'), classes: g.getAttribute('class'),
          dx: r.getAttribute('data-x'), dy: r.getAttribute('data-y'),
          dw: r.getAttribute('data-width'), dh: r.getAttribute('data-height'),
          x: r.getAttribute('x'), y: r.getAttribute('y'), w: r.getAttribute('width'), h: r.getAttribute('height'),
          shown: box.width > 0 || box.height > 0,
          title: (r.querySelector('title') || {}).textContent || null};
}))
"""


CSP_RECORDER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (event) {
  window.__cspViolations.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') +
                              ' (' + (event.sample || '') + ')');
});
"""


def check_browser_csp(browser):
    """The page ran every check above under its Content-Security-Policy without a single
    violation (neither the DOM's securitypolicyviolation events nor the console's security
    messages), and the wireframe's own <style>, inserted with the SVG, applied: a view's
    rectangle has the stroke its rule gives (#3a6fc4)."""
    violations = browser.evaluate("JSON.stringify(window.__cspViolations || null)")
    expect(violations == "[]", f"CSP violations in the page: {violations}")
    console = [e["params"]["entry"].get("text", "") for e in browser.events
               if e.get("method") == "Log.entryAdded"
               and ("Content Security Policy" in e["params"]["entry"].get("text", "")
                    or e["params"]["entry"].get("source") == "security")]
    expect(not console, f"console security messages: {console[:3]}")
    stroke = browser.evaluate("(function () { var r = document.querySelector('#wireframe g.view:not(.container) > rect');"
                              " return r ? getComputedStyle(r).stroke : null; })()")
    expect(stroke == "rgb(58, 111, 196)", f"the wireframe's style did not apply: stroke {stroke!r}")


def enter_scene(browser, scene):
    """Replaces the editor's text as a person would (select all, type), then waits for
    the debounced re-solve to land for this very edit."""
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var s = document.getElementById('scene'); s.focus(); s.select(); true")
    browser.command("Input.insertText", text=json.dumps(scene, indent=2))
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state !== 'pending'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", "the re-solve")
    # Exactly one solve for the whole paste: the debounce coalesced the input events.
    return int(browser.evaluate("document.getElementById('wireframe').dataset.revision")) - before


def check_browser_typing_is_debounced(browser, server):
    """Types a change key by key (each keystroke an input event): far fewer solves than
    keystrokes, and the wireframe ends on the final text."""
    enter_scene(browser, NESTED)
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    # Caret right after the container's `"width": 400`; two Backspaces and "5000" typed
    # digit by digit: 400 → 40 → 4 → 45 → 450 → 4500 → 45000 (six input events).
    browser.evaluate("""(function () { var s = document.getElementById('scene');
        var at = s.value.indexOf('"width": 400') + '"width": 400'.length; s.focus(); s.setSelectionRange(at, at); return true; })()""")
    keystrokes = 0
    for _ in range(2):
        browser.command("Input.dispatchKeyEvent", type="keyDown", key="Backspace", code="Backspace",
                        windowsVirtualKeyCode=8, nativeVirtualKeyCode=8)
        browser.command("Input.dispatchKeyEvent", type="keyUp", key="Backspace", code="Backspace",
                        windowsVirtualKeyCode=8, nativeVirtualKeyCode=8)
        keystrokes += 1
    for digit in "5000":
        browser.command("Input.insertText", text=digit)
        keystrokes += 1
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state === 'ok'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", "the typed edit")
    time.sleep(0.6)  # let any further debounced solve start; it must not, the text is final
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok'", "the last solve")
    solves = int(browser.evaluate("document.getElementById('wireframe').dataset.revision")) - before
    expect(1 <= solves < keystrokes, f"{solves} solves for {keystrokes} keystrokes")
    scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
    expect(scene["container"]["width"] == 45000, f"typed text gave width {scene['container']['width']}")
    rects = dom_rects(browser)
    expect(rects["superview"]["dw"] == "45000", f"wireframe container width {rects['superview']['dw']}")


def dom_rects(browser):
    return {item["view"]: item for item in json.loads(browser.evaluate(READ_RECTS))}


def check_browser_scene(browser, server, scene, name):
    solves = enter_scene(browser, scene)
    expect(solves == 1, f"{solves} solves for one edit")
    expect(browser.evaluate("document.getElementById('wireframe').dataset.state") == "ok", "wireframe state not ok")
    rects = dom_rects(browser)
    frames = solve_json(server, scene)["frames"]
    as_attributes = {view: {"data-x": r["dx"], "data-y": r["dy"], "data-width": r["dw"], "data-height": r["dh"],
                            "x": r["x"], "y": r["y"], "width": r["w"], "height": r["h"]} for view, r in rects.items()}
    compare_rects(as_attributes, frames, scene, name)
    hidden = [view for view, r in rects.items() if not r["shown"]]
    expect(not hidden, f"rects not rendered: {hidden}")


def check_browser_syntax_error(browser, server, artifacts):
    enter_scene(browser, SYNTAX_ERROR)
    status, _, body = server.request("POST", "/validate", SYNTAX_ERROR)
    expect(status == 200, f"/validate {status}")
    wanted = [d for d in json.loads(body)["diagnostics"] if d["code"] == "vfl_syntax"]
    expect(len(wanted) == 1, f"/validate diagnostics {wanted}")
    diagnostic = wanted[0]
    expect(diagnostic["column"] == 10 and diagnostic["source"] == "H:|-0-[red-0-|", f"unexpected {diagnostic}")
    shown = json.loads(browser.evaluate("""JSON.stringify(Array.from(document.querySelectorAll('#diagnostics .diagnostic')).map(function (d) {
        var s = d.querySelector('pre.source'), c = d.querySelector('pre.caret'), m = d.querySelector('.message');
        return {code: d.dataset.code, message: m && m.textContent, source: s && s.textContent, caret: c && c.textContent};
    }))"""))
    matching = [d for d in shown if d["code"] == "vfl_syntax"]
    expect(len(matching) == 1, f"diagnostics shown: {shown}")
    item = matching[0]
    expect(item["message"] == diagnostic["message"], f"message {item['message']!r}")
    expect(item["source"] == diagnostic["source"], f"source line {item['source']!r}")
    expect(item["caret"] == " " * diagnostic["column"] + "^", f"caret line {item['caret']!r}")
    # The caret is rendered under the character at that column (monospace: same x).
    offset = browser.evaluate("""(function () {
        var d = Array.from(document.querySelectorAll('#diagnostics .diagnostic')).find(function (e) { return e.dataset.code === 'vfl_syntax'; });
        function xAt(pre, index) { var r = document.createRange(); r.setStart(pre.firstChild, index); r.setEnd(pre.firstChild, index + 1); return r.getBoundingClientRect().left; }
        return xAt(d.querySelector('pre.caret'), %d) - xAt(d.querySelector('pre.source'), %d);
    })()""" % (diagnostic["column"], diagnostic["column"]))
    expect(abs(offset) < 0.5, f"caret is {offset} px away from column {diagnostic['column']}")
    expect(browser.evaluate("document.getElementById('wireframe').dataset.state") == "error", "wireframe should show the 422")
    browser.screenshot(os.path.join(artifacts, "playground-syntax.png"))


def check_browser_conflict_example(browser, artifacts):
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var e = document.getElementById('examples'); e.value = 'conflict'; e.dispatchEvent(new Event('change')); true")
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state === 'ok'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", "the conflict example")
    rects = dom_rects(browser)
    warned = sorted(view for view, r in rects.items() if "warning" in r["classes"].split())
    expect("left" in warned, f"warning views {warned}")
    expect(rects["left"]["title"] and "Unable to simultaneously satisfy constraints" in rects["left"]["title"],
           f"tooltip {rects['left']['title']!r}")
    codes = browser.evaluate("Array.from(document.querySelectorAll('#diagnostics .diagnostic')).map(function (d) { return d.dataset.code; }).join(',')")
    expect("unsatisfiable_constraints" in codes, f"diagnostics {codes}")
    browser.screenshot(os.path.join(artifacts, "playground-conflict.png"))


def check_query_scene(browser, server):
    browser.navigate(f"http://127.0.0.1:{server.port}/?scene=" + urllib.parse.quote(json.dumps(NESTED)))
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok'", "the ?scene= wireframe")
    frames = solve_json(server, NESTED)["frames"]
    rects = dom_rects(browser)
    expect({v: [float(r["dx"]), float(r["dy"]), float(r["dw"]), float(r["dh"])] for v, r in rects.items()}
           == {v: [f["x"], f["y"], f["width"], f["height"]] for v, f in frames.items()}, "frames differ")


# ---------------------------------------------------------------------------
# The playground that explains (issue 28)


def pick_example(browser, name):
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var e = document.getElementById('examples'); e.value = %s; e.dispatchEvent(new Event('change')); true"
                     % json.dumps(name))
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state !== 'pending'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", f"the {name} example")


def click_at(browser, x, y):
    browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="none")
    for kind in ("mousePressed", "mouseReleased"):
        browser.command("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", buttons=1 if kind == "mousePressed" else 0, clickCount=1)


# Where to click to pick each view: the middle of a part of its rect that nothing else
# covers (the topmost element there is the view's rect or its own label).
CLICK_TARGETS = """
JSON.stringify(Array.from(document.querySelectorAll('#wireframe g.panel[data-index="0"] g.view')).map(function (g) {
  var r = g.querySelector(':scope > rect').getBoundingClientRect();
  var name = g.getAttribute('data-view');
  for (var fy = 0.5; fy < 1; fy += 0.15) { for (var fx = 0.5; fx < 1; fx += 0.15) {
    var x = r.left + r.width * fx, y = r.top + r.height * fy;
    var hit = document.elementFromPoint(x, y);
    var owner = hit && hit.closest ? hit.closest('g.view, text[data-for]') : null;
    if (owner && (owner.getAttribute('data-view') || owner.getAttribute('data-for')) === name) { return {view: name, x: x, y: y}; }
  } }
  return {view: name, x: null, y: null};
}))
"""

LABEL_OVERLAPS = """
JSON.stringify((function () {
  var boxes = Array.from(document.querySelectorAll('#wireframe g.labels text')).map(function (t) {
    var b = t.getBBox(); return {text: t.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height};
  });
  var bad = [];
  for (var i = 0; i < boxes.length; i++) { for (var j = i + 1; j < boxes.length; j++) {
    var a = boxes[i], b = boxes[j];
    var w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    if (w > 0.5 && h > 0.5) { bad.push([a.text, b.text, w, h]); }
  } }
  return bad;
})())
"""

READ_INSPECTOR = """
JSON.stringify((function () {
  var i = document.getElementById('inspector');
  return {view: i.dataset.view, state: i.dataset.state, explained: i.dataset.explained,
          frame: (i.querySelector('.frame') || {}).textContent || null,
          constraints: Array.from(i.querySelectorAll('#inspector-constraints li')).map(function (l) { return l.textContent; }),
          fields: Array.from(i.querySelectorAll('#inspector-explanations li.field')).map(function (l) {
            return {field: l.dataset.field, text: l.textContent}; }),
          note: (i.querySelector('#inspector-explanations .none') || {}).textContent || null};
})())
"""


def check_examples_inspect(browser, server, artifacts):
    """Each example: loaded from the menu, every pickable view clicked in the picture, and
    the inspector reads that view's frame as /solve gives it, the scene's constraints that
    name it, and why each field has its value (or says the server does not explain)."""
    names = json.loads(browser.evaluate("JSON.stringify(Array.from(document.querySelectorAll('#examples option'))"
                                        ".map(function (o) { return o.value; }).filter(Boolean))"))
    expect({"contract", "conflict", "card", "overflow"} <= set(names), f"examples {names}")
    for name in names:
        pick_example(browser, name)
        if browser.evaluate("document.getElementById('wireframe').dataset.state") != "ok":
            expect(name == "syntax", f"{name}: no wireframe")
            continue
        scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
        frames = solve_json(server, scene)["frames"]
        # The labels as Chromium lays them out (its own font metrics, not the renderer's
        # estimate): no two overlap by more than half a point.
        overlaps = json.loads(browser.evaluate(LABEL_OVERLAPS))
        expect(not overlaps, f"{name}: rendered labels overlap: {overlaps}")
        targets = json.loads(browser.evaluate(CLICK_TARGETS))
        views = [t["view"] for t in targets if t["x"] is not None]
        expect(len(views) >= 2, f"{name}: pickable views {targets}")
        for view in views:
            # Where it is now (the page may have moved since).
            target = next(t for t in json.loads(browser.evaluate(CLICK_TARGETS)) if t["view"] == view)
            expect(target["x"] is not None, f"{name}/{view}: no longer pickable")
            click_at(browser, target["x"], target["y"])
            browser.wait_for("document.getElementById('inspector').dataset.view === %s"
                             " && document.getElementById('inspector').dataset.state === 'ok'" % json.dumps(target["view"]),
                             f"{name}: the inspector of {target['view']}")
            shown = json.loads(browser.evaluate(READ_INSPECTOR))
            frame = frames[target["view"]]
            want = "frame  x %s  y %s  width %s  height %s" % tuple(
                ("%d" % v if float(v).is_integer() else repr(v)) for v in (frame["x"], frame["y"], frame["width"], frame["height"]))
            expect(shown["frame"] == want, f"{name}/{target['view']}: inspector frame {shown['frame']!r} != {want!r}")
            expect(browser.evaluate("document.querySelectorAll('#wireframe g.view.selected').length") >= 1,
                   f"{name}/{target['view']}: not outlined as selected")
            if target["view"] != "superview":
                expect(shown["constraints"] and all(target["view"] in c for c in shown["constraints"]),
                       f"{name}/{target['view']}: constraints {shown['constraints']}")
            if shown["explained"] == "true":
                expect([f["field"] for f in shown["fields"]] == [target["view"] + "." + f for f in ("x", "y", "width", "height")],
                       f"{name}/{target['view']}: explained fields {shown['fields']}")
            else:
                expect(shown["note"] and "does not explain" in shown["note"], f"{name}/{target['view']}: note {shown['note']!r}")
        if name == "card":
            browser.screenshot(os.path.join(artifacts, "playground-inspect.png"))


# Stands in for a server that answers `explain` (contract "Explaining a frame"): a JSON
# /solve with `explain` gets the real answer of the scene without it plus these
# explanations. Installed over DevTools (outside the page's CSP), removed after.
FAKE_EXPLAIN = """
(function () {
  window.__realFetch = window.fetch;
  window.fetch = function (url, options) {
    var body = options && typeof options.body === 'string' ? JSON.parse(options.body) : null;
    if (!body || !body.explain) { return window.__realFetch(url, options); }
    delete body.explain;
    var plain = Object.assign({}, options, {body: JSON.stringify(body)});
    return window.__realFetch(url, plain).then(function (r) { return r.json(); }).then(function (answer) {
      answer.explanations = {
        'title.x': [{ref: {constraint: 2, part: 1, text: 'title.leading == icon.trailing + 8'}, by: 1}],
        'title.y': [],
        'title.width': [{ref: {constraint: 2, part: 3, text: 'superview.trailing == title.trailing + 20'}, by: -1},
                        {ref: {constraint: 'container.width', text: 'superview.width == 375'}, by: 1}],
        'title.height': [{ref: {constraint: 'title.intrinsicSize.height', text: 'title.height == 21'}, by: 1}]
      };
      return new Response(JSON.stringify(answer), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  };
  return true;
})()
"""


def check_explanations_rendered(browser, artifacts):
    """With a server that answers `explain`, the inspector lists, per field, each
    constraint that moves it with its rate and its reference."""
    pick_example(browser, "contract")
    browser.evaluate(FAKE_EXPLAIN)
    try:
        browser.evaluate("document.querySelector('#views button[data-view=title]').click(); true")
        browser.wait_for("document.getElementById('inspector').dataset.view === 'title'"
                         " && document.getElementById('inspector').dataset.state === 'ok'", "the explained title")
        shown = json.loads(browser.evaluate(READ_INSPECTOR))
        expect(shown["explained"] == "true", f"not explained: {shown}")
        fields = {f["field"]: f["text"] for f in shown["fields"]}
        expect(list(fields) == ["title.x", "title.y", "title.width", "title.height"], f"fields {list(fields)}")
        expect(fields["title.width"] == "width = 271-1 × superview.trailing == title.trailing + 20   [constraint 2 part 3]"
               "+1 × superview.width == 375   [container.width]", f"title.width {fields['title.width']!r}")
        expect(fields["title.y"] == "y = 20no constraint moves it", f"title.y {fields['title.y']!r}")
        browser.screenshot(os.path.join(artifacts, "playground-explain.png"))
    finally:
        browser.evaluate("window.fetch = window.__realFetch || window.fetch; true")


def check_slider_resolves(browser, server, artifacts):
    """Dragging the container-width slider with the mouse re-solves as it moves: the
    wireframe's container ends at the slider's value, its frames are /solve's at that
    width, and the time per solve is shown."""
    pick_example(browser, "contract")
    before = browser.evaluate("document.querySelector('#wireframe g.view.container > rect').getAttribute('data-width')")
    box = json.loads(browser.evaluate("""JSON.stringify((function () { var s = document.getElementById('container-width');
        var r = s.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width, height: r.height,
        min: Number(s.min), max: Number(s.max), value: Number(s.value)}; })())"""))
    expect(box["value"] == 375, f"slider starts at {box['value']}")
    y = box["top"] + box["height"] / 2
    x = box["left"] + 8 + (box["width"] - 16) * (box["value"] - box["min"]) / (box["max"] - box["min"])
    revision = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.command("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
    for step in range(1, 9):
        browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=x - 3 * step, y=y, button="left", buttons=1)
        time.sleep(0.05)
    browser.command("Input.dispatchMouseEvent", type="mouseReleased", x=x - 24, y=y, button="left", clickCount=1)
    value = browser.evaluate("document.getElementById('container-width').value")
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok' && document.querySelector("
                     "'#wireframe g.view.container > rect').getAttribute('data-width') === %s" % json.dumps(value),
                     "the wireframe at the slider's width")
    after = browser.evaluate("document.querySelector('#wireframe g.view.container > rect').getAttribute('data-width')")
    expect(after != before and float(after) < 375, f"container width {before} → {after}")
    solves = int(browser.evaluate("document.getElementById('wireframe').dataset.revision")) - revision
    expect(solves >= 2, f"{solves} solves while dragging")
    scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
    expect(scene["container"]["width"] == float(value), f"scene width {scene['container']['width']} != slider {value}")
    rects = dom_rects(browser)
    frames = solve_json(server, scene)["frames"]
    expect({v: float(r["dw"]) for v, r in rects.items()} == {v: f["width"] for v, f in frames.items()},
           "widths differ from /solve at the new width")
    timing = browser.evaluate("document.getElementById('solve-time').textContent")
    expect(re.fullmatch(r"solve \+ draw \d+\.\d ms", timing or ""), f"time per solve {timing!r}")
    browser.screenshot(os.path.join(artifacts, "playground-slider.png"))


def check_zoom_and_keyboard(browser):
    """Zoom to fit, zoom in and pan by keyboard: the viewBox changes and Fit restores it."""
    pick_example(browser, "contract")
    fitted = browser.evaluate("document.querySelector('#wireframe svg').getAttribute('viewBox')")
    browser.evaluate("document.getElementById('wireframe').focus(); true")
    for key in ("+", "ArrowRight"):
        browser.command("Input.dispatchKeyEvent", type="keyDown", key=key, text=key if len(key) == 1 else "")
        browser.command("Input.dispatchKeyEvent", type="keyUp", key=key)
    zoomed = [float(v) for v in browser.evaluate("document.querySelector('#wireframe svg').getAttribute('viewBox')").split()]
    original = [float(v) for v in fitted.split()]
    expect(abs(zoomed[2] - original[2] / 1.25) < 1e-6, f"zoom in: {original} → {zoomed}")
    browser.evaluate("document.getElementById('zoom-fit').click(); true")
    expect(browser.evaluate("document.querySelector('#wireframe svg').getAttribute('viewBox')") == fitted, "Fit restores the viewBox")
    # Views are reachable without a mouse: one button per view in the inspector.
    buttons = browser.evaluate("Array.from(document.querySelectorAll('#views button')).map(function (b) { return b.dataset.view; }).join(',')")
    expect(buttons == "superview,card,icon,title", f"view buttons {buttons}")
    browser.evaluate("document.querySelector('#views button[data-view=title]').focus(); true")
    browser.command("Input.dispatchKeyEvent", type="keyDown", key="Enter", code="Enter", windowsVirtualKeyCode=13, text="\r")
    browser.command("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13)
    browser.wait_for("document.getElementById('inspector').dataset.view === 'title'"
                     " && document.getElementById('inspector').dataset.state === 'ok'", "the keyboard's pick")


def check_diagnostic_hover(browser, artifacts):
    """Hovering a conflict's diagnostic outlines the views its constraints name."""
    pick_example(browser, "conflict")
    point = json.loads(browser.evaluate("""JSON.stringify((function () {
        var d = Array.from(document.querySelectorAll('#diagnostics .diagnostic')).find(function (e) { return e.dataset.code === 'unsatisfiable_constraints'; });
        var r = d.getBoundingClientRect(); return {x: r.left + 10, y: r.top + 6, views: d.dataset.views}; })())"""))
    browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=point["x"], y=point["y"])
    lit = browser.evaluate("Array.from(document.querySelectorAll('#wireframe g.view.highlight')).map(function (g) { return g.getAttribute('data-view'); }).sort().join(',')")
    expect("left" in lit.split(",") and lit.split(",") == sorted(point["views"].split()), f"highlighted {lit!r}, diagnostic names {point['views']!r}")
    browser.screenshot(os.path.join(artifacts, "playground-hover.png"))
    browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=5, y=5)
    expect(browser.evaluate("document.querySelectorAll('#wireframe g.view.highlight').length") == 0, "highlight cleared")
    # The conflict is written in the picture, not only in a tooltip.
    problem = browser.evaluate("(document.querySelector('#wireframe g.problems text.problem') || {}).textContent || ''")
    expect(problem.startswith("• Conflict (views "), f"visible problem text {problem!r}")


def check_permalink(browser, server):
    """The link reproduces the scene: opening it loads the same scene and wireframe."""
    pick_example(browser, "card")
    scene = browser.evaluate("document.getElementById('scene').value")
    link = browser.evaluate("document.getElementById('permalink').getAttribute('href')")
    expect(link.startswith("#scene="), f"link {link[:40]!r}")
    browser.navigate(f"http://127.0.0.1:{server.port}/" + link)
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok'", "the linked scene")
    expect(json.loads(browser.evaluate("document.getElementById('scene').value")) == json.loads(scene), "scene differs")
    frames = solve_json(server, json.loads(scene))["frames"]
    rects = dom_rects(browser)
    expect({v: float(r["dw"]) for v, r in rects.items()} == {v: f["width"] for v, f in frames.items()}, "frames differ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPO, ".build/debug/layoutd"))
    parser.add_argument("--chromium", default=None, help="browser executable (default: chromium on PATH)")
    parser.add_argument("--artifacts", default=os.path.join(REPO, "artifacts"))
    arguments = parser.parse_args()

    report = Report()
    workdir = tempfile.mkdtemp(prefix="layoutd-browser-")
    server = browser = None
    try:
        if not os.access(arguments.binary, os.X_OK):
            report.run("setup/binary", expect, False, f"no executable at {arguments.binary} (swift build first)")
            return finish(report, workdir)
        server = Server(arguments.binary, workdir)

        report.run("svg/accept-header", check_svg_endpoint, server, CONTRACT, "accept")
        report.run("svg/format-query", check_svg_endpoint, server, NESTED, "query")
        report.run("svg/sizes-panels", check_svg_sizes, server)
        report.run("svg/syntax-error-422", check_svg_syntax_error, server)
        report.run("svg/json-stays-default", check_json_by_default, server)
        report.run("page/self-contained", check_page, server)

        executable = arguments.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
        if not executable:
            report.run("browser/chromium", expect, False, "chromium is not installed (run scripts/install-browser.sh)")
            return finish(report, workdir)
        browser = Browser(executable, workdir)
        browser.navigate(f"http://127.0.0.1:{server.port}/")
        loaded = report.run("browser/initial-example", lambda: browser.wait_for(
            "document.getElementById('wireframe').dataset.state === 'ok'"
            " && document.querySelectorAll('#wireframe g.view').length === 4", "the first wireframe"))
        if loaded:
            report.run("browser/typed-nested-scene", check_browser_scene, browser, server, NESTED, "nested")
            report.run("browser/typing-is-debounced", check_browser_typing_is_debounced, browser, server)
            report.run("browser/typed-contract-scene", check_browser_scene, browser, server, CONTRACT, "contract")
            report.run("browser/screenshot", lambda: (
                browser.screenshot(os.path.join(arguments.artifacts, "playground.png")),
                expect(os.path.getsize(os.path.join(arguments.artifacts, "playground.png")) > 10_000, "screenshot too small")))
            report.run("browser/syntax-error-caret", check_browser_syntax_error, browser, server, arguments.artifacts)
            report.run("browser/conflict-example-warning", check_browser_conflict_example, browser, arguments.artifacts)
            report.run("browser/scene-from-query", check_query_scene, browser, server)
            report.run("browser/examples-click-inspect", check_examples_inspect, browser, server, arguments.artifacts)
            report.run("browser/explanations-rendered", check_explanations_rendered, browser, arguments.artifacts)
            report.run("browser/slider-resolves", check_slider_resolves, browser, server, arguments.artifacts)
            report.run("browser/zoom-and-keyboard", check_zoom_and_keyboard, browser)
            report.run("browser/diagnostic-hover", check_diagnostic_hover, browser, arguments.artifacts)
            report.run("browser/permalink", check_permalink, browser, server)
            report.run("browser/no-csp-violation", check_browser_csp, browser)
    except Exception as error:
        report.failed += 1
        print(f"FAIL setup: {type(error).__name__}: {error}", flush=True)
    finally:
        if browser:
            browser.close()
        if server:
            server.stop()
    return finish(report, workdir)


def finish(report, workdir):
    print(f"{report.passed} passed, {report.failed} failed")
    if report.failed:
        print(f"logs kept in {workdir}")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
