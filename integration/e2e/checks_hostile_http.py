"""Hostile checks, HTTP area (`hostile/http-*`): streams of requests that pin memory in the
server's connections rather than in one answer.

- http-unread-gets: 200 connections each pipeline 10 `GET /groups/big1m` (a group of about
  1 MB) and never read. Over `--max-pending-response-bytes` every request but the health
  checks is 503 with Retry-After, GETs included, so the server holds about the bound (not
  200 MB), and /healthz answers within 2 s during the attack.
- http-half-bodies: 150 connections each send `POST /solve` with `Content-Length: 1048576`
  and all but the last byte, then wait. Past `--max-pending-request-bytes` a connection's
  read is answered 503 with Retry-After and the connection closes, so the server holds
  about the bound (not 150 MB); /healthz answers during the attack, and a normal POST is
  solved afterwards.

Both run against a server of their own under `prlimit --as` with two workers (hostile.py)
and a small bound, so that the unbounded server would pass the memory bound several times.
"""
import json
import select
import socket
import time

import hostile
from harness import check

MIB = 1 << 20
# Resident memory a debug server may add beside the bounded bytes during these attacks
# (two workers' answers being encoded, 64 KiB buffers per connection, allocator slack).
SLACK = 48 * MIB


def raw_connection(port, receive_buffer=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    s.settimeout(30)
    s.connect(('127.0.0.1', port))
    return s


def read_head(s, timeout):
    """The status and lower-cased fields of the first response on `s`, and the body bytes
    read with them; (None, {}, b'') if nothing arrives within `timeout` seconds."""
    s.settimeout(timeout)
    data = b''
    try:
        while b'\r\n\r\n' not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    if b'\r\n\r\n' not in data:
        return None, {}, b''
    head, _, rest = data.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(':', 1) for l in lines[1:] if ':' in l)}
    return int(lines[0].split()[1]), headers, rest


def timed_healthz(ctx, server):
    start = time.monotonic()
    r = ctx.request('GET', '/healthz', server=server)
    return r, time.monotonic() - start


@check('hostile/http-unread-gets', needs='binary')
def unread_gets(ctx):
    bound = 32 * MIB
    server = hostile.start(ctx, 'http-unread-gets', ['--max-pending-response-bytes', str(bound), '--quiet'])
    sockets = []
    try:
        chain = 'H:|' + '[a]' * 21000 + '|'
        r = ctx.request('PUT', '/groups/big1m', {'constraints': [chain] * 16}, server=server)
        ctx.expect(r.status in (200, 201), 'PUT /groups/big1m: status %d %r' % (r.status, r.body[:200]))
        r = ctx.request('GET', '/groups/big1m', server=server)
        ctx.expect_status(r, 200, 'GET /groups/big1m')
        size = len(r.body)
        ctx.expect(size > 900_000, 'the group is %d bytes' % size)
        before = hostile.status_field(server, 'VmHWM')
        one = b'GET /groups/big1m HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
        for _ in range(200):
            s = raw_connection(server.port, receive_buffer=4096)
            s.sendall(one * 10)
            sockets.append(s)
        # 200 answers of a megabyte would be asked for; once the bound is passed a GET of
        # the group is refused.
        refused = None
        deadline = time.monotonic() + 60
        while refused is None and time.monotonic() < deadline:
            r = ctx.request('GET', '/groups/big1m', server=server)
            if r.status == 503:
                refused = r
            else:
                ctx.expect_status(r, 200, 'GET /groups/big1m before the bound is reached')
                time.sleep(0.2)
        ctx.expect(refused is not None, 'no GET was refused while 200 connections left answers unread')
        ctx.expect_equal(refused.headers.get('retry-after'), '1', 'the 503 Retry-After')
        detail = refused.json().get('detail', '')
        ctx.expect('--max-pending-response-bytes' in detail, 'the 503 names the flag: %r' % detail)
        # Health checks are still answered, quickly, during the attack.
        for _ in range(3):
            r, seconds = timed_healthz(ctx, server)
            ctx.expect_status(r, 200, 'GET /healthz during the attack')
            ctx.expect(seconds < 2, 'GET /healthz took %.2f s during the attack' % seconds)
        # The last connection's first answer is the 503, not a megabyte.
        status, headers, _ = read_head(sockets[-1], 10)
        ctx.expect_equal(status, 503, 'the first answer on the last attacking connection')
        ctx.expect_equal(headers.get('retry-after'), '1', 'its Retry-After')
        hwm = hostile.status_field(server, 'VmHWM')
        limit = before + bound + 2 * size + SLACK
        ctx.expect(hwm < limit, 'peak resident memory %d bytes under the attack, bound %d (%d before + %d + 2 answers + %d)'
                   % (hwm, limit, before, bound, SLACK))
        for s in sockets:
            s.close()
        sockets = []
        hostile.expect_bounded(ctx, server, max_hwm=limit)
    finally:
        for s in sockets:
            s.close()
        server.stop()


