"""Checks with servers of their own (restart on the same database, SIGTERM, API token) and
of the command-line interface."""
import json
import os
import signal
import subprocess

import scenes
from harness import CheckFailed, check


@check('process/restart-keeps-cache-and-groups', needs='binary')
def restart(ctx):
    """Solve, stop the server, start it again on the same database: the same request is a
    cache hit with the same bytes, and stored groups are still there."""
    db = os.path.join(ctx.workdir, 'restart.db')
    scene, want = scenes.unique_readme_scene()
    s = ctx.new_server('restart', db_path=db)
    try:
        a = ctx.solve(scene, server=s)
        ctx.expect_status(a, 200)
        ctx.expect_equal(a.headers.get('cache-status'), 'layoutd; fwd=miss; stored', 'Cache-Status')
        g = ctx.request('PUT', '/groups/kept', {'constraints': ['a.width == 10']}, server=s)
        ctx.expect_status(g, 201, 'PUT group')
    finally:
        s.stop()
    s = ctx.new_server('restart', db_path=db)
    try:
        b = ctx.solve(scene, server=s)
        ctx.expect_equal(b.headers.get('cache-status'), 'layoutd; hit', 'Cache-Status after restart')
        ctx.expect(a.body == b.body, 'body after restart differs:\n%r\n%r' % (a.body, b.body))
        err = scenes.frames_close(b.json()['frames'], want)
        ctx.expect(err is None, err)
        g = ctx.request('GET', '/groups/kept', server=s)
        ctx.expect_status(g, 200, 'GET group after restart')
        ctx.expect_equal((g.json()['version'], g.json()['constraints']), (1, ['a.width == 10']),
                         'group after restart')
    finally:
        s.stop()


@check('process/sigterm-exits-0', needs='binary')
def sigterm(ctx):
    s = ctx.new_server('sigterm')
    try:
        ctx.expect_status(ctx.request('GET', '/healthz', server=s), 200)
    finally:
        code = s.stop()
    ctx.expect_equal(code, 0, 'exit status after SIGTERM')
    log = s.log_tail()
    ctx.expect('layoutd: stopped' in log, 'no "layoutd: stopped" line after SIGTERM: %s' % log)


@check('process/sigint-exits-0', needs='binary')
def sigint(ctx):
    """SIGINT (Ctrl-C) drains like SIGTERM: the same one handler, exit status 0."""
    s = ctx.new_server('sigint')
    try:
        ctx.expect_status(ctx.request('GET', '/healthz', server=s), 200)
        s.proc.send_signal(signal.SIGINT)
        s.proc.wait(timeout=15)
    finally:
        code = s.stop()
    ctx.expect_equal(code, 0, 'exit status after SIGINT')
    log = s.log_tail()
    ctx.expect('layoutd: stopped' in log, 'no "layoutd: stopped" line after SIGINT: %s' % log)


@check('process/api-token', needs='binary')
def api_token(ctx):
    """With --api-token, group writes need `Authorization: Bearer <token>` (401 with
    WWW-Authenticate: Bearer otherwise); reads and /solve do not."""
    s = ctx.new_server('token', ['--api-token', 's3cret-token'])
    try:
        body = {'constraints': ['a.width == 10']}
        for headers in ({}, {'Authorization': 'Bearer wrong'}, {'Authorization': 's3cret-token'},
                        {'Authorization': 'Basic czNjcmV0LXRva2Vu'}):
            r = ctx.request('PUT', '/groups/locked', body, headers, server=s)
            ctx.expect_status(r, 401, 'PUT with %r' % headers)
            ctx.expect(r.headers.get('www-authenticate', '').startswith('Bearer'),
                       'WWW-Authenticate %r' % r.headers.get('www-authenticate'))
        ok = {'Authorization': 'Bearer s3cret-token'}
        ctx.expect_status(ctx.request('PUT', '/groups/locked', body, ok, server=s), 201, 'PUT with token')
        ctx.expect_status(ctx.request('GET', '/groups/locked', server=s), 200, 'GET without token')
        ctx.expect_status(ctx.request('GET', '/groups', server=s), 200, 'list without token')
        ctx.expect_status(ctx.solve(scenes.readme_scene(), server=s), 200, 'solve without token')
        r = ctx.request('DELETE', '/groups/locked', server=s)
        ctx.expect_status(r, 401, 'DELETE without token')
        ctx.expect_status(ctx.request('GET', '/groups/locked', server=s), 200, 'still there after 401')
        ctx.expect_status(ctx.request('DELETE', '/groups/locked', headers=ok, server=s), 204,
                          'DELETE with token')
    finally:
        s.stop()



