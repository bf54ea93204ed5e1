"""A minimal client of Chromium's DevTools protocol (CDP), standard library only.

`WebSocket` is the client side of RFC 6455 as CDP needs it: the opening handshake, masked
text frames out (§5.3), text, binary and continuation frames in, pings answered (§5.5.2).
`Browser` starts headless Chromium with a profile of its own, finds its page target
through `DevToolsActivePort` and `/json/list`, and sends commands (`command`), evaluates
expressions (`evaluate`), waits for a condition (`wait_for`), navigates and takes
screenshots. Events (messages without an id) are kept in `events`, in arrival order.
"""
import base64
import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import time
import urllib.parse


class Timeout(Exception):
    """A condition given to `Browser.wait_for` did not hold in time."""


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

    def __init__(self, executable, workdir, init_script=None):
        """Starts `executable` headless, 1280×860 at scale 1, with its profile and log in
        `workdir`; `init_script`, when given, runs before each document's own scripts
        (DevTools-injected scripts are not subject to the page's CSP)."""
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
        if init_script:
            self.command("Page.addScriptToEvaluateOnNewDocument", source=init_script)

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
        raise Timeout(f"timed out waiting for {what}")

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
