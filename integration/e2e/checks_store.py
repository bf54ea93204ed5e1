"""The group store under stress and faults (`store/*`): durability across kill -9, concurrent
writers, no stale results across restarts, a damaged / read-only / locked / full database,
and the configured limits. Every check starts servers of its own on databases of its own."""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading

from harness import CheckFailed, Server, check, free_port

HIT = 'layoutd; hit'
STORED = 'layoutd; fwd=miss; stored'


def _server(ctx, db, extra_args=()):
    return Server(ctx.binary, db, list(extra_args) + ['--quiet'],
                  startup_seconds=ctx.args.startup_timeout).start()


def _kill9(server):
    """SIGKILL the server (no shutdown handler runs) and reap it; returns the exit status."""
    if server.proc is not None and server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait(timeout=15)
    return server.stop()


def _body(i):
    """The i-th distinct group body: constraints of both forms and metrics, all different."""
    return {'constraints': ['H:|-m%d-[a(==%d)]' % (i, 100 + i),
                            {'id': 'h-%d' % i, 'equation': 'a.height == %d @%d' % (10 + i, 1 + i % 999)}],
            'metrics': {'m%d' % i: i + 0.5}}


def _expect_group(ctx, resp, name, version, body, what):
    """`resp` is 200 with exactly `name`, `version`, the constraints and metrics of `body`, and
    ETag "<version>"."""
    ctx.expect_status(resp, 200, what)
    doc = resp.json()
    ctx.expect_equal((doc.get('name'), doc.get('version'), doc.get('constraints'), doc.get('metrics')),
                     (name, version, body['constraints'], body['metrics']), what)
    ctx.expect_equal(resp.headers.get('etag'), '"%d"' % version, what + ': ETag')


def _problem(ctx, resp, status, type_slug, title, what):
    """A problem+json of `status` with exactly these type and title; returns the document."""
    ctx.expect_status(resp, status, what)
    ctx.expect_equal(resp.headers.get('content-type', '').split(';')[0], 'application/problem+json',
                     what + ': Content-Type')
    doc = resp.json()
    ctx.expect_equal((doc.get('type'), doc.get('title'), doc.get('status')),
                     ('urn:layoutd:problem:' + type_slug, title, status), what + ': problem')
    ctx.expect(isinstance(doc.get('detail'), str) and doc['detail'], what + ': no detail in %r' % doc)
    return doc


def _sha256(path):
    with open(path, 'rb') as fh:
        return hashlib.sha256(fh.read()).hexdigest()


# ---------------------------------------------------------------- durability

@check('store/put-survives-kill-9', needs='binary')
def put_survives_kill_9(ctx):
    """A PUT that answered 2xx survives SIGKILL right after the answer: 20 rounds of start,
    GET (the previous round's body and version exactly, byte for byte), PUT a new body,
    kill -9."""
    db = os.path.join(ctx.workdir, 'kill9.db')
    name = 'durable'
    previous = None   # (version, PUT response bytes, body)
    for i in range(21):
        s = _server(ctx, db)
        try:
            if previous is not None:
                version, put_bytes, body = previous
                r = ctx.request('GET', '/groups/' + name, server=s)
                _expect_group(ctx, r, name, version, body, 'GET after kill -9 (round %d)' % i)
                ctx.expect(r.body == put_bytes, 'round %d: GET body differs from the PUT answer:\n%r\n%r'
                           % (i, r.body, put_bytes))
            if i == 20:
                break
            body = _body(i)
            r = ctx.request('PUT', '/groups/' + name, body, server=s)
            ctx.expect_status(r, 201 if i == 0 else 200, 'PUT round %d' % i)
            ctx.expect_equal(r.json()['version'], i + 1, 'version of PUT round %d' % i)
            previous = (i + 1, r.body, body)
            code = _kill9(s)
            ctx.expect_equal(code, -9, 'exit status after SIGKILL')
        finally:
            s.stop()
    s = _server(ctx, db)
    try:
        r = ctx.request('GET', '/groups/%s/versions' % name, server=s)
        ctx.expect_status(r, 200, 'versions')
        ctx.expect_equal([v['version'] for v in r.json()['versions']], list(range(1, 21)),
                         'every version written before a kill -9')
        r = ctx.request('GET', '/groups/%s/versions/7' % name, server=s)
        _expect_group(ctx, r, name, 7, _body(6), 'version 7 after 20 kills')
    finally:
        s.stop()