@check('process/api-token-scheme-case-insensitive', needs='binary')
def api_token_scheme_case(ctx):
    """The auth-scheme name is case-insensitive (RFC 9110 §11.1): `bearer TOKEN` and
    `BEARER TOKEN` are accepted; the token itself is compared exactly."""
    s = ctx.new_server('token-case', ['--api-token', 'Tok3n'])
    try:
        body = {'constraints': ['a.width == 10']}
        r = ctx.request('PUT', '/groups/lc', body, {'Authorization': 'bearer Tok3n'}, server=s)
        ctx.expect_status(r, 201, 'PUT with `bearer`')
        r = ctx.request('PUT', '/groups/lc', body, {'Authorization': 'BEARER Tok3n'}, server=s)
        ctx.expect_status(r, 200, 'PUT with `BEARER`')
        r = ctx.request('PUT', '/groups/lc', body, {'Authorization': 'bearer tok3n'}, server=s)
        ctx.expect_status(r, 401, 'a token differing in case')
        r = ctx.request('DELETE', '/groups/lc', headers={'Authorization': 'bEaReR Tok3n'}, server=s)
        ctx.expect_status(r, 204, 'DELETE with `bEaReR`')
    finally:
        s.stop()


def _expensive_scene(seed):
    """1,000 views and 2,000 optional constraints, each a sum of 12 random widths equal to a
    constant at a random priority: dense rows, seconds of solver work in a release build
    once the work limit is lifted (no cache hit: `no-store`). Sparse layouts (rows,
    chains, random pairs) no longer take long enough."""
    import random
    rnd = random.Random(seed)
    n = 1000
    cons = [' + '.join('v%d.width' % rnd.randrange(n) for _ in range(12))
            + ' == %d @%d' % (rnd.randrange(100, 5000), rnd.randrange(1, 1000)) for _ in range(2 * n)]
    return {'container': {'width': 400, 'height': 400}, 'views': ['v%d' % i for i in range(n)],
            'constraints': cons, 'options': {'ambiguity': 'ignore'}}


@check('process/healthz-while-solving', needs='binary')
def healthz_while_solving(ctx):
    """With `--workers 1` and two expensive solves in flight, GET /healthz still answers
    within 2 s (cheap routes have threads of their own)."""
    import http.client
    import threading
    import time
    s = ctx.new_server('busy', ['--workers', '1', '--drain-timeout', '1', '--quiet',
                                '--max-solver-work', '1000000000000'])
    conns = []
    results = []

    def solve(seed):
        conn = http.client.HTTPConnection('127.0.0.1', s.port, timeout=120)
        conns.append(conn)
        try:
            conn.request('POST', '/solve', json.dumps(_expensive_scene(seed)),
                         {'Content-Type': 'application/json', 'Cache-Control': 'no-store'})
            results.append(conn.getresponse().status)
        except (OSError, http.client.HTTPException) as e:
            results.append(type(e).__name__)

    threads = [threading.Thread(target=solve, args=(seed,), daemon=True) for seed in (1, 2)]
    try:
        for t in threads:
            t.start()
        time.sleep(1.0)   # both bodies (345 KB each) sent; the one worker is solving
        ctx.expect(all(t.is_alive() for t in threads) and not results,
                   'the solves ended within 1 s (%r): the scene is too cheap to test this' % results)
        started = time.monotonic()
        r = ctx.request('GET', '/healthz', server=s)
        elapsed = time.monotonic() - started
        ctx.expect_status(r, 200, '/healthz')
        ctx.expect(any(t.is_alive() for t in threads),
                   'both solves finished before /healthz answered: nothing was in flight')
        ctx.expect(elapsed < 2.0, '/healthz took %.2f s while the solves ran' % elapsed)
    finally:
        s.stop(timeout=10)   # SIGTERM; the in-flight solves are cut off after --drain-timeout
        for c in list(conns):
            c.close()
        for t in threads:
            t.join(timeout=10)