@check('hostile/http-half-bodies', needs='binary')
def half_bodies(ctx):
    bound = 16 * MIB
    count = 150
    server = hostile.start(ctx, 'http-half-bodies', ['--max-pending-request-bytes', str(bound), '--quiet'])
    sockets = []
    try:
        before = hostile.status_field(server, 'VmHWM')
        head = (b'POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
                b'Content-Length: 1048576\r\n\r\n')
        body = b' ' * (MIB - 1)
        for _ in range(count):
            s = raw_connection(server.port)
            try:
                s.sendall(head + body)
            except (BrokenPipeError, ConnectionResetError):
                pass
            sockets.append(s)
        # A held connection has no answer yet; a refused one has its 503 waiting.
        time.sleep(0.5)
        refused = held = 0
        for s in sockets:
            readable, _, _ = select.select([s], [], [], 0)
            if not readable:
                held += 1
                continue
            status, headers, _ = read_head(s, 5)
            ctx.expect_equal(status, 503, 'the answer to a half-sent body past the bound')
            ctx.expect_equal(headers.get('retry-after'), '1', 'its Retry-After')
            refused += 1
        ctx.expect(refused > 0, 'no connection was refused: %d held' % held)
        ctx.expect(0 < held <= bound // MIB + 1, '%d connections held a half-sent megabyte under a %d-byte bound'
                   % (held, bound))
        r, seconds = timed_healthz(ctx, server)
        ctx.expect_status(r, 200, 'GET /healthz during the attack')
        ctx.expect(seconds < 2, 'GET /healthz took %.2f s during the attack' % seconds)
        hwm = hostile.status_field(server, 'VmHWM')
        # Each held connection holds at most 1 MiB of body and 64 KiB of buffer; the
        # bound is passed by at most one body's growth.
        limit = before + bound + 2 * MIB + SLACK
        ctx.expect(hwm < limit, 'peak resident memory %d bytes under %d half-sent bodies, bound %d'
                   % (hwm, count, limit))
        for s in sockets:
            s.close()
        sockets = []
        # Once they are gone, an ordinary solve is answered.
        scene = {'views': ['a'], 'constraints': ['H:|-[a]-|', 'V:|-[a]-|'],
                 'container': {'width': 320, 'height': 480}}
        r = None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            r = ctx.solve(scene, server=server)
            if r.status == 200:
                break
            time.sleep(0.2)
        ctx.expect_status(r, 200, 'POST /solve after the attack')
        ctx.expect_equal(r.json()['frames']['a'], {'x': 20, 'y': 20, 'width': 280, 'height': 440},
                         'the frame of a after the attack')
        hostile.expect_bounded(ctx, server, max_hwm=limit)
    finally:
        for s in sockets:
            s.close()
        server.stop()


@check('hostile/http-framing-details')
def framing_details(ctx):
    """The server's own 413, 414 and 431 say the limit passed and the flag that sets it."""
    cases = [
        (b'POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n', 413,
         'The request body is larger than 1048576 bytes (--max-body-bytes).'),
        (b'GET /' + b'a' * 9000 + b' HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 414,
         'The request target is longer than 8192 bytes (--max-target-bytes).'),
        (b'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ' + b'a' * 9000 + b'\r\n\r\n', 431,
         'A header field line is longer than 8192 bytes (--max-header-line-bytes).'),
        (b'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n' + b'X-Field: aaaaaaaaaaaaaaaaaaaa\r\n' * 600 + b'\r\n', 431,
         'The header section is larger than 16384 bytes (--max-header-bytes).'),
    ]
    for request, status, detail in cases:
        (r,), closed = ctx.raw(request)
        ctx.expect_status(r, status, 'a request over a framing limit')
        ctx.expect_equal(r.json().get('detail'), detail, 'the detail of the %d' % status)
        ctx.expect(closed, 'the connection is closed after the %d' % status)


@check('hostile/http-continue-foreign-host')
def continue_foreign_host(ctx):
    """A request that sends `Expect: 100-continue` with a foreign Host (a DNS-rebinding page)
    gets its 421 before any `100 Continue`, and the connection closes with the body unread;
    with a loopback Host the same head gets `100 Continue`, then its answer."""
    head = (b'PUT /groups/continued HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n'
            b'Expect: 100-continue\r\nContent-Length: 40\r\n\r\n')
    s = raw_connection(ctx.port)
    try:
        s.sendall(head)
        s.settimeout(10)
        data = b''
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    finally:
        s.close()
    ctx.expect(data.startswith(b'HTTP/1.1 421 Misdirected Request\r\n'), 'first bytes: %r' % data[:120])
    ctx.expect(b'100 Continue' not in data, 'a 100 Continue was sent: %r' % data[:300])
    fields, _, body = data.partition(b'\r\n\r\n')
    ctx.expect(b'\r\nConnection: close' in fields, 'the 421 closes the connection: %r' % fields)
    problem = json.loads(body)
    ctx.expect_equal((problem['type'], problem['status'], problem['title']),
                     ('urn:layoutd:problem:misdirected-request', 421, 'Misdirected Request'), '421 problem')
    ctx.expect("'evil.example'" in problem['detail'], '421 detail: %r' % problem['detail'])
    ctx.expect_status(ctx.request('GET', '/groups/continued', server=ctx.server), 404, 'nothing was stored')

    s = raw_connection(ctx.port)
    try:
        s.sendall(head.replace(b'Host: evil.example', b'Host: 127.0.0.1'))
        status, _, rest = read_head(s, 10)
        ctx.expect_equal((status, rest), (100, b''), 'a loopback Host gets 100 Continue')
        s.sendall(b'{"constraints":["a.width == 10"]}'.ljust(40))
        status, _, _ = read_head(s, 10)
        ctx.expect_equal(status, 201, 'the PUT after 100 Continue')
    finally:
        s.close()