@check('store/concurrent-puts')
def concurrent_puts(ctx):
    """8 clients PUT 10 distinct bodies each to one group at once: every answer is 2xx with a
    version of its own; the version list is exactly those versions, increasing; each version
    holds exactly the body that PUT sent; the current group is the last version's body."""
    name = 'store-concurrent'
    path = '/groups/' + name
    clients, each = 8, 10
    answers = []          # (status, version, body index, response constraints/metrics)
    errors = []
    lock = threading.Lock()

    def client(c):
        try:
            conn = ctx.connect()
            try:
                for k in range(each):
                    index = c * each + k
                    r = ctx.request('PUT', path, _body(index), conn=conn)
                    doc = r.json()
                    with lock:
                        answers.append((r.status, doc.get('version'), index,
                                        (doc.get('constraints'), doc.get('metrics')),
                                        r.headers.get('etag')))
            finally:
                conn.close()
        except Exception as e:   # reported by the main thread
            with lock:
                errors.append('client %d: %s: %s' % (c, type(e).__name__, e))

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    ctx.expect(not any(t.is_alive() for t in threads), 'a client did not finish within 60 s')
    ctx.expect(not errors, '; '.join(errors))
    ctx.expect_equal(len(answers), clients * each, 'answers')
    statuses = sorted(a[0] for a in answers)
    ctx.expect_equal(statuses, [200] * (clients * each - 1) + [201], 'statuses (one creation)')
    by_version = {}
    for status, version, index, echoed, etag in answers:
        ctx.expect(version not in by_version, 'version %r answered twice' % version)
        by_version[version] = index
        ctx.expect_equal(etag, '"%s"' % version, 'ETag of version %s' % version)
        b = _body(index)
        ctx.expect_equal(echoed, (b['constraints'], b['metrics']), 'echoed body of version %s' % version)
    ctx.expect_equal(sorted(by_version), list(range(1, clients * each + 1)), 'answered versions')
    created = [a[1] for a in answers if a[0] == 201]
    ctx.expect_equal(created, [1], 'the 201 is version 1')

    r = ctx.request('GET', path + '/versions')
    ctx.expect_status(r, 200, 'versions')
    listed = [v['version'] for v in r.json()['versions']]
    ctx.expect_equal(listed, sorted(by_version), 'listed versions (strictly increasing, every 2xx)')
    for version in listed:
        r = ctx.request('GET', '%s/versions/%d' % (path, version))
        _expect_group(ctx, r, name, version, _body(by_version[version]), 'version %d' % version)
    last = max(by_version)
    r = ctx.request('GET', path)
    _expect_group(ctx, r, name, last, _body(by_version[last]), 'current group')
    ctx.expect_status(ctx.request('DELETE', path), 204, 'cleanup')


# ---------------------------------------------------------------- never stale