# ---------------------------------------------------------------- CLI

def _cli(ctx, args, stdin=None):
    if not os.path.isfile(ctx.binary):
        raise CheckFailed('no binary at %s' % ctx.binary)
    env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    return subprocess.run([ctx.binary] + args, input=stdin, capture_output=True,
                          timeout=60, cwd=ctx.workdir, env=env)


@check('cli/solve-matches-endpoint')
def cli_solve(ctx):
    """`layoutd solve -` prints the same JSON body as POST /solve and exits 0."""
    p = _cli(ctx, ['solve', '-'], scenes.README_BODY.encode())
    ctx.expect_equal(p.returncode, 0, 'exit status (stderr %r)' % p.stderr[-300:])
    http_body = ctx.solve(scenes.readme_scene()).body
    ctx.expect(p.stdout.rstrip(b'\n') == http_body.rstrip(b'\n'),
               'CLI output differs from /solve:\n%r\n%r' % (p.stdout[:300], http_body[:300]))
    path = os.path.join(ctx.workdir, 'scene.json')
    with open(path, 'w') as fh:
        fh.write(scenes.README_BODY)
    p = _cli(ctx, ['solve', path])
    ctx.expect_equal(p.returncode, 0, 'exit status with a file')
    ctx.expect(p.stdout.rstrip(b'\n') == http_body.rstrip(b'\n'), 'CLI output (file) differs')


@check('cli/solve-errors')
def cli_errors(ctx):
    """Exit 1 with the problem details for a scene with errors; 2 for unreadable input."""
    p = _cli(ctx, ['solve', '-'], json.dumps(scenes.SYNTAX_ERROR_SCENE).encode())
    ctx.expect_equal(p.returncode, 1, 'exit status for a syntax error')
    doc = json.loads(p.stdout)
    ctx.expect_equal((doc.get('status'), doc.get('type')),
                     (422, 'urn:layoutd:problem:unprocessable-scene'), 'problem details')
    ctx.expect_diagnostic(doc, 'vfl_syntax', column=10)
    p = _cli(ctx, ['solve', os.path.join(ctx.workdir, 'no-such-file.json')])
    ctx.expect_equal(p.returncode, 2, 'exit status for a missing file')
    p = _cli(ctx, ['solve'])
    ctx.expect_equal(p.returncode, 2, 'exit status without an argument')
    p = _cli(ctx, ['solve', '-', '--db', os.path.join(ctx.workdir, 'no-such.db')], scenes.README_BODY.encode())
    ctx.expect_equal(p.returncode, 2, 'exit status for a --db that does not exist')
    ctx.expect(b'does not exist' in p.stderr, 'message for a missing --db: %r' % p.stderr[-300:])
    ctx.expect(not os.path.exists(os.path.join(ctx.workdir, 'no-such.db')), 'a missing --db was created')


