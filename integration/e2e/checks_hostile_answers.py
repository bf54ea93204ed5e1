"""Hostile checks, answers (`hostile/answers-*`): answers that grow with the input.

Each attack runs against a server of its own under `prlimit --as` with two workers
(hostile.py) and is judged on the status, the answer's byte count, the server's peak
resident memory, the wall time, and /healthz afterwards.

- svg-names-sizes: 100 views with 250-character names at 1,000 sizes as SVG (the review's
  1.35 GB picture with 3 KB names; names stay within a 256-character name limit, so the
  bound must come from bytes). A wireframe labels at most 2,000 views and
  writes no clip path, so this picture is about 39 MB, under the default bound: it is
  answered whole, in time; under a 16 MiB --max-response-bytes it is a small 422 naming
  the flag.
- json-sizes: a JSON `layouts` answer over a small --max-response-bytes is the 422 naming
  it; under it, the exact frames.
- cli: `layoutd solve` and `validate` bound their output by --max-response-bytes too.
- concurrent-pending: four clients ask at once for answers of about 18 MB and read nothing;
  with --max-pending-response-bytes at 24 MiB, answers being written count, so only one
  is given (whole) and the others are 503 with Retry-After, instead of two answers (36 MB)
  held. The unread answer is held for the whole check (a --body-timeout longer than it):
  with the default 30 s, a loaded machine that takes longer than that to decide the other
  three rightly drops the unread answer and gives a second one.
- slow-steady-reader: a 7.5 MB answer read at about 800 KB/s with --body-timeout 1 is
  read whole (the kernel's send queue shrinking counts as the client reading), and
  `layoutd_http_answers_cut_total` stays 0.
"""
import http.client
import json
import os
import socket
import subprocess
import threading
import time

import hostile
from harness import check

# Names of 250 characters: within the 256-character name limit (limit maxNameLength).
NAME_LENGTH = 250


def names(count):
    return [('v%03d_' % i) + 'n' * (NAME_LENGTH - 5) for i in range(count)]


def pinned_scene(views, sizes, width=320):
    """`views` views of long names, each pinned to a 10×10 frame at (i, i), laid out at
    `sizes` container widths 300, 301, …: every frame is known."""
    constraints = []
    for i, name in enumerate(views):
        constraints += ['%s.leading == superview.leading + %d' % (name, i),
                        '%s.top == superview.top + %d' % (name, i),
                        '%s.width == 10' % name, '%s.height == 10' % name]
    return {'container': {'width': width, 'height': 480}, 'views': views,
            'constraints': constraints, 'options': {'ambiguity': 'ignore'},
            'sizes': [{'width': 300 + i, 'height': 400} for i in range(sizes)]}


def expected_layouts(views, sizes):
    layouts = []
    for i in range(sizes):
        frames = {'superview': {'x': 0, 'y': 0, 'width': 300 + i, 'height': 400}}
        for j, name in enumerate(views):
            frames[name] = {'x': j, 'y': j, 'width': 10, 'height': 10}
        layouts.append({'container': {'width': 300 + i, 'height': 400}, 'frames': frames,
                        'diagnostics': []})
    return layouts


def wall_bound(ctx, release_seconds):
    """The wall-time bound: `release_seconds` for an optimised binary; the debug build the
    e2e step runs is about ten times slower."""
    return release_seconds * (10 if '/debug/' in ctx.binary else 1)


def slow_connection(ctx, server):
    """A connection whose reads wait as long as the debug build may take."""
    return http.client.HTTPConnection('127.0.0.1', server.port, timeout=max(ctx.timeout, 120))


def expect_response_limit(ctx, r, limit, what):
    ctx.expect_status(r, 422, what)
    ctx.expect_equal(r.headers.get('content-type'), 'application/problem+json', what + ' media type')
    ctx.expect(len(r.body) < 1024, '%s: the 422 is %d bytes' % (what, len(r.body)))
    doc = r.json()
    diag = ctx.expect_diagnostic(doc, 'limit_exceeded')
    ctx.expect(('more than %d bytes' % limit) in diag['message'] and '--max-response-bytes' in diag['message'],
               '%s: the diagnostic names the limit and the flag: %r' % (what, diag['message']))