@check('store/never-stale-across-restart', needs='binary')
def never_stale_across_restart(ctx):
    """A cached result never outlives its group: replaced → the new answer at once, also after
    kill -9 and a restart; deleted → 422 unknown_group, also after a restart; a new PUT after
    the DELETE continues the version numbers."""
    db = os.path.join(ctx.workdir, 'stale.db')
    name = 'widths'
    path = '/groups/' + name
    scene = {'container': {'width': 400, 'height': 300}, 'views': ['a'],
             'constraints': ['H:|-[a]', 'V:|-[a(==50)]'], 'groups': [name]}

    def solve(s, width, cache_status, what):
        r = ctx.solve(scene, server=s)
        ctx.expect_status(r, 200, what)
        f = r.json()['frames']['a']
        ctx.expect_equal((f['x'], f['y'], f['width'], f['height']), (20, 20, width, 50), what + ': frame of a')
        ctx.expect_equal(r.headers.get('cache-status'), cache_status, what + ': Cache-Status')
        return r

    def unknown(s, what):
        r = ctx.solve(scene, server=s)
        doc = _problem(ctx, r, 422, 'unprocessable-scene', 'The scene cannot be laid out', what)
        ctx.expect_diagnostic(doc, 'unknown_group')
        ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss', what + ': Cache-Status')

    s = _server(ctx, db)
    try:
        ctx.expect_status(ctx.request('PUT', path, {'constraints': ['a.width == w'], 'metrics': {'w': 100}},
                                      server=s), 201, 'PUT v1')
        solve(s, 100, STORED, 'v1 first solve')
        solve(s, 100, HIT, 'v1 second solve')
        ctx.expect_status(ctx.request('PUT', path, {'constraints': ['a.width == 150']}, server=s),
                          200, 'PUT v2')
        solve(s, 150, STORED, 'right after replacing the group')
        solve(s, 150, HIT, 'v2 second solve')
        ctx.expect_equal(_kill9(s), -9, 'exit status after SIGKILL')
    finally:
        s.stop()
    s = _server(ctx, db)
    try:
        # the result cache is written behind: after kill -9 the result may be a hit or not,
        # but it is v2's
        r = ctx.solve(scene, server=s)
        ctx.expect_status(r, 200, 'after kill -9 and a restart')
        ctx.expect_equal(r.json()['frames']['a']['width'], 150, 'width after kill -9 and a restart')
        ctx.expect(r.headers.get('cache-status') in (HIT, STORED), 'Cache-Status %r' % r.headers.get('cache-status'))
        solve(s, 150, HIT, 'after kill -9, a restart and a solve')
        ctx.expect_status(ctx.request('DELETE', path, server=s), 204, 'DELETE')
        unknown(s, 'right after DELETE')
    finally:
        s.stop()
    s = _server(ctx, db)
    try:
        unknown(s, 'after DELETE and a restart')
        ctx.expect_status(ctx.request('GET', path, server=s), 404, 'GET after DELETE and a restart')
        # v1's content again: the result is computed afresh under version 3
        r = ctx.request('PUT', path, {'constraints': ['a.width == w'], 'metrics': {'w': 100}}, server=s)
        ctx.expect_status(r, 201, 'PUT after DELETE')
        ctx.expect_equal((r.json()['version'], r.headers.get('etag')), (3, '"3"'), 'version after DELETE')
        solve(s, 100, STORED, 'after re-creating the group')
        ctx.expect_equal([v['version'] for v in ctx.request('GET', path + '/versions', server=s)
                          .json()['versions']], [3], 'versions after re-creating')
    finally:
        s.stop()


# ---------------------------------------------------------------- storage faults