@check('cli/environment-and-svg-to-stdout')
def cli_environment(ctx):
    """`solve` reads LAYOUTD_EXPLAIN and LAYOUTD_SVG as its help says, and not LAYOUTD_DB
    (serve's database, which the image names); `--svg -` prints the drawing instead of the
    JSON; `/dev/null` is read as an empty scene, as an empty standard input is."""
    def run(args, env, stdin=scenes.README_BODY.encode()):
        base = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
        return subprocess.run([ctx.binary] + args, input=stdin, capture_output=True, timeout=60,
                              cwd=ctx.workdir, env=dict(base, **env))
    p = run(['solve', '-', '--json'], {'LAYOUTD_EXPLAIN': 'red.width'})
    ctx.expect_equal(p.returncode, 0, 'exit with LAYOUTD_EXPLAIN (stderr %r)' % p.stderr[-300:])
    ctx.expect_equal(list(json.loads(p.stdout).get('explanations', {})), ['red.width'], 'LAYOUTD_EXPLAIN is read')
    svg_path = os.path.join(ctx.workdir, 'env.svg')
    p = run(['solve', '-'], {'LAYOUTD_SVG': svg_path})
    ctx.expect_equal(p.returncode, 0, 'exit with LAYOUTD_SVG')
    ctx.expect(os.path.exists(svg_path) and b'<svg' in open(svg_path, 'rb').read()[:200], 'LAYOUTD_SVG written')
    p = run(['solve', '-'], {'LAYOUTD_DB': os.path.join(ctx.workdir, 'no-such-env.db')})
    ctx.expect_equal(p.returncode, 0, 'LAYOUTD_DB is not read by solve (stderr %r)' % p.stderr[-300:])
    ctx.expect(b'not read from LAYOUTD_DB' in run(['solve', '--help'], {}).stdout, 'the help says so')
    p = run(['solve', '-', '--svg', '-'], {})
    ctx.expect_equal(p.returncode, 0, 'exit with --svg -')
    ctx.expect(p.stdout.startswith(b'<?xml') and b'<svg' in p.stdout[:200] and b'"frames"' not in p.stdout, '--svg - prints the drawing alone: %r' % p.stdout[:80])
    ctx.expect(not os.path.exists(os.path.join(ctx.workdir, '-')), 'no file named -')
    empty_file = run(['solve', '/dev/null'], {}, stdin=b'')
    empty_stdin = run(['solve', '-'], {}, stdin=b'')
    ctx.expect_equal((empty_file.returncode, empty_file.stdout), (empty_stdin.returncode, empty_stdin.stdout),
                     '/dev/null and an empty standard input')


@check('cli/validate')
def cli_validate(ctx):
    p = _cli(ctx, ['validate', '-'], scenes.README_BODY.encode())
    ctx.expect_equal(p.returncode, 0, 'exit status (stderr %r)' % p.stderr[-300:])
    ctx.expect_equal(json.loads(p.stdout), {'valid': True, 'diagnostics': []}, 'validate output')


@check('process/env-configuration', needs='binary')
def env_configuration(ctx):
    """`layoutd serve` configured only through LAYOUTD_HOST/PORT/DB (what the Docker image
    does) listens there and creates the database there."""
    from harness import Server, free_port
    db = os.path.join(ctx.workdir, 'env-config.db')
    s = Server(ctx.binary, db, startup_seconds=ctx.args.startup_timeout)
    port = free_port()
    s.start(args=['serve'], env={'LAYOUTD_HOST': '127.0.0.1', 'LAYOUTD_PORT': str(port),
                                 'LAYOUTD_DB': db}, port=port)
    try:
        r = ctx.solve(scenes.readme_scene(), server=s)
        ctx.expect_status(r, 200, 'solve')
        ctx.expect(os.path.exists(db), 'no database at LAYOUTD_DB=%s' % db)
    finally:
        s.stop()


