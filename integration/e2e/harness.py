"""The end-to-end harness: a check registry, a server process, and HTTP clients whose every
response is validated against openapi.yaml.

A check is a function `fn(ctx)` registered with `@check('area/name')`; it fails by raising
`CheckFailed` (through `ctx.expect`, `ctx.expect_equal`) or any exception. Every response a
check receives through `ctx.request`, `ctx.raw` or `ctx.curl` is also validated against
openapi.yaml, and a mismatch fails the check. Checks run in registration order; each gets
the shared server unless it was registered with `needs='binary'` (it starts its own) or
`needs='nothing'`.
"""
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import traceback

REGISTRY = []   # [(name, fn, needs)]
# Environment every `Server.start` adds under the check's own `env` (run.py's
# `--io-threads N` puts LAYOUTD_IO_THREADS here, so every server a check starts runs
# that many event loops).
SERVER_ENV = {}
NEEDS = ('server', 'binary', 'nothing')


def check(name, needs='server'):
    """Register `fn(ctx)` as the check `name` (`area/what`). `needs`: 'server' (the shared
    server is started for it), 'binary' (it runs the binary itself), or 'nothing'."""
    if needs not in NEEDS:
        raise ValueError('needs must be one of %r' % (NEEDS,))

    def register(fn):
        if any(n == name for n, _, _ in REGISTRY):
            raise ValueError('duplicate check name %r' % name)
        REGISTRY.append((name, fn, needs))
        return fn
    return register


class CheckFailed(Exception):
    pass


