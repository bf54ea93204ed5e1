"""Hostile checks, exposure (`hostile/exposure-*`): safe when exposed: group writes on a non-loopback address without a token,
the Host check against DNS rebinding, the security fields (nosniff, CSP with
frame-ancestors, Vary: Origin) and `layoutd probe`, against the real binary."""
import base64
import hashlib
import json
import os
import re
import socket
import subprocess
import threading
import time

import hostile
import scenes
from harness import CheckFailed, Server, check, free_port

GROUP = {'constraints': ['a.width == 10']}
TINY_SCENE = {'views': ['a'], 'constraints': ['H:|[a]|', 'V:|[a]|'],
              'container': {'width': 10, 'height': 10}}


def _exposed_server(ctx, name, extra=(), env=None):
    """A server bound to 0.0.0.0 (reached through 127.0.0.1) under hostile.py's prlimit."""
    db = os.path.join(ctx.workdir, 'hostile-' + name + '.db')
    port = free_port()
    server = Server(ctx.binary, db, startup_seconds=ctx.args.startup_timeout,
                    wrapper=['prlimit', '--as=%d' % hostile.AS_LIMIT, '--'])
    return server.start(args=['serve', '--host', '0.0.0.0', '--port', str(port), '--db', db,
                              '--workers', '2'] + list(extra), env=env, port=port)


def _log(server):
    with open(server.log_path, 'rb') as fh:
        return fh.read().decode('utf-8', 'replace')


@check('hostile/exposure-anonymous-writes', needs='binary')
def anonymous_writes(ctx):
    """On 0.0.0.0 without a token, PUT and DELETE /groups answer 403 with a problem that
    says how to set a token (reads and solving still work), and the start-up log says so;
    --allow-anonymous-writes (or LAYOUTD_ALLOW_ANONYMOUS_WRITES=1) opens them (201); with a
    token a write without Authorization is 401; on loopback writes stay open."""
    s = _exposed_server(ctx, 'exposed')
    try:
        r = ctx.request('PUT', '/groups/g', GROUP, server=s)
        ctx.expect_status(r, 403, 'PUT on 0.0.0.0 without a token')
        problem = r.json()
        ctx.expect_equal(r.headers.get('content-type'), 'application/problem+json', '403 Content-Type')
        ctx.expect_equal((problem['type'], problem['status']), ('urn:layoutd:problem:forbidden', 403), '403 problem')
        for needle in ('--api-token', 'LAYOUTD_API_TOKEN', 'Authorization: Bearer', '--allow-anonymous-writes'):
            ctx.expect(needle in problem['detail'], '403 detail lacks %r: %r' % (needle, problem['detail']))
        ctx.expect_status(ctx.request('DELETE', '/groups/g', server=s), 403, 'DELETE on 0.0.0.0 without a token')
        ctx.expect_status(ctx.request('GET', '/groups/g', server=s), 404, 'nothing was stored')
        ctx.expect_status(ctx.request('GET', '/groups', server=s), 200, 'reads stay open')
        ctx.expect_status(ctx.solve(scenes.readme_scene(), server=s), 200, 'solving stays open')
        ctx.expect('group writes are refused (403)' in _log(s), 'start-up log: %s' % s.log_tail())
        hostile.expect_bounded(ctx, s)
    finally:
        s.stop()

    s = _exposed_server(ctx, 'exposed-open', ['--allow-anonymous-writes'])
    try:
        ctx.expect_status(ctx.request('PUT', '/groups/g', GROUP, server=s), 201, 'PUT with --allow-anonymous-writes')
        ctx.expect('group writes are open to anyone who can reach 0.0.0.0' in _log(s), 'log: %s' % s.log_tail())
    finally:
        s.stop()
    s = _exposed_server(ctx, 'exposed-open-env', env={'LAYOUTD_ALLOW_ANONYMOUS_WRITES': '1'})
    try:
        ctx.expect_status(ctx.request('PUT', '/groups/g', GROUP, server=s), 201, 'PUT with LAYOUTD_ALLOW_ANONYMOUS_WRITES=1')
    finally:
        s.stop()

    s = _exposed_server(ctx, 'exposed-token', ['--api-token', 's3cret'])
    try:
        r = ctx.request('PUT', '/groups/g', GROUP, server=s)
        ctx.expect_status(r, 401, 'PUT on 0.0.0.0 with a token configured, without Authorization')
        ctx.expect(r.headers.get('www-authenticate', '').startswith('Bearer'), 'WWW-Authenticate')
        ctx.expect_status(ctx.request('PUT', '/groups/g', GROUP, {'Authorization': 'Bearer s3cret'}, server=s),
                          201, 'PUT with the token')
        ctx.expect('group writes need' in _log(s), 'log: %s' % s.log_tail())
    finally:
        s.stop()

    s = hostile.start(ctx, 'loopback-writes')
    try:
        ctx.expect_status(ctx.request('PUT', '/groups/g', GROUP, server=s), 201, 'PUT on loopback without a token')
        ctx.expect('group writes are open to anyone on this machine' in _log(s), 'log: %s' % s.log_tail())
    finally:
        s.stop()