@check('hostile/answers-svg-names-sizes', needs='binary')
def svg_names_sizes(ctx):
    server = hostile.start(ctx, 'answers-svg')
    try:
        scene = pinned_scene(names(100), 1000)
        start = time.monotonic()
        conn = slow_connection(ctx, server)
        r = ctx.request('POST', '/solve?format=svg', scene, conn=conn)
        seconds = time.monotonic() - start
        ctx.expect_status(r, 200, 'SVG of 100 long names at 1,000 sizes')
        ctx.expect(len(r.body) < hostile.RESPONSE_BOUND, 'SVG answer of %d bytes' % len(r.body))
        ctx.expect(b'more views and guides without a label' in r.body, 'the views beyond 2,000 labels are counted')
        ctx.expect(seconds < wall_bound(ctx, 3), 'the SVG took %.1f s' % seconds)
        # The JSON of it (about 31 MB) is still given whole.
        r = ctx.request('POST', '/solve', scene, conn=conn)
        ctx.expect_status(r, 200, 'the JSON of the same scene')
        ctx.expect(len(r.body) < hostile.RESPONSE_BOUND, 'JSON answer of %d bytes' % len(r.body))
        conn.close()
        # Peak memory: the server's own, one bounded answer and its encoded copy, not the
        # 136 MB picture.
        hostile.expect_bounded(ctx, server, max_hwm=4 * hostile.RESPONSE_BOUND + (128 << 20))
    finally:
        server.stop()
    limit = 16 << 20
    server = hostile.start(ctx, 'answers-svg-bound', ['--max-response-bytes', str(limit)])
    try:
        scene = pinned_scene(names(100), 1000)
        start = time.monotonic()
        conn = slow_connection(ctx, server)
        r = ctx.request('POST', '/solve', scene, {'Accept': 'image/svg+xml'}, conn=conn)
        seconds = time.monotonic() - start
        expect_response_limit(ctx, r, limit, 'Accept: image/svg+xml over a 16 MiB bound')
        ctx.expect(seconds < wall_bound(ctx, 3), 'the SVG was refused after %.1f s' % seconds)
        conn.close()
    finally:
        server.stop()


@check('hostile/answers-json-sizes', needs='binary')
def json_sizes(ctx):
    limit = 200_000
    server = hostile.start(ctx, 'answers-json', ['--max-response-bytes', str(limit)])
    try:
        views = names(10)
        over = pinned_scene(views, 100)                # about 290 KB of JSON
        r = ctx.request('POST', '/solve', over, server=server)
        expect_response_limit(ctx, r, limit, 'layouts over --max-response-bytes')
        ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss', 'the 422 is not stored')
        r = ctx.request('POST', '/solve', over, server=server)
        expect_response_limit(ctx, r, limit, 'the same request again')
        r = ctx.request('POST', '/validate', over, conn=slow_connection(ctx, server))
        ctx.expect_status(r, 200, 'its verdict is small')
        under = pinned_scene(views, 50)                # about 145 KB
        r = ctx.request('POST', '/solve', under, server=server)
        ctx.expect_status(r, 200, 'layouts under --max-response-bytes')
        ctx.expect(len(r.body) <= limit, 'answer of %d bytes' % len(r.body))
        ctx.expect_equal(r.json(), {'layouts': expected_layouts(views, 50), 'diagnostics': []},
                         'the layouts')
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