class Response:
    """One HTTP response: status, headers (lower-case name → value, repeated ones joined
    with ', '), the ordered raw header list, body bytes, and the HTTP version string."""

    def __init__(self, status, header_list, body, version='HTTP/1.1'):
        self.status = status
        self.header_list = header_list
        self.headers = {}
        for k, v in header_list:
            k = k.lower()
            self.headers[k] = v if k not in self.headers else self.headers[k] + ', ' + v
        self.body = body
        self.version = version

    def json(self):
        return json.loads(self.body.decode('utf-8'))

    def json_ordered(self):
        """The body's JSON with objects as lists of (key, value) pairs, in wire order."""
        return json.loads(self.body.decode('utf-8'), object_pairs_hook=list)

    def __repr__(self):
        return '<%d %s %r>' % (self.status, self.headers.get('content-type'), self.body[:200])


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Server:
    """`layoutd serve` on a free loopback port with its own database file.

    `start()` waits (up to `startup_seconds`) until GET /healthz answers 200, and raises
    CheckFailed with the tail of the server's log when it does not."""

    def __init__(self, binary, db_path, extra_args=(), log_path=None, startup_seconds=30,
                 wrapper=()):
        self.binary = binary
        self.wrapper = list(wrapper)   # a command that execs the binary, e.g. prlimit --as=N --
        self.db_path = db_path
        self.extra_args = list(extra_args)
        self.log_path = log_path or (db_path + '.log')
        self.startup_seconds = startup_seconds
        self.proc = None
        self.port = None

    def start(self, args=None, env=None, port=None):
        """Start `serve --host 127.0.0.1 --port P --db PATH EXTRA...`; or, with `args`,
        exactly those arguments plus `env` (then `port` says where it will listen)."""
        env_arg = env
        if not os.path.isfile(self.binary) or not os.access(self.binary, os.X_OK):
            raise CheckFailed('no executable binary at %s' % self.binary)
        self.port = port or free_port()
        base_env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
        env = dict(base_env, **SERVER_ENV)
        env.update(env_arg or {})
        if args is None:
            args = ['serve', '--host', '127.0.0.1', '--port', str(self.port),
                    '--db', self.db_path] + self.extra_args
        args = self.wrapper + [self.binary] + list(args)
        self.log = open(self.log_path, 'ab')
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, env=env,
                                     cwd=os.path.dirname(self.db_path) or None)
        deadline = time.monotonic() + self.startup_seconds
        last = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise CheckFailed('server exited with status %s before answering: %s'
                                  % (self.proc.returncode, self.log_tail()))
            try:
                conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=2)
                conn.request('GET', '/healthz')
                r = conn.getresponse()
                r.read()
                conn.close()
                if r.status == 200:
                    return self
                last = 'GET /healthz answered %d' % r.status
            except OSError as e:
                last = str(e)
            time.sleep(0.1)
        self.stop()
        raise CheckFailed('server not healthy within %ds (%s): %s'
                          % (self.startup_seconds, last, self.log_tail()))

    def stop(self, timeout=15):
        """SIGTERM, then wait; SIGKILL after `timeout` seconds. Returns the exit status."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        code = self.proc.returncode
        self.proc = None
        self.log.close()
        return code

    def log_tail(self, n=1200):
        try:
            with open(self.log_path, 'rb') as fh:
                data = fh.read()
            return data[-n:].decode('utf-8', 'replace').strip() or '(empty log)'
        except OSError:
            return '(no log)'


class Context:
    """What a check gets: the server's address, the spec, the corpus and helpers."""

    def __init__(self, args, spec, repo, shared, workdir):
        self.args = args
        self.binary = args.binary
        self.spec = spec
        self.repo = repo
        self.shared = shared
        self.corpus = os.path.join(shared, 'corpus')
        self.workdir = workdir
        self.server = None
        self.timeout = args.timeout
        # What a check started for the checks after it (a browser): closed by run_checks.
        self.closers = []

    # ------------------------------------------------------------ assertions
    def expect(self, condition, message):
        if not condition:
            raise CheckFailed(message)

    def expect_equal(self, actual, expected, what):
        if actual != expected:
            raise CheckFailed('%s: got %r, expected %r' % (what, actual, expected))

    def expect_status(self, resp, status, what=''):
        if resp.status != status:
            raise CheckFailed('%sstatus %d, expected %d: %s'
                              % (what + ': ' if what else '', resp.status, status,
                                 resp.body[:300].decode('utf-8', 'replace')))

    def expect_diagnostic(self, doc, code, **fields):
        """The diagnostic of `code` (with every field given) in doc['diagnostics']."""
        diags = doc.get('diagnostics') if isinstance(doc, dict) else None
        self.expect(isinstance(diags, list), 'no diagnostics list in %r' % (doc,))
        for d in diags:
            if d.get('code') == code and all(d.get(k) == v for k, v in fields.items()):
                return d
        raise CheckFailed('no %s diagnostic with %r among %r' % (code, fields, diags))

    def validate(self, method, target, resp):
        problems = self.spec.check_response(method, target, resp.status, resp.headers, resp.body)
        if problems:
            raise CheckFailed('%s %s → %d does not match openapi.yaml: %s'
                              % (method, target, resp.status, '; '.join(problems)))

    # ------------------------------------------------------------ servers
    def new_server(self, name, extra_args=(), db_path=None, wrapper=()):
        """A server of this check's own (stop it in a finally); `wrapper` is a command
        that execs the binary (hostile.py runs it under `prlimit --as`)."""
        db = db_path or os.path.join(self.workdir, name + '.db')
        return Server(self.binary, db, extra_args,
                      startup_seconds=self.args.startup_timeout, wrapper=wrapper).start()

    @property
    def port(self):
        return self.server.port

    # ------------------------------------------------------------ clients
    def connect(self, server=None):
        return http.client.HTTPConnection('127.0.0.1', (server or self.server).port,
                                          timeout=self.timeout)

    def request(self, method, target, body=None, headers=None, server=None, conn=None,
                validate=True):
        """One request with http.client (a new connection unless `conn` is given).

        `body`: bytes, str, or any other value (sent as JSON with
        `Content-Type: application/json` unless `headers` names one)."""
        headers = dict(headers or {})
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body).encode('utf-8')
            if not any(k.lower() == 'content-type' for k in headers):
                headers['Content-Type'] = 'application/json'
        if isinstance(body, str):
            body = body.encode('utf-8')
        own = conn is None
        if own:
            conn = self.connect(server)
        try:
            conn.request(method, target, body=body, headers=headers)
            r = conn.getresponse()
            data = r.read()
            resp = Response(r.status, r.getheaders(), data,
                            'HTTP/1.0' if r.version == 10 else 'HTTP/1.1')
        finally:
            if own:
                conn.close()
        if validate:
            self.validate(method, target, resp)
        return resp

    def solve(self, scene, headers=None, **kw):
        return self.request('POST', '/solve', scene, headers, **kw)

    def raw(self, data, server=None, read_responses=1, shut_write=False):
        """Send raw bytes on a new connection; read `read_responses` responses.

        Returns (responses, closed): `closed` is whether the server closed the connection
        after the last response (a read then gets EOF within the client timeout)."""
        s = socket.create_connection(('127.0.0.1', (server or self.server).port),
                                     timeout=self.timeout)
        try:
            try:
                s.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                pass
            if shut_write:
                s.shutdown(socket.SHUT_WR)
            reader = _SocketReader(s)
            responses = [reader.read_response() for _ in range(read_responses)]
            closed = reader.at_eof()
        finally:
            s.close()
        return responses, closed

    def curl(self, args, stdin=None, method='POST', target='/solve', validate=True):
        """Run curl with `args` (URL included by the caller), return the Response."""
        if shutil.which('curl') is None:
            raise CheckFailed('curl is not installed (scripts/install-deps.sh installs it)')
        hdr = os.path.join(self.workdir, 'curl-headers')
        out = os.path.join(self.workdir, 'curl-body')
        for p in (hdr, out):
            if os.path.exists(p):
                os.remove(p)
        cmd = ['curl', '-sS', '--max-time', str(int(self.timeout)), '-D', hdr, '-o', out] + args
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=self.timeout + 5)
        if p.returncode != 0:
            raise CheckFailed('curl exited %d: %s' % (p.returncode,
                                                      p.stderr.decode('utf-8', 'replace')))
        with open(hdr, 'rb') as fh:
            head = fh.read().decode('latin-1')
        with open(out, 'rb') as fh:
            body = fh.read()
        # the last response head (after any 100 Continue)
        blocks = [b for b in head.split('\r\n\r\n') if b.strip()]
        lines = blocks[-1].split('\r\n')
        version, status = lines[0].split(' ', 2)[:2]
        header_list = [tuple(x.strip() for x in l.split(':', 1)) for l in lines[1:] if ':' in l]
        resp = Response(int(status), header_list, body, version)
        if validate:
            self.validate(method, target, resp)
        return resp