def _get(ctx, server, host, target='/healthz', method='GET', body=None):
    return ctx.request(method, target, body, {'Host': host}, server=server)


@check('hostile/exposure-dns-rebinding', needs='binary')
def dns_rebinding(ctx):
    """On a loopback bind a foreign Host (what a browser sends after DNS rebinding) is 421
    on every route, before anything is done; loopback names with any port are answered;
    --allowed-hosts widens the set (and * allows any); a 0.0.0.0 bind does not check."""
    s = hostile.start(ctx, 'rebinding')
    try:
        for target, method, body in (('/healthz', 'GET', None), ('/solve', 'POST', TINY_SCENE),
                                     ('/groups/rebound', 'PUT', GROUP), ('/', 'GET', None)):
            r = _get(ctx, s, 'evil.example', target, method, body)
            ctx.expect_status(r, 421, '%s %s with Host: evil.example' % (method, target))
            problem = r.json()
            ctx.expect_equal(problem['type'], 'urn:layoutd:problem:misdirected-request', '421 type')
            ctx.expect("'evil.example'" in problem['detail'] and '--allowed-hosts' in problem['detail'],
                       '421 detail: %r' % problem['detail'])
        ctx.expect_status(_get(ctx, s, 'localhost', '/groups/rebound'), 404, 'the rebound PUT stored nothing')
        for host in ('evil.example:%d' % s.port, 'localhost.evil.example', '127.0.0.1.nip.io', '0.0.0.0:%d' % s.port,
                     '[::2]:%d' % s.port):
            ctx.expect_status(_get(ctx, s, host), 421, 'Host: %s' % host)
        for host in ('localhost:%d' % s.port, 'localhost', 'LOCALHOST:1', '127.0.0.1', '127.0.0.1:%d' % s.port,
                     '127.1.2.3:80', '[::1]:%d' % s.port, 'app.localhost:%d' % s.port):
            ctx.expect_status(_get(ctx, s, host), 200, 'Host: %s' % host)
        # An absolute-form target's authority is the one that counts (RFC 9112 §3.2.2).
        (resp,), _ = ctx.raw(b'GET http://evil.example/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n', server=s)
        ctx.expect_equal(resp.status, 421, 'absolute-form http://evil.example/')
        # No Host: 400 on HTTP/1.1 (RFC 9112 §3.2, the server's own answer); HTTP/1.0 is answered.
        (resp,), closed = ctx.raw(b'GET /healthz HTTP/1.1\r\n\r\n', server=s)
        ctx.expect_equal((resp.status, closed), (400, True), 'HTTP/1.1 without Host')
        (resp,), _ = ctx.raw(b'GET /healthz HTTP/1.0\r\n\r\n', server=s)
        ctx.expect_equal(resp.status, 200, 'HTTP/1.0 without Host')
        # curl and http.client, as the suites use them, still get through.
        ctx.expect_status(ctx.curl(['localhost:%d/healthz' % s.port], method='GET', target='/healthz'), 200,
                          'curl localhost:PORT')
        ctx.expect_status(ctx.request('GET', '/healthz', server=s), 200, 'http.client 127.0.0.1:PORT')
        ctx.expect('only Host localhost, *.localhost, 127.x.y.z (127.0.0.0/8 in dotted-decimal form), [::1], [::ffff:127.x.y.z], any port is answered'
                   in _log(s), 'log: %s' % s.log_tail())
        hostile.expect_bounded(ctx, s)
    finally:
        s.stop()

    s = hostile.start(ctx, 'rebinding-allowed', ['--allowed-hosts', 'layout.example, api.example:8443'])
    try:
        for host, status in (('layout.example', 200), ('Layout.Example:1234', 200), ('api.example:8443', 200),
                             ('api.example:8444', 421), ('api.example', 421), ('evil.example', 421),
                             ('localhost:%d' % s.port, 200)):
            ctx.expect_status(_get(ctx, s, host), status, '--allowed-hosts, Host: %s' % host)
    finally:
        s.stop()
    for bad in ('b c', 'x:y', '[::1'):
        p = subprocess.run([ctx.binary, 'serve', '--port', '0', '--db', ':memory:', '--allowed-hosts', 'a.example,' + bad],
                           capture_output=True, timeout=30)
        ctx.expect_equal(p.returncode, 2, '--allowed-hosts with %r' % bad)
        ctx.expect(("'%s' is not a host name" % bad).encode() in p.stderr, 'stderr %r' % p.stderr)
    s = hostile.start(ctx, 'rebinding-any', ['--allowed-hosts', '*'])
    try:
        ctx.expect_status(_get(ctx, s, 'evil.example'), 200, '--allowed-hosts *')
    finally:
        s.stop()
    s = _exposed_server(ctx, 'rebinding-exposed')
    try:
        ctx.expect_status(_get(ctx, s, 'layoutd.internal:8080'), 200, '0.0.0.0 without --allowed-hosts')
        ctx.expect('any Host is answered' in _log(s), 'log: %s' % s.log_tail())
    finally:
        s.stop()
    s = _exposed_server(ctx, 'rebinding-exposed-allowed', ['--allowed-hosts', 'layoutd.internal'])
    try:
        ctx.expect_status(_get(ctx, s, 'layoutd.internal:8080'), 200, '0.0.0.0 with --allowed-hosts, listed')
        ctx.expect_status(_get(ctx, s, 'evil.example'), 421, '0.0.0.0 with --allowed-hosts, not listed')
    finally:
        s.stop()