def _serve_once(ctx, db, timeout=20):
    """Run `layoutd serve` on `db` expecting it to exit; returns the CompletedProcess."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    try:
        return subprocess.run([ctx.binary, 'serve', '--host', '127.0.0.1', '--port', str(free_port()),
                               '--db', db, '--quiet'], capture_output=True, timeout=timeout,
                              cwd=os.path.dirname(db), env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise CheckFailed('layoutd serve on a damaged database still ran after %d s' % timeout)


@check('store/corrupt-database-exits-1', needs='binary')
def corrupt_database(ctx):
    """A damaged database file: `serve` exits 1 with a message naming the file, and leaves the
    file byte for byte as it was (no -wal/-shm beside it). Two damages: garbage from byte 0
    (not a database), and a valid header over garbage pages (quick_check fails)."""
    if not os.path.isfile(ctx.binary):
        raise CheckFailed('no binary at %s' % ctx.binary)
    folder = tempfile.mkdtemp(prefix='corrupt-', dir=ctx.workdir)
    try:
        garbage = bytes((i * 131 + 7) % 251 for i in range(16384))
        db = os.path.join(folder, 'garbage.db')
        with open(db, 'wb') as fh:
            fh.write(garbage)

        good = os.path.join(folder, 'pages.db')
        s = Server(ctx.binary, good, ['--quiet'], log_path=os.path.join(ctx.workdir, 'pages.log'),
                   startup_seconds=ctx.args.startup_timeout).start()
        try:
            ctx.expect_status(ctx.request('PUT', '/groups/g', _body(1), server=s), 201, 'PUT')
        finally:
            ctx.expect_equal(s.stop(), 0, 'exit status after SIGTERM')
        for suffix in ('-wal', '-shm'):
            if os.path.exists(good + suffix):
                os.remove(good + suffix)
        with open(good, 'r+b') as fh:
            size = fh.seek(0, 2)
            ctx.expect(size >= 8192, 'the database is only %d bytes' % size)
            fh.seek(4096)
            fh.write(garbage[:size - 4096])

        for path, what in ((db, 'garbage file'), (good, 'garbage pages')):
            before = _sha256(path)
            p = _serve_once(ctx, path)
            err = p.stderr.decode('utf-8', 'replace')
            ctx.expect_equal(p.returncode, 1, '%s: exit status (stderr %r)' % (what, err[-300:]))
            ctx.expect("the database file '%s' is damaged" % path in err,
                       '%s: stderr does not say the file is damaged: %r' % (what, err[-400:]))
            ctx.expect_equal(_sha256(path), before, '%s: SHA-256 of the file after the attempt' % what)
            ctx.expect(not os.path.exists(path + '-wal') and not os.path.exists(path + '-shm'),
                       '%s: -wal/-shm files were created beside a damaged database' % what)
        ctx.expect_equal(sorted(os.listdir(folder)), ['garbage.db', 'pages.db'], 'files in the folder')
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _unprivileged_prefix():
    """A command prefix that runs as nobody (65534), or None when not root (then file modes
    already stop writes)."""
    if os.geteuid() != 0:
        return []
    if shutil.which('setpriv'):
        return [shutil.which('setpriv'), '--reuid=65534', '--regid=65534', '--clear-groups']
    if shutil.which('runuser'):
        return [shutil.which('runuser'), '-u', 'nobody', '--']
    raise CheckFailed('running as root, and neither setpriv nor runuser is installed to drop privileges')


@check('store/read-only-database', needs='binary')
def read_only_database(ctx):
    """A database the server may not write (file 444, folder 555, server not root): reads and
    /solve with the group work, PUT and DELETE are 503 problem+json with Retry-After, and the
    file is unchanged."""
    if not os.path.isfile(ctx.binary):
        raise CheckFailed('no binary at %s' % ctx.binary)
    root = tempfile.mkdtemp(prefix='layoutd-ro-')   # outside the 0700 workdir: nobody must reach it
    data = os.path.join(root, 'data')
    os.mkdir(data)
    db = os.path.join(data, 'ro.db')
    name = 'frozen'
    body = {'constraints': ['a.width == 120'], 'metrics': {}}
    try:
        os.chmod(root, 0o755)
        binary = os.path.join(root, 'layoutd')
        shutil.copyfile(ctx.binary, binary)
        os.chmod(binary, 0o755)
        s = Server(binary, db, ['--quiet'], log_path=os.path.join(root, 'create.log'),
                   startup_seconds=ctx.args.startup_timeout).start()
        try:
            r = ctx.request('PUT', '/groups/' + name, body, server=s)
            ctx.expect_status(r, 201, 'PUT while writable')
            stored = r.body
        finally:
            ctx.expect_equal(s.stop(), 0, 'exit status after SIGTERM')
        os.chmod(db, 0o444)
        for suffix in ('-wal', '-shm'):
            if os.path.exists(db + suffix):
                os.chmod(db + suffix, 0o444)
        os.chmod(data, 0o555)
        before = _sha256(db)

        prefix = _unprivileged_prefix()
        port = free_port()
        log = os.path.join(root, 'ro.log')
        if prefix:
            s = Server(prefix[0], db, log_path=log, startup_seconds=ctx.args.startup_timeout)
            args = prefix[1:] + [binary]
        else:
            s = Server(binary, db, log_path=log, startup_seconds=ctx.args.startup_timeout)
            args = []
        s.start(args=args + ['serve', '--host', '127.0.0.1', '--port', str(port), '--db', db, '--quiet'],
                port=port)
        try:
            r = ctx.request('GET', '/groups/' + name, server=s)
            _expect_group(ctx, r, name, 1, body, 'GET on a read-only database')
            ctx.expect(r.body == stored, 'GET body differs from the PUT answer:\n%r\n%r' % (r.body, stored))
            scene = {'container': {'width': 400, 'height': 300}, 'views': ['a'],
                     'constraints': ['H:|-[a]', 'V:|-[a(==50)]'], 'groups': [name]}
            first = ctx.solve(scene, server=s)
            ctx.expect_status(first, 200, 'solve on a read-only database')
            ctx.expect_equal(first.json()['frames']['a']['width'], 120, 'width from the group')
            ctx.expect_equal(first.headers.get('cache-status'), 'layoutd; fwd=miss',
                             'Cache-Status on a read-only database (the result cannot be stored)')
            again = ctx.solve(scene, server=s)
            ctx.expect_status(again, 200, 'second solve on a read-only database')
            ctx.expect(again.body == first.body, 'second solve differs:\n%r\n%r' % (again.body, first.body))
            for method, payload in (('PUT', {'constraints': ['a.width == 1']}), ('DELETE', None)):
                r = ctx.request(method, '/groups/' + name, payload, server=s)
                doc = _problem(ctx, r, 503, 'service-unavailable', 'Service Unavailable',
                               '%s on a read-only database' % method)
                ctx.expect('read-only' in doc['detail'], '%s: detail %r' % (method, doc['detail']))
                ra = r.headers.get('retry-after', '')
                ctx.expect(ra.isdigit(), '%s: Retry-After %r is not a number of seconds' % (method, ra))
            r = ctx.request('PUT', '/groups/new-one', body, server=s)
            _problem(ctx, r, 503, 'service-unavailable', 'Service Unavailable', 'PUT of a new group')
            r = ctx.request('GET', '/groups/' + name, server=s)
            ctx.expect(r.status == 200 and r.body == stored, 'group after the refused writes: %r' % r)
            ctx.expect_status(ctx.request('GET', '/groups/new-one', server=s), 404, 'the refused new group')
        finally:
            code = s.stop()
        ctx.expect_equal(code, 0, 'exit status after SIGTERM (read-only)')
        with open(log, 'rb') as fh:
            text = fh.read().decode('utf-8', 'replace')
        ctx.expect('is read-only' in text, 'no read-only warning at start-up: %r' % text[-400:])
        ctx.expect_equal(_sha256(db), before, 'SHA-256 of the read-only database')
    finally:
        os.chmod(data, 0o755)
        shutil.rmtree(root, ignore_errors=True)


@check('store/busy-database', needs='binary')
def busy_database(ctx):
    """Another process holds the write lock (BEGIN EXCLUSIVE) beyond --busy-timeout 0.5: PUT
    is 503 with Retry-After and reads still answer; once released, the PUT succeeds."""
    db = os.path.join(ctx.workdir, 'busy.db')
    name = 'locked'
    s = _server(ctx, db, ['--busy-timeout', '0.5'])
    holder = None
    try:
        r = ctx.request('PUT', '/groups/' + name, _body(1), server=s)
        ctx.expect_status(r, 201, 'PUT before the lock')
        holder = sqlite3.connect(db, isolation_level=None, timeout=5)
        holder.execute('BEGIN EXCLUSIVE')
        r = ctx.request('PUT', '/groups/' + name, _body(2), server=s)
        doc = _problem(ctx, r, 503, 'service-unavailable', 'Service Unavailable', 'PUT while locked')
        ctx.expect('busy' in doc['detail'], 'detail %r' % doc['detail'])
        ra = r.headers.get('retry-after', '')
        ctx.expect(ra.isdigit(), 'Retry-After %r is not a number of seconds' % ra)
        r = ctx.request('DELETE', '/groups/' + name, server=s)
        _problem(ctx, r, 503, 'service-unavailable', 'Service Unavailable', 'DELETE while locked')
        _expect_group(ctx, ctx.request('GET', '/groups/' + name, server=s), name, 1, _body(1),
                      'GET while locked')
        holder.execute('ROLLBACK')
        holder.close()
        holder = None
        r = ctx.request('PUT', '/groups/' + name, _body(2), server=s)
        ctx.expect_status(r, 200, 'PUT after the lock was released')
        ctx.expect_equal(r.json()['version'], 2, 'version after the refused writes')
        _expect_group(ctx, ctx.request('GET', '/groups/' + name, server=s), name, 2, _body(2),
                      'GET after the lock')
    finally:
        if holder is not None:
            holder.close()
        s.stop()


@check('store/disk-full', needs='binary')
def disk_full(ctx):
    """The database on a 1 MiB tmpfs filled by another file: a PUT smaller than the cached
    answers succeeds (the cache is emptied to make room, counted in /metrics and reported
    once on stderr); a large PUT is 507 and the previous version stays; once space is
    freed, the PUT succeeds as the next version."""
    folder = tempfile.mkdtemp(prefix='full-', dir=ctx.workdir)
    mnt = os.path.join(folder, 'mnt')
    os.mkdir(mnt)
    p = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mnt],
                       capture_output=True, timeout=20)
    if p.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise CheckFailed('cannot mount a 1 MiB tmpfs for the full-disk check (needs root or '
                          'CAP_SYS_ADMIN): %s' % p.stderr.decode('utf-8', 'replace').strip())
    s = None
    try:
        db = os.path.join(mnt, 'full.db')
        name = 'kept'
        small = _body(1)
        # A reserve of 256 KiB (the default 4 MiB does not fit on this disk).
        s = Server(ctx.binary, db, ['--quiet', '--disk-reserve-bytes', '262144'],
                   log_path=os.path.join(folder, 'full.log'),
                   startup_seconds=ctx.args.startup_timeout).start()
        r = ctx.request('PUT', '/groups/' + name, small, server=s)
        ctx.expect_status(r, 201, 'PUT on an empty disk')
        # 513 unique answers: one more than the write-behind batch, so all are written.
        cached = 0
        for i in range(513):
            scene = {'container': {'width': 1000 + i, 'height': 480}, 'views': ['a', 'b'],
                     'constraints': ['H:|-[a]-[b(==a)]-|', 'V:|-[a]-|', 'V:|-[b]-|']}
            r = ctx.solve(scene, server=s, validate=False)
            ctx.expect_equal(r.headers.get('cache-status'), STORED, 'unique answer %d' % i)
            cached += len(r.body)
        # A restart checkpoints the -wal file into the database, as a running server does
        # every 1,000 pages: the full disk then meets a database in its steady state.
        s.stop()
        s = Server(ctx.binary, db, ['--quiet', '--disk-reserve-bytes', '262144'],
                   log_path=os.path.join(folder, 'full.log'),
                   startup_seconds=ctx.args.startup_timeout).start()
        filler = os.path.join(mnt, 'filler')
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            chunk = b'\0' * 4096
            while True:
                try:
                    os.write(fd, chunk)
                except OSError:   # ENOSPC: the disk is full
                    break
        finally:
            os.close(fd)
        # A PUT smaller than the cached answers: the cache is emptied to make room, and it
        # succeeds on its retry.
        medium = {'constraints': ['a.width == m0000'],
                  'metrics': {'m%04d_%s' % (i, 'x' * 24): i for i in range(cached // 80)}}
        r = ctx.request('PUT', '/groups/' + name, medium, server=s)
        ctx.expect_status(r, 200, 'a PUT of about %d bytes on a full disk holding %d bytes of answers'
                          % (len(json.dumps(medium)), cached))
        ctx.expect_equal(r.json()['version'], 2, 'version of the PUT that freed the cache')
        r = ctx.solve({'container': {'width': 1000, 'height': 480}, 'views': ['a', 'b'],
                       'constraints': ['H:|-[a]-[b(==a)]-|', 'V:|-[a]-|', 'V:|-[b]-|']}, server=s)
        ctx.expect_equal(r.headers.get('cache-status'), STORED, 'the first answer after the cache was emptied')
        r = ctx.request('GET', '/metrics', server=s)
        ctx.expect('\nlayoutd_store_disk_full_total 1\n' in r.body.decode(), 'disk-full counter after the retry')
        r = ctx.request('GET', '/groups/' + name, server=s)
        stored = r.body
        os.remove(filler)
        r = ctx.request('PUT', '/groups/' + name, small, server=s)
        ctx.expect_status(r, 200, 'PUT back to the small body')
        stored = r.body
        filler = os.path.join(mnt, 'filler')
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            chunk = b'\0' * 4096
            while True:
                try:
                    os.write(fd, chunk)
                except OSError:   # ENOSPC: the disk is full
                    break
        finally:
            os.close(fd)
        # ~600 KB of metrics: more than any space SQLite's files already hold
        large = {'constraints': ['a.width == m00000'],
                 'metrics': {'m%05d_%s' % (i, 'x' * 24): i for i in range(20000)}}
        r = ctx.request('PUT', '/groups/' + name, large, server=s)
        _problem(ctx, r, 507, 'insufficient-storage', 'Insufficient Storage', 'large PUT on a full disk')
        r = ctx.request('GET', '/groups/' + name, server=s)
        ctx.expect(r.status == 200 and r.body == stored, 'group after the 507: %r' % r)
        r = ctx.request('GET', '/groups/%s/versions' % name, server=s)
        ctx.expect_equal([v['version'] for v in r.json()['versions']], [1, 2, 3], 'versions after the 507')
        # The medium PUT met the full disk once; the large one twice (the first try and the
        # retry after emptying the cache).
        r = ctx.request('GET', '/metrics', server=s)
        ctx.expect('\nlayoutd_store_disk_full_total 3\n' in r.body.decode(), 'disk-full counter after the 507')
        with open(os.path.join(folder, 'full.log'), 'rb') as fh:
            reports = [line for line in fh.read().decode('utf-8', 'replace').splitlines() if 'SQLITE_FULL' in line]
        # Once per run of full-disk writes: the medium PUT's, then the large PUT's (a write
        # succeeded in between).
        ctx.expect_equal(len(reports), 2, 'full-disk reports on stderr: %r' % reports)
        os.remove(filler)
        r = ctx.request('PUT', '/groups/' + name, large, server=s)
        ctx.expect_status(r, 200, 'large PUT after freeing space')
        ctx.expect_equal(r.json()['version'], 4, 'version after the 507')
        r = ctx.request('GET', '/groups/' + name, server=s)
        ctx.expect_equal(r.json()['metrics'], large['metrics'], 'large metrics stored')
    finally:
        if s is not None:
            s.stop()
        u = subprocess.run(['umount', mnt], capture_output=True, timeout=20)
        if u.returncode != 0:
            subprocess.run(['umount', '-l', mnt], capture_output=True, timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- limits

@check('store/limits', needs='binary')
def limits(ctx):
    """Names of 128 characters are fine, 129 are 400; --max-group-constraints and --max-groups
    are 422 limit_exceeded; constraints that do not parse are 422 naming group:NAME/INDEX; none
    of the refused groups is stored."""
    s = _server(ctx, os.path.join(ctx.workdir, 'limits.db'),
                ['--max-groups', '3', '--max-group-constraints', '4'])
    try:
        def put(name, body):
            return ctx.request('PUT', '/groups/' + name, body, server=s)

        long_name = 'n' + 'x' * 127
        r = put(long_name + 'x', {'constraints': []})
        _problem(ctx, r, 400, 'bad-request', 'Bad Request', 'a name of 129 characters')
        ctx.expect_status(ctx.request('GET', '/groups', server=s), 200, 'list')
        ctx.expect_equal(ctx.request('GET', '/groups', server=s).json()['groups'], [], 'groups after a 400')
        r = put(long_name, {'constraints': []})
        ctx.expect_status(r, 201, 'a name of 128 characters')
        ctx.expect_equal(r.json()['name'], long_name, 'stored name')

        four = {'constraints': ['a.width == %d' % i for i in range(4)], 'metrics': {}}
        ctx.expect_status(put('four', four), 201, '4 constraints (the limit)')
        five = {'constraints': ['a.width == %d' % i for i in range(5)]}
        r = put('five', five)
        doc = _problem(ctx, r, 422, 'unprocessable-scene', 'The group cannot be stored', '5 constraints')
        d = ctx.expect_diagnostic(doc, 'limit_exceeded', path='$.constraints', severity='error')
        ctx.expect('maxGroupConstraints' in d.get('message', ''), 'message %r names no limit' % d)
        ctx.expect_equal(len(doc['diagnostics']), 1, 'diagnostics of the 5-constraint group')
        ctx.expect_status(ctx.request('GET', '/groups/five', server=s), 404, 'GET five')
        r = put('four', five)
        _problem(ctx, r, 422, 'unprocessable-scene', 'The group cannot be stored', 'replacing with 5')
        _expect_group(ctx, ctx.request('GET', '/groups/four', server=s), 'four', 1, four, 'four after a 422')

        # constraints that do not parse: one diagnostic each, at its index
        bad = {'constraints': ['a.width == 1', 'H:|-[a', 'a.width == == 2']}
        r = put('bad', bad)
        doc = _problem(ctx, r, 422, 'unprocessable-scene', 'The group cannot be stored', 'unparsable group')
        ctx.expect_equal(sorted((d['code'], d.get('constraint')) for d in doc['diagnostics']),
                         [('equation_syntax', 'group:bad/2'), ('vfl_syntax', 'group:bad/1')],
                         'diagnostics of the unparsable group')
        ctx.expect_diagnostic(doc, 'vfl_syntax', constraint='group:bad/1', column=6, source='H:|-[a')
        ctx.expect_status(ctx.request('GET', '/groups/bad', server=s), 404, 'GET bad')

        ctx.expect_status(put('third', {'constraints': []}), 201, 'the third group (the limit)')
        r = put('fourth', {'constraints': []})
        message = "The store's limit is reached: maxGroups (3 groups): raise it with --max-groups"
        doc = _problem(ctx, r, 422, 'unprocessable-scene', 'The group cannot be stored', 'a fourth group')
        ctx.expect_equal(doc, {'type': 'urn:layoutd:problem:unprocessable-scene',
                               'title': 'The group cannot be stored', 'status': 422,
                               'detail': message,
                               'diagnostics': [{'code': 'limit_exceeded', 'severity': 'error',
                                                'message': message}]},
                         'a fourth group')
        ctx.expect_status(ctx.request('GET', '/groups/fourth', server=s), 404, 'GET fourth')
        ctx.expect_status(put('third', {'constraints': ['a.width == 3']}), 200,
                          'replacing a group at the limit')
        ctx.expect_status(ctx.request('DELETE', '/groups/third', server=s), 204, 'DELETE third')
        ctx.expect_status(put('fourth', {'constraints': []}), 201, 'a group after a DELETE')
        listed = [g['name'] for g in ctx.request('GET', '/groups', server=s).json()['groups']]
        ctx.expect_equal(listed, sorted(['four', 'fourth', long_name]), 'groups at the end')
    finally:
        s.stop()


@check('store/limits-across-restart', needs='binary')
def limits_across_restart(ctx):
    """The result cache outlives a restart, but not across other answer-shaping limits: a
    `sizes` answer stored under `--max-solver-work 5` (each layout limit_exceeded) is not
    served after a restart with the default limit (every size framed), and one stored under
    the defaults is not served after a restart with `--max-solver-work 5` or
    `--max-response-bytes 100` (422 limit_exceeded, as with no-cache); each configuration
    still hits its own entries."""
    constraints = ['H:|-[red]-[green(==red)]-|', 'V:|-[red]-|', 'V:|-[green]-|']
    sized = {'views': ['red', 'green'], 'constraints': constraints,
             'sizes': [{'width': w, 'height': 50} for w in (100, 200, 300)]}
    scene = {'container': {'width': 320, 'height': 480}, 'views': ['red', 'green'], 'constraints': constraints}
    tight = ['--max-solver-work', '5']

    def run(db, args, body, expect):
        s = _server(ctx, db, args)
        try:
            return expect(s, ctx.solve(body, server=s))
        finally:
            s.stop()

    def layouts(r):
        return [(l.get('frames', {}).get('red', {}).get('width'), [d['code'] for d in l['diagnostics']])
                for l in r.json()['layouts']]

    db = os.path.join(ctx.workdir, 'limits-restart-a.db')
    def tight_sizes(s, r):
        ctx.expect_status(r, 200, 'sizes under --max-solver-work 5')
        ctx.expect_equal(layouts(r), [(None, ['limit_exceeded'])] * 3, 'sizes under --max-solver-work 5')
        return r.headers.get('cache-status')
    ctx.expect_equal(run(db, tight, sized, tight_sizes), STORED, 'first tight solve: Cache-Status')
    def default_sizes(s, r):
        ctx.expect_status(r, 200, 'sizes after a restart with the default limit')
        ctx.expect_equal(layouts(r), [(26, []), (76, []), (126, [])], 'sizes after a restart with the default limit')
        ctx.expect_equal(r.headers.get('cache-status'), STORED, 'after a restart with the default limit: Cache-Status')
    run(db, [], sized, default_sizes)
    ctx.expect_equal(run(db, tight, sized, tight_sizes), HIT, 'tight again: Cache-Status')

    db = os.path.join(ctx.workdir, 'limits-restart-b.db')
    def framed(s, r):
        ctx.expect_status(r, 200, 'default limits')
        ctx.expect_equal(r.json()['frames']['red']['width'], 136, 'width of red')
        return r.headers.get('cache-status')
    ctx.expect_equal(run(db, [], scene, framed), STORED, 'first default solve: Cache-Status')
    for args in (tight, ['--max-response-bytes', '100']):
        def refused(s, r):
            doc = _problem(ctx, r, 422, 'unprocessable-scene', 'The scene cannot be laid out', ' '.join(args))
            ctx.expect_diagnostic(doc, 'limit_exceeded')
            ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss', ' '.join(args) + ': Cache-Status')
            fresh = ctx.solve(scene, headers={'Cache-Control': 'no-cache'}, server=s)
            ctx.expect_equal(r.body, fresh.body, ' '.join(args) + ': the no-cache answer')
        run(db, args, scene, refused)
    ctx.expect_equal(run(db, [], scene, framed), HIT, 'default again: Cache-Status')