class _SocketReader:
    """A minimal HTTP/1.1 response reader for raw-socket checks (Content-Length and
    chunked bodies; bodyless statuses)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b''
        self.eof = False

    def _fill(self):
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            data = b''
        if not data:
            self.eof = True
        self.buf += data
        return bool(data)

    def _line(self):
        while b'\r\n' not in self.buf:
            if not self._fill():
                raise CheckFailed('connection closed mid-response (got %r)' % self.buf[:200])
        line, self.buf = self.buf.split(b'\r\n', 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n:
            if not self._fill():
                raise CheckFailed('connection closed mid-body')
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def read_response(self):
        while True:
            status_line = self._line().decode('latin-1')
            parts = status_line.split(' ', 2)
            if len(parts) < 2 or not parts[1].isdigit():
                raise CheckFailed('bad status line %r' % status_line)
            status = int(parts[1])
            headers = []
            while True:
                line = self._line()
                if not line:
                    break
                k, _, v = line.decode('latin-1').partition(':')
                headers.append((k.strip(), v.strip()))
            if status != 100:
                break
        resp = Response(status, headers, b'', parts[0])
        if status in (204, 304):
            return resp
        te = resp.headers.get('transfer-encoding', '').lower()
        if 'chunked' in te:
            body = b''
            while True:
                size = int(self._line().split(b';')[0], 16)
                if size == 0:
                    while self._line():
                        pass
                    break
                body += self._exact(size)
                self._line()
            resp.body = body
        elif 'content-length' in resp.headers:
            resp.body = self._exact(int(resp.headers['content-length']))
        else:
            while self._fill():
                pass
            resp.body, self.buf = self.buf, b''
        return resp

    def at_eof(self):
        if self.buf:
            return False
        if self.eof:
            return True
        try:
            return not self._fill()
        except socket.timeout:
            return False


def make_workdir(prefix='layoutd-e2e-'):
    return tempfile.mkdtemp(prefix=prefix)


def run_checks(checks, ctx, start_server):
    """Runs `checks` ((name, fn, needs) in order) with `ctx` and prints one `PASS name` or
    `FAIL name: why` line each. Before the first check that needs a server, `start_server()`
    starts the shared one (a `Server`, started); when it cannot start, every such check
    fails with the reason. The shared server is stopped at the end, and so is everything
    the checks left in `ctx.closers` (called last first). Returns (passed, failed)."""
    shared_server = None
    server_error = None
    passed = failed = 0
    try:
        for name, fn, needs in checks:
            try:
                if needs == 'server':
                    if shared_server is None and server_error is None:
                        try:
                            shared_server = start_server()
                        except CheckFailed as e:
                            server_error = str(e)
                    if server_error is not None:
                        raise CheckFailed('server unavailable: ' + server_error)
                    if shared_server.proc is None or shared_server.proc.poll() is not None:
                        raise CheckFailed('the shared server has exited: ' + shared_server.log_tail())
                    ctx.server = shared_server
                fn(ctx)
            except CheckFailed as e:
                failed += 1
                print('FAIL %s: %s' % (name, e), flush=True)
                continue
            except Exception as e:  # a bug in a check or an unexpected client error
                failed += 1
                tb = traceback.extract_tb(e.__traceback__)[-1]
                print('FAIL %s: %s: %s (at %s:%d)' % (name, type(e).__name__, e,
                                                     os.path.basename(tb.filename), tb.lineno),
                      flush=True)
                continue
            passed += 1
            print('PASS %s' % name, flush=True)
    finally:
        while ctx.closers:
            ctx.closers.pop()()
        if shared_server is not None:
            shared_server.stop()
    return passed, failed