def _raw_answer(family, address, request, timeout=10):
    """Sends `request` on a new socket of `family` to `address` and reads until the server
    closes; returns (status, lower-cased fields, body, every byte received)."""
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(timeout)
    data = b''
    try:
        s.connect(address)
        s.sendall(request)
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    finally:
        s.close()
    head, _, body = data.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    if not lines[0].startswith('HTTP/1.1 '):
        raise CheckFailed('no answer from %r: %r' % (address, data[:300]))
    fields = {k.strip().lower(): v.strip() for k, v in (l.split(':', 1) for l in lines[1:] if ':' in l)}
    return int(lines[0].split()[1]), fields, body, data


def _get_groups(family, address, host):
    return _raw_answer(family, address, b'GET /groups HTTP/1.1\r\nHost: ' + host.encode() + b'\r\nConnection: close\r\n\r\n')


@check('hostile/exposure-loopback-spellings', needs='binary')
def loopback_spellings(ctx):
    """`--host 127.1`, `2130706433`, `0x7f.1` and `localhost` bind 127.0.0.1 (getaddrinfo's
    inet_aton forms), so the Host check is on as for 127.0.0.1: `GET /groups` with
    `Host: evil.example` is 421 and with `Host: localhost` 200; the start-up line names
    every loopback host answered and the address bound."""
    for spelling in ('127.1', '2130706433', '0x7f.1', 'localhost'):
        db = os.path.join(ctx.workdir, 'hostile-spelling-%s.db' % spelling.replace('.', '-'))
        port = free_port()
        server = Server(ctx.binary, db, startup_seconds=ctx.args.startup_timeout,
                        wrapper=['prlimit', '--as=%d' % hostile.AS_LIMIT, '--'])
        s = server.start(args=['serve', '--host', spelling, '--port', str(port), '--db', db, '--workers', '2'], port=port)
        try:
            status, fields, body, _ = _get_groups(socket.AF_INET, ('127.0.0.1', port), 'evil.example')
            ctx.expect_equal(status, 421, '--host %s, GET /groups with Host: evil.example' % spelling)
            ctx.expect_equal(fields.get('content-type'), 'application/problem+json', '421 Content-Type')
            problem = json.loads(body)
            ctx.expect_equal((problem['type'], problem['status']), ('urn:layoutd:problem:misdirected-request', 421), '421 problem')
            status, _, body, _ = _get_groups(socket.AF_INET, ('127.0.0.1', port), 'localhost:%d' % port)
            ctx.expect_equal(status, 200, '--host %s, GET /groups with Host: localhost' % spelling)
            log = _log(s)
            ctx.expect('only Host localhost, *.localhost, 127.x.y.z (127.0.0.0/8 in dotted-decimal form), [::1], [::ffff:127.x.y.z], any port '
                       'is answered, others get 421' in log, 'log: %s' % s.log_tail())
            ctx.expect('group writes are open to anyone on this machine' in log, 'log: %s' % s.log_tail())
            if spelling != 'localhost':
                ctx.expect('listening on http://%s = 127.0.0.1:%d' % (spelling, port) in log, 'log: %s' % s.log_tail())
        finally:
            s.stop()