def unread_request(port, body, out, index):
    """Sends one POST /solve on a connection with a tiny receive window and waits before
    reading, so that the answer stays in the server; then reads the status line, headers
    and body."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(120)
    s.connect(('127.0.0.1', port))
    s.sendall(b'POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
              b'Content-Length: %d\r\n\r\n' % len(body) + body)
    out[index] = s


def read_head(s, chunk_size=65536):
    """Reads an answer's head: (status, lower-cased headers, the body bytes read with it)."""
    data = b''
    while b'\r\n\r\n' not in data:
        chunk = s.recv(chunk_size)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(':', 1) for l in lines[1:] if ':' in l)}
    return status, headers, rest


def read_response(s):
    status, headers, rest = read_head(s)
    length = int(headers.get('content-length', '0'))
    while len(rest) < length:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        rest += chunk
    s.close()
    return status, headers, len(rest)


@check('hostile/answers-concurrent-pending', needs='binary')
def concurrent_pending(ctx):
    bound = 24 << 20
    # The server closes a connection whose client has read nothing of its answer for
    # --body-timeout and gives that answer's bytes back to the count. With the default
    # 30 s, a loaded machine that solves the other three for longer than that after the
    # first answer is queued rightly gives a second 18 MB answer (with --body-timeout 2
    # the statuses are [200, 200, 503, 503], the first answer cut short; the unit test
    # anUnreadAnswerIsCountedUntilTheBodyTimeoutDropsIt holds that). What is checked here
    # is the count while answers stay unread, so they stay unread for the whole check.
    wait = wall_bound(ctx, 20)
    server = hostile.start(ctx, 'answers-pending', ['--max-pending-response-bytes', str(bound),
                                                    '--body-timeout', str(4 * wait)])
    try:
        view_names = names(100)
        bodies = [json.dumps(pinned_scene(view_names, 600, width=320 + i)).encode() for i in range(4)]
        sockets = [None] * 4
        threads = [threading.Thread(target=unread_request, args=(server.port, body, sockets, i))
                   for i, body in enumerate(bodies)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # Let both workers answer everything before anyone reads: reading the answer given
        # would give its bytes back before the last request is decided.
        deadline = time.monotonic() + wait
        solved = 0
        while time.monotonic() < deadline:
            r = ctx.request('GET', '/metrics', server=server)
            solved = sum(float(line.split()[-1]) for line in r.body.decode().splitlines()
                         if line.startswith('layoutd_requests_total{') and 'route="/solve"' in line)
            if solved >= 4:
                break
            time.sleep(0.2)
        ctx.expect(solved >= 4, 'only %d of the four requests answered in %.0f s' % (solved, wait))
        results = [read_response(s) for s in sockets]
        statuses = sorted(status for status, _, _ in results)
        ctx.expect_equal(statuses, [200, 503, 503, 503], 'statuses of four unread 18 MB answers')
        for status, headers, length in results:
            if status == 503:
                ctx.expect_equal(headers.get('retry-after'), '1', '503 Retry-After')
            else:
                ctx.expect(length > bound // 2, 'the answer given is %d bytes' % length)
                ctx.expect_equal(length, int(headers.get('content-length', '-1')),
                                 'the answer given is read whole')
        hostile.expect_bounded(ctx, server, max_hwm=4 * bound + (128 << 20))
    finally:
        server.stop()


def run_cli(ctx, args, stdin, env=None):
    clean = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    clean.update(env or {})
    return subprocess.run([ctx.binary] + args, input=stdin, capture_output=True, timeout=120,
                          cwd=ctx.workdir, env=clean)


@check('hostile/answers-cli', needs='binary')
def cli_bound(ctx):
    """`layoutd solve` and `validate` take --max-response-bytes (and its environment
    variable): exactly the answer's length prints it, one byte less prints the 422 problem
    naming the flag (exit 1); an SVG over it is not written (exit 1, said on stderr)."""
    scene = json.dumps(pinned_scene(names(10), 20)).encode()
    full = run_cli(ctx, ['solve', '-'], scene)
    ctx.expect_equal(full.returncode, 0, 'solve exit status (stderr %r)' % full.stderr[-300:])
    length = len(full.stdout) - 1                       # the answer and a newline
    exact = run_cli(ctx, ['solve', '-', '--max-response-bytes', str(length)], scene)
    ctx.expect_equal((exact.returncode, exact.stdout), (0, full.stdout), 'solve at exactly the bound')
    for how, args, env in (('flag', ['--max-response-bytes', str(length - 1)], None),
                           ('environment', [], {'LAYOUTD_MAX_RESPONSE_BYTES': str(length - 1)})):
        over = run_cli(ctx, ['solve', '-'] + args, scene, env)
        ctx.expect_equal(over.returncode, 1, 'solve one byte over the bound (%s)' % how)
        doc = json.loads(over.stdout)
        ctx.expect_equal(doc.get('status'), 422, 'the problem printed (%s)' % how)
        diag = ctx.expect_diagnostic(doc, 'limit_exceeded')
        ctx.expect('more than %d bytes' % (length - 1) in diag['message'] and '--max-response-bytes' in diag['message'],
                   'the diagnostic names the limit and the flag: %r' % diag['message'])
    verdict = run_cli(ctx, ['validate', '-', '--json', '--max-response-bytes', '20'], scene)
    ctx.expect_equal(verdict.returncode, 1, 'validate over the bound')
    ctx.expect_equal(json.loads(verdict.stdout).get('status'), 422, 'validate prints the 422 problem')
    svg_path = os.path.join(ctx.workdir, 'answers-cli.svg')
    if os.path.exists(svg_path):
        os.remove(svg_path)
    drawn = run_cli(ctx, ['solve', '-', '--svg', svg_path, '--max-response-bytes', str(length)], scene)
    ctx.expect_equal(drawn.returncode, 1, 'solve --svg with a picture over the bound')
    ctx.expect_equal(drawn.stdout, full.stdout, 'the JSON is still printed')
    ctx.expect(b'the SVG was not written' in drawn.stderr and b'--max-response-bytes' in drawn.stderr,
               'stderr says why: %r' % drawn.stderr[-300:])
    ctx.expect(not os.path.exists(svg_path), 'no SVG file was written')


@check('hostile/answers-slow-steady-reader', needs='binary')
def slow_steady_reader(ctx):
    """A client that reads a large answer slowly but without pause gets it whole, although
    it takes many times --body-timeout and the socket stays unwritable for longer than that
    between reads (Linux reports it writable only once a third of the send queue is free):
    the server counts the kernel's send queue shrinking as the client reading. Before, a
    7.7 MB answer read at 20 KB/s was cut at 6.4 MB while the access log said 200."""
    server = hostile.start(ctx, 'answers-slow-reader', ['--body-timeout', '1'])
    try:
        body = json.dumps(pinned_scene(names(100), 250)).encode()
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        s.settimeout(max(ctx.timeout, 120))
        s.connect(('127.0.0.1', server.port))
        s.sendall(b'POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
                  b'Cache-Control: no-store\r\nContent-Length: %d\r\n\r\n' % len(body) + body)
        status, headers, rest = read_head(s, 16384)
        ctx.expect_equal(status, 200, 'status')
        length = int(headers['content-length'])
        ctx.expect(length > 6_000_000, 'the answer is %d bytes' % length)
        started = time.monotonic()
        received = len(rest)
        while received < length:
            time.sleep(0.02)                    # about 800 KB/s: 16 KiB every 20 ms
            chunk = s.recv(16384)
            if not chunk:
                break
            received += len(chunk)
        took = time.monotonic() - started
        s.close()
        ctx.expect_equal(received, length, 'bytes of the answer read (in %.1f s, --body-timeout 1)' % took)
        ctx.expect(took > 3, 'the read took %.1f s, several times --body-timeout' % took)
        r = ctx.request('GET', '/metrics', server=server)
        cut = [line for line in r.body.decode().splitlines() if line.startswith('layoutd_http_answers_cut_total ')]
        ctx.expect_equal(cut, ['layoutd_http_answers_cut_total 0'], 'answers cut short')
    finally:
        server.stop()