@check('process/max-body-bytes', needs='binary')
def max_body_bytes(ctx):
    """--max-body-bytes N: a body of N bytes is read, N + 1 is 413."""
    body = scenes.README_BODY.encode()
    s = ctx.new_server('max-body', ['--max-body-bytes', str(len(body))])
    try:
        r = ctx.request('POST', '/solve', body, {'Content-Type': 'application/json'}, server=s)
        ctx.expect_status(r, 200, 'a body of exactly the limit')
        r = ctx.request('POST', '/solve', body + b' ', {'Content-Type': 'application/json'}, server=s)
        ctx.expect_status(r, 413, 'one byte over the limit')
    finally:
        s.stop()


@check('process/port-in-use-creates-no-database', needs='binary')
def port_in_use_creates_no_database(ctx):
    """`layoutd serve` on a port another socket holds exits 1 saying it cannot listen
    there, and leaves no database file behind (it binds before it opens the database)."""
    import socket
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        holder.bind(('127.0.0.1', 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        db = os.path.join(ctx.workdir, 'port-in-use.db')
        p = _cli(ctx, ['serve', '--host', '127.0.0.1', '--port', str(port), '--db', db])
    finally:
        holder.close()
    text = p.stderr.decode('utf-8', 'replace')
    ctx.expect_equal(p.returncode, 1, 'exit status')
    ctx.expect_equal(text, 'layoutd: cannot listen on 127.0.0.1:%d: Address already in use (bind, errno 98)\n' % port, 'stderr')
    left = [name for name in os.listdir(ctx.workdir) if name.startswith('port-in-use.db')]
    ctx.expect_equal(left, [], 'files left behind')


@check('cli/serve-help', needs='binary')
def serve_help(ctx):
    """`layoutd serve --help` exits 0 and documents every flag of the service surface."""
    p = _cli(ctx, ['serve', '--help'])
    ctx.expect_equal(p.returncode, 0, 'exit status')
    text = (p.stdout + p.stderr).decode('utf-8', 'replace')
    for flag in ('--host', '--port', '--db', '--max-body-bytes', '--cache-capacity', '--api-token',
                 '--cors-origin', '--log-level', 'LAYOUTD_HOST', 'LAYOUTD_PORT', 'LAYOUTD_DB',
                 'LAYOUTD_API_TOKEN'):
        ctx.expect(flag in text, '%s missing from serve --help' % flag)


@check('process/connection-limit', needs='binary')
def connection_limit(ctx):
    """Over --max-connections, a new connection gets 503 with Retry-After (and the server
    keeps answering once connections close)."""
    import socket
    s = ctx.new_server('max-conn', ['--max-connections', '2'])
    held = []
    try:
        import time
        for _ in range(2):
            # The start-up probe's connection is closed by the event loop that serves it,
            # which may not have run yet (another loop accepts this one): until then it
            # still counts, and this connection gets the 503. Retry for up to 5 s.
            for _ in range(50):
                c = socket.create_connection(('127.0.0.1', s.port), timeout=ctx.timeout)
                c.sendall(b'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n')   # keep-alive: stays open
                first = c.recv(1024)
                if not first.startswith(b'HTTP/1.1 503'):
                    break
                c.close()
                time.sleep(0.1)
            ctx.expect(first.startswith(b'HTTP/1.1 200'), 'held connection not answered')
            held.append(c)
        (r,), closed = ctx.raw(b'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n', server=s)
        ctx.validate('GET', '/healthz', r)
        ctx.expect_status(r, 503, 'third connection')
        ra = r.headers.get('retry-after', '')
        ctx.expect(ra.isdigit(), 'Retry-After %r is not a number of seconds' % ra)
        ctx.expect(closed, 'the over-limit connection stayed open')
        for c in held:
            c.close()
        held = []
        for _ in range(50):   # the server notices the closes asynchronously
            (r,), _ = ctx.raw(b'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', server=s)
            if r.status == 200:
                break
            time.sleep(0.1)
        ctx.expect_status(r, 200, 'after the held connections closed')
    finally:
        for c in held:
            c.close()
        s.stop()