@check('hostile/exposure-ipv6-loopback', needs='binary')
def ipv6_loopback(ctx):
    """`--host [::1]` (brackets, as in a URL) binds the IPv6 loopback address and answers
    there, with the Host check on: `Host: [::1]:PORT` is 200, `Host: evil.example` 421."""
    db = os.path.join(ctx.workdir, 'hostile-ipv6.db')
    port = free_port()
    log_path = db + '.log'
    with open(log_path, 'ab') as log:
        proc = subprocess.Popen(['prlimit', '--as=%d' % hostile.AS_LIMIT, '--', ctx.binary, 'serve', '--host', '[::1]',
                                 '--port', str(port), '--db', db, '--workers', '2'],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                env={k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')})
    try:
        deadline = time.monotonic() + ctx.args.startup_timeout
        status = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status, _, _, _ = _get_groups(socket.AF_INET6, ('::1', port), '[::1]:%d' % port)
                break
            except (OSError, CheckFailed):
                time.sleep(0.1)
        with open(log_path, 'rb') as fh:
            text = fh.read().decode('utf-8', 'replace')
        ctx.expect_equal(status, 200, '--host [::1], GET /groups on ::1 with Host: [::1]:PORT (log: %s)' % text[-600:])
        ctx.expect('listening on http://[::1]:%d' % port in text, 'log: %s' % text[-600:])
        status, _, body, _ = _get_groups(socket.AF_INET6, ('::1', port), 'evil.example')
        ctx.expect_equal(status, 421, '--host [::1], GET /groups with Host: evil.example')
        ctx.expect_equal(json.loads(body)['type'], 'urn:layoutd:problem:misdirected-request', '421 type')
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _csp_hash(text):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(text.encode('utf-8')).digest()).decode('ascii')


@check('hostile/exposure-headers', needs='binary')
def security_headers(ctx):
    """X-Content-Type-Options: nosniff on 200, 404, 400, 413, 421 and on the HTTP layer's
    own framing errors; a Content-Security-Policy with frame-ancestors 'none' on / (whose
    hashes are those of the page's inline script and style) and on SVG answers; Vary:
    Origin on every answer while CORS is on, and not without it."""
    s = hostile.start(ctx, 'headers', ['--max-body-bytes', '4096'])
    try:
        answers = {
            '200 /healthz': ctx.request('GET', '/healthz', server=s),
            '404': ctx.request('GET', '/nowhere', server=s),
            '400 invalid_json': ctx.request('POST', '/solve', b'{', {'Content-Type': 'application/json'}, server=s),
            '413': ctx.request('POST', '/solve', b'x' * 5000, {'Content-Type': 'application/json'}, server=s),
            '421': _get(ctx, s, 'evil.example'),
        }
        statuses = {k: r.status for k, r in answers.items()}
        ctx.expect_equal(statuses, {'200 /healthz': 200, '404': 404, '400 invalid_json': 400, '413': 413, '421': 421},
                         'statuses')
        (framing,), _ = ctx.raw(b'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', server=s)
        ctx.expect_equal(framing.status, 400, 'duplicate Host (the HTTP layer answers)')
        ctx.expect('x-request-id' not in framing.headers, 'the framing error comes from the HTTP layer')
        answers['400 framing'] = framing
        for what, r in answers.items():
            ctx.expect_equal(r.headers.get('x-content-type-options'), 'nosniff', 'nosniff on ' + what)

        page = ctx.request('GET', '/', server=s)
        ctx.expect_status(page, 200, 'GET /')
        csp = page.headers.get('content-security-policy', '')
        html = page.body.decode('utf-8')
        script = re.search(r'<script>(.*?)</script>', html, re.S).group(1)
        style = re.search(r'<style>(.*?)</style>', html, re.S).group(1)
        directives = dict((d.strip().split(' ', 1) + [''])[:2] for d in csp.split(';'))
        ctx.expect_equal(directives.get('frame-ancestors'), "'none'", 'frame-ancestors on / (%r)' % csp)
        ctx.expect_equal(directives.get('default-src'), "'none'", 'default-src on /')
        ctx.expect_equal(directives.get('script-src'), _csp_hash(script), 'script-src: the inline script\'s hash')
        ctx.expect(directives.get('style-src', '').startswith(_csp_hash(style) + ' '), 'style-src %r' % directives.get('style-src'))
        ctx.expect('unsafe' not in csp, 'no unsafe-* in %r' % csp)

        svg = ctx.request('POST', '/solve?format=svg', TINY_SCENE, server=s)
        ctx.expect_status(svg, 200, 'SVG answer')
        svg_style = re.search(r'<style>(.*?)</style>', svg.body.decode('utf-8'), re.S).group(1)
        ctx.expect_equal(svg.headers.get('content-security-policy'),
                         "default-src 'none'; style-src %s; frame-ancestors 'none'" % _csp_hash(svg_style), 'SVG CSP')
        ctx.expect(_csp_hash(svg_style) in directives.get('style-src', ''), 'the page allows the wireframe style it inserts')
        ctx.expect_equal(svg.headers.get('x-content-type-options'), 'nosniff', 'nosniff on SVG')
        json_answer = ctx.solve(TINY_SCENE, server=s)
        ctx.expect('content-security-policy' not in json_answer.headers, 'no CSP on a JSON answer')
        ctx.expect('vary' not in answers['200 /healthz'].headers, 'no Vary without CORS')
        hostile.expect_bounded(ctx, s)
    finally:
        s.stop()

    s = hostile.start(ctx, 'headers-cors', ['--cors-origin', 'https://app.example'])
    try:
        plain = ctx.request('GET', '/healthz', server=s)
        ctx.expect_equal(plain.headers.get('vary'), 'Origin', 'Vary without an Origin, CORS on')
        ctx.expect('access-control-allow-origin' not in plain.headers, 'no grant without an Origin')
        granted = ctx.solve(TINY_SCENE, {'Origin': 'https://app.example'}, server=s)
        ctx.expect_equal((granted.headers.get('vary'), granted.headers.get('access-control-allow-origin')),
                         ('Accept, Origin', 'https://app.example'), 'Vary and the grant, allowed Origin')
        stranger = ctx.request('GET', '/healthz', headers={'Origin': 'https://evil.example'}, server=s)
        ctx.expect_equal((stranger.headers.get('vary'), stranger.headers.get('access-control-allow-origin')),
                         ('Origin', None), 'Vary, another Origin')
    finally:
        s.stop()


def _run_probe(ctx, args, env=None):
    base_env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    return subprocess.run([ctx.binary, 'probe'] + args, capture_output=True, timeout=30,
                          env=dict(base_env, **(env or {})))


class _FakeServer:
    """A listening socket that answers every connection with `reply` (None: accepts and
    never answers)."""

    def __init__(self, reply):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.reply = reply
        self.held = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.reply is None:
                self.held.append(conn)
                continue
            try:
                conn.recv(4096)
                conn.sendall(self.reply)
            finally:
                conn.close()

    def close(self):
        self.sock.close()
        for conn in self.held:
            conn.close()


@check('hostile/exposure-probe', needs='binary')
def probe(ctx):
    """`layoutd probe` exits 0 against a live server (by --port, or LAYOUTD_HOST=0.0.0.0 and
    LAYOUTD_PORT as the image sets them), 1 against a dead port, a server answering 503 and
    one that never answers (within --timeout), 2 for bad usage."""
    s = hostile.start(ctx, 'probe')
    try:
        p = _run_probe(ctx, ['--port', str(s.port)])
        ctx.expect_equal(p.returncode, 0, 'probe of a live server (stderr %r)' % p.stderr)
        p = _run_probe(ctx, [], env={'LAYOUTD_HOST': '0.0.0.0', 'LAYOUTD_PORT': str(s.port)})
        ctx.expect_equal(p.returncode, 0, 'probe with the image\'s environment (stderr %r)' % p.stderr)
        p = _run_probe(ctx, ['--host', 'localhost', '--port', str(s.port)])
        ctx.expect_equal(p.returncode, 0, 'probe --host localhost (stderr %r)' % p.stderr)
    finally:
        s.stop()
    dead = free_port()
    p = _run_probe(ctx, ['--port', str(dead)])
    ctx.expect_equal(p.returncode, 1, 'probe of a dead port')
    ctx.expect(b'cannot connect' in p.stderr, 'stderr %r' % p.stderr)
    fake = _FakeServer(b'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n')
    try:
        p = _run_probe(ctx, ['--port', str(fake.port)])
        ctx.expect_equal((p.returncode, b'answered 503' in p.stderr), (1, True), 'probe of a 503 (%r)' % p.stderr)
    finally:
        fake.close()
    silent = _FakeServer(None)
    try:
        p = _run_probe(ctx, ['--port', str(silent.port), '--timeout', '0.5'])
        ctx.expect_equal((p.returncode, b'no answer' in p.stderr), (1, True), 'probe of a silent server (%r)' % p.stderr)
    finally:
        silent.close()
    p = _run_probe(ctx, ['--port', '70000'])
    ctx.expect_equal(p.returncode, 2, 'probe --port 70000')
    p = _run_probe(ctx, ['extra'])
    ctx.expect_equal(p.returncode, 2, 'probe with an argument')
