"""Replicas (`replicas-pg/*`, `replicas-sqlite/*`): several `layoutd serve` processes on one group store answer as
one. With PostgreSQL (`--db postgres://…`): three replicas started at once on a fresh
database; read-your-writes across replicas with warm caches; ETags and `If-Match` across
replicas; DELETE seen everywhere; concurrent PUTs through all three (distinct, contiguous
versions, none lost); the group count limit exact across replicas; kill -9 of a replica
during writes (every acknowledged write readable through another); PostgreSQL stopped
(`/readyz` 503, group reads and writes and scenes with unversioned groups 503 with
`Retry-After`, scenes without groups and with versions pinned in memory 200) and started
again (recovery within 15 s, no restart of layoutd). With SQLite: the same read-your-writes
through two processes on one file, and three processes started at once on a new file.

The PostgreSQL checks share one throwaway cluster, started on first use by
`scripts/pg-test-cluster.sh --control` (Debian's `postgresql`; `initdb` into a temporary
folder, a free loopback port) and stopped and removed when the run ends; each check creates
a database of its own. The cluster is always this suite's own, also when
LAYOUTD_TEST_PG_URL is set, because the outage check stops and starts it.
"""
import http.client
import os
import shutil
import subprocess
import threading
import time

import pg_cluster
from harness import CheckFailed, Server, check, free_port

HIT = 'layoutd; hit'
RECOVERY_SECONDS = 15        # recovery after PostgreSQL returns, without a restart of layoutd
READY_SECONDS = 30           # a replica's first /readyz 200 after it starts (migration included)


# ---------------------------------------------------------------- replicas

class _Replicas:
    """Servers of one check (stopped together by `stop_all`)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.servers = []

    def prepare(self, name, db, extra_args=()):
        """A server that will run `serve --db DB --quiet EXTRA` on a free port (not started)."""
        s = Server(self.ctx.binary, os.path.join(self.ctx.workdir, name + '.db'),
                   startup_seconds=self.ctx.args.startup_timeout)
        s.port = free_port()
        s.args = ['serve', '--host', '127.0.0.1', '--port', str(s.port), '--db', db,
                  '--quiet'] + list(extra_args)
        s.name = name
        self.servers.append(s)
        return s

    def start_at_once(self, servers):
        """Start `servers` at the same moment (one thread each, released together); each is
        started when its /healthz answers 200."""
        barrier = threading.Barrier(len(servers))
        errors = []

        def run(s):
            try:
                barrier.wait(timeout=30)
                s.start(args=s.args, port=s.port)
            except Exception as e:   # reported below
                errors.append('%s: %s' % (s.name, e))

        threads = [threading.Thread(target=run, args=(s,)) for s in servers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=self.ctx.args.startup_timeout + 40)
        if errors or any(t.is_alive() for t in threads):
            raise CheckFailed('replicas did not all start: %s' % ('; '.join(sorted(errors)) or 'timeout'))

    def wait_ready(self, servers, seconds=READY_SECONDS):
        """Every server answers GET /readyz 200 within `seconds`."""
        deadline = time.monotonic() + seconds
        waiting = list(servers)
        last = {}
        while waiting and time.monotonic() < deadline:
            for s in list(waiting):
                try:
                    r = self.ctx.request('GET', '/readyz', server=s)
                    last[s.name] = r.status
                    if r.status == 200:
                        waiting.remove(s)
                except OSError as e:
                    last[s.name] = str(e)
            if waiting:
                time.sleep(0.1)
        if waiting:
            raise CheckFailed('not ready within %ds: %s (last /readyz %r); log: %s'
                              % (seconds, [s.name for s in waiting], last, waiting[0].log_tail()))

    def stop_all(self):
        for s in self.servers:
            s.stop()


def _pg_trio(ctx, label, extra_args=()):
    """Three replicas on a new database of the cluster, started at once and ready."""
    url = pg_cluster.cluster(ctx).create_database(label.replace('-', '_'))
    group = _Replicas(ctx)
    servers = [group.prepare('%s-%d' % (label, i + 1), url, extra_args) for i in range(3)]
    try:
        group.start_at_once(servers)
        group.wait_ready(servers)
    except Exception:
        group.stop_all()
        raise
    return group, servers, url


def _kill9(server):
    if server.proc is not None and server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait(timeout=15)
    return server.stop()


# ---------------------------------------------------------------- shared assertions

def _pad_group(pad):
    """A group that puts `a` at x = pad (a metric, so the scene's text never changes)."""
    return {'constraints': ['H:|-pad-[a]'], 'metrics': {'pad': pad}}


def _pad_scene(name, width=400):
    return {'container': {'width': width, 'height': 300}, 'views': ['a'],
            'constraints': ['H:[a(==100)]', 'V:|-[a(==50)]'], 'groups': [name]}


def _expect_x(ctx, resp, pad, what):
    ctx.expect_status(resp, 200, what)
    f = resp.json()['frames']['a']
    ctx.expect_equal((f['x'], f['y'], f['width'], f['height']), (pad, 20, 100, 50), what + ': frame of a')


def _expect_unavailable(ctx, resp, what, retry_after='5'):
    """A 503 problem with `Retry-After` (PostgreSQL away: 5 seconds)."""
    ctx.expect_status(resp, 503, what)
    ctx.expect_equal(resp.headers.get('content-type', '').split(';')[0], 'application/problem+json',
                     what + ': Content-Type')
    ctx.expect_equal(resp.json().get('status'), 503, what + ': problem status')
    ctx.expect_equal(resp.headers.get('retry-after'), retry_after, what + ': Retry-After')


def _expect_unknown_group(ctx, resp, what):
    ctx.expect_status(resp, 422, what)
    ctx.expect_diagnostic(resp.json(), 'unknown_group')
    ctx.expect(resp.headers.get('cache-status') != HIT, what + ': answered from a cache')


def _read_your_writes(ctx, servers, name, rounds):
    """Each round: every reader solves the scene at two widths (a miss, then a hit: the
    caches are warm); one replica (in turn) PUTs a new pad; every other replica's very next
    answer, at both widths, and its GET, are the new version's; a pinned `@1` keeps v1's
    pad. Then a DELETE through one is 422 `unknown_group` and 404 through every other, and a
    PUT after it continues the version numbers."""
    pads = [12 + 7 * i for i in range(rounds + 1)]
    path = '/groups/' + name
    r = ctx.request('PUT', path, _pad_group(pads[0]), server=servers[0])
    ctx.expect_status(r, 201, 'PUT v1 through %s' % servers[0].name)
    pinned = dict(_pad_scene(name), groups=[name + '@1'])
    for i in range(rounds):
        writer = servers[i % len(servers)]
        readers = [s for s in servers if s is not writer]
        for s in servers:
            for width in (400, 500):
                first = ctx.solve(_pad_scene(name, width), server=s)
                _expect_x(ctx, first, pads[i], 'round %d, v%d through %s at %d' % (i, i + 1, s.name, width))
                again = ctx.solve(_pad_scene(name, width), server=s)
                _expect_x(ctx, again, pads[i], 'round %d, again through %s at %d' % (i, s.name, width))
                ctx.expect_equal(again.headers.get('cache-status'), HIT,
                                 'round %d, second solve through %s at %d: Cache-Status' % (i, s.name, width))
        r = ctx.request('PUT', path, _pad_group(pads[i + 1]), server=writer)
        ctx.expect_status(r, 200, 'round %d: PUT v%d through %s' % (i, i + 2, writer.name))
        ctx.expect_equal(r.headers.get('etag'), '"%d"' % (i + 2), 'round %d: ETag of the PUT' % i)
        for s in readers:
            for width in (400, 500):
                r = ctx.solve(_pad_scene(name, width), server=s)
                _expect_x(ctx, r, pads[i + 1], 'round %d: the first solve through %s at %d after %s\'s PUT'
                          % (i, s.name, width, writer.name))
                ctx.expect(r.headers.get('cache-status') != HIT,
                           'round %d: a hit through %s right after a new version' % (i, s.name))
            g = ctx.request('GET', path, server=s)
            ctx.expect_status(g, 200, 'round %d: GET through %s' % (i, s.name))
            ctx.expect_equal((g.json()['version'], g.json()['metrics'], g.headers.get('etag')),
                             (i + 2, {'pad': pads[i + 1]}, '"%d"' % (i + 2)),
                             'round %d: GET through %s' % (i, s.name))
            _expect_x(ctx, ctx.solve(pinned, server=s), pads[0], 'round %d: %s@1 through %s' % (i, name, s.name))

    deleter = servers[-1]
    ctx.expect_status(ctx.request('DELETE', path, server=deleter), 204, 'DELETE through %s' % deleter.name)
    for s in servers:
        _expect_unknown_group(ctx, ctx.solve(_pad_scene(name), server=s),
                              'solve through %s after the DELETE' % s.name)
        _expect_unknown_group(ctx, ctx.solve(_pad_scene(name, 500), server=s),
                              'solve at 500 through %s after the DELETE' % s.name)
        ctx.expect_status(ctx.request('GET', path, server=s), 404, 'GET through %s after the DELETE' % s.name)
    r = ctx.request('PUT', path, _pad_group(3), server=servers[0])
    ctx.expect_status(r, 201, 'PUT after the DELETE')
    ctx.expect_equal(r.json()['version'], rounds + 2, 'version after the DELETE (never reused)')
    for s in servers:
        _expect_x(ctx, ctx.solve(_pad_scene(name), server=s), 3, 'solve through %s after the new PUT' % s.name)


# ---------------------------------------------------------------- PostgreSQL

@check('replicas-pg/start-at-once', needs='binary')
def pg_start_at_once(ctx):
    """Three `serve --db postgres://…` started at the same moment on an empty database all
    become ready (the schema is made once, under the advisory lock), and a group written
    through one is listed by the others; three trials, a new database each."""
    for trial in range(3):
        group, servers, _ = _pg_trio(ctx, 'start-at-once')
        try:
            for s in servers:
                ctx.expect_equal(ctx.request('GET', '/groups', server=s).json()['groups'], [],
                                 'trial %d: groups of a new database through %s' % (trial + 1, s.name))
            writer = servers[trial % 3]
            ctx.expect_status(ctx.request('PUT', '/groups/first', {'constraints': []}, server=writer),
                              201, 'trial %d: PUT through %s' % (trial + 1, writer.name))
            for s in servers:
                listed = [(g['name'], g['version'])
                          for g in ctx.request('GET', '/groups', server=s).json()['groups']]
                ctx.expect_equal(listed, [('first', 1)], 'trial %d: groups through %s' % (trial + 1, s.name))
        finally:
            group.stop_all()


@check('replicas-pg/read-your-writes', needs='binary')
def pg_read_your_writes(ctx):
    """Three replicas, caches warm (each solves at two widths twice, the second a hit): a PUT
    through one is the very next answer of the other two (frames, GET and ETag), six times,
    each replica writing in turn; `@1` stays v1; a DELETE through one is 422 unknown_group
    and 404 through all; a PUT after it continues the versions."""
    group, servers, _ = _pg_trio(ctx, 'ryw')
    try:
        _read_your_writes(ctx, servers, 'row', rounds=6)
    finally:
        group.stop_all()


@check('replicas-pg/etag-across-replicas', needs='binary')
def pg_etag_across_replicas(ctx):
    """An ETag from one replica is a precondition on the others: replace with another
    replica's ETag (200, the next version); a stale If-Match is 412 through any replica and
    changes nothing; If-None-Match: * on an existing group is 412; If-Match of a deleted
    group is 412."""
    group, (a, b, c), _ = _pg_trio(ctx, 'etag')
    path = '/groups/tagged'
    try:
        r = ctx.request('PUT', path, _pad_group(1), {'If-None-Match': '*'}, server=a)
        ctx.expect_status(r, 201, 'create through a')
        ctx.expect_equal(r.headers.get('etag'), '"1"', 'ETag from a')
        g = ctx.request('GET', path, server=b)
        ctx.expect_equal(g.headers.get('etag'), '"1"', 'ETag through b')
        r = ctx.request('PUT', path, _pad_group(2), {'If-Match': g.headers['etag']}, server=b)
        ctx.expect_status(r, 200, "replace through b with a's ETag")
        ctx.expect_equal(r.headers.get('etag'), '"2"', 'ETag of the replacement')
        for s in (c, a, b):
            r = ctx.request('PUT', path, _pad_group(99), {'If-Match': '"1"'}, server=s)
            ctx.expect_status(r, 412, 'stale If-Match "1" through %s' % s.name)
        r = ctx.request('PUT', path, _pad_group(3), {'If-Match': '"2"'}, server=c)
        ctx.expect_status(r, 200, "replace through c with b's ETag")
        ctx.expect_equal(r.headers.get('etag'), '"3"', 'ETag of the second replacement')
        r = ctx.request('PUT', path, _pad_group(99), {'If-None-Match': '*'}, server=b)
        ctx.expect_status(r, 412, 'If-None-Match: * through b on an existing group')
        for s in (a, b, c):
            g = ctx.request('GET', path, server=s)
            ctx.expect_equal((g.json()['version'], g.json()['metrics'], g.headers.get('etag')),
                             (3, {'pad': 3}, '"3"'), 'the group through %s after the 412s' % s.name)
            _expect_x(ctx, ctx.solve(_pad_scene('tagged'), server=s), 3, 'solve through %s' % s.name)
        versions = [v['version'] for v in ctx.request('GET', path + '/versions', server=a).json()['versions']]
        ctx.expect_equal(versions, [1, 2, 3], 'versions (no 412 wrote one)')
        ctx.expect_status(ctx.request('DELETE', path, {'If-Match': '"3"'}, server=a), 204, 'DELETE through a')
        r = ctx.request('PUT', path, _pad_group(4), {'If-Match': '"3"'}, server=b)
        ctx.expect_status(r, 412, 'If-Match of the deleted version through b')
    finally:
        group.stop_all()


@check('replicas-pg/concurrent-puts', needs='binary')
def pg_concurrent_puts(ctx):
    """Three clients on each of three replicas PUT 10 distinct bodies each to one group at
    once: 90 answers, one 201, versions exactly 1..90 with no repeat; every replica lists
    those 90 versions and each holds the body its PUT sent."""
    group, servers, _ = _pg_trio(ctx, 'concurrent')
    name, each, per_replica = 'contended', 10, 3
    path = '/groups/' + name
    answers, errors = [], []
    lock = threading.Lock()

    def client(server, c):
        try:
            conn = ctx.connect(server)
            try:
                for k in range(each):
                    index = c * each + k
                    r = ctx.request('PUT', path, _pad_group(index), conn=conn)
                    with lock:
                        answers.append((r.status, r.json().get('version'), index, r.headers.get('etag')))
            finally:
                conn.close()
        except Exception as e:   # reported by the main thread
            with lock:
                errors.append('%s client %d: %s: %s' % (server.name, c, type(e).__name__, e))

    try:
        threads = [threading.Thread(target=client, args=(s, i * per_replica + c))
                   for i, s in enumerate(servers) for c in range(per_replica)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        ctx.expect(not any(t.is_alive() for t in threads), 'a client did not finish within 120 s')
        ctx.expect(not errors, '; '.join(sorted(errors)))
        total = len(threads) * each
        ctx.expect_equal(sorted(a[0] for a in answers), [200] * (total - 1) + [201], 'statuses (one creation)')
        by_version = {}
        for status, version, index, etag in answers:
            ctx.expect(version not in by_version, 'version %r answered twice' % version)
            by_version[version] = index
            ctx.expect_equal(etag, '"%s"' % version, 'ETag of version %s' % version)
        ctx.expect_equal(sorted(by_version), list(range(1, total + 1)), 'answered versions')
        for s in servers:
            r = ctx.request('GET', path + '/versions?limit=100', server=s)
            ctx.expect_status(r, 200, 'versions through %s' % s.name)
            ctx.expect_equal([v['version'] for v in r.json()['versions']], list(range(1, total + 1)),
                             'versions listed through %s' % s.name)
        for version in sorted(by_version):
            s = servers[version % 3]
            r = ctx.request('GET', '%s/versions/%d' % (path, version), server=s)
            ctx.expect_status(r, 200, 'version %d through %s' % (version, s.name))
            ctx.expect_equal(r.json()['metrics'], {'pad': by_version[version]},
                             'body of version %d through %s' % (version, s.name))
        last = by_version[total]
        for s in servers:
            _expect_x(ctx, ctx.solve(_pad_scene(name), server=s), last, 'solve through %s' % s.name)
    finally:
        group.stop_all()


@check('replicas-pg/group-limit-exact', needs='binary')
def pg_group_limit_exact(ctx):
    """With --max-groups 5 on three replicas, 4 clients on each creating groups of their own
    names at once: exactly 5 creations succeed (201), every other is 422 limit_exceeded, and
    every replica lists exactly the 5 created."""
    group, servers, _ = _pg_trio(ctx, 'limit', ['--max-groups', '5'])
    answers, errors = [], []
    lock = threading.Lock()

    def client(server, c):
        try:
            for k in range(3):
                name = 'g%02d-%d' % (c, k)
                r = ctx.request('PUT', '/groups/' + name, {'constraints': []}, server=server)
                with lock:
                    answers.append((name, r.status, r.body))
        except Exception as e:   # reported by the main thread
            with lock:
                errors.append('%s client %d: %s: %s' % (server.name, c, type(e).__name__, e))

    try:
        threads = [threading.Thread(target=client, args=(s, i * 4 + c))
                   for i, s in enumerate(servers) for c in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        ctx.expect(not errors, '; '.join(sorted(errors)))
        created = sorted(name for name, status, _ in answers if status == 201)
        ctx.expect_equal(len(created), 5, 'creations among %d (%r)' % (len(answers), created))
        for name, status, body in answers:
            if status != 201:
                ctx.expect_equal(status, 422, 'status of %s' % name)
                ctx.expect(b'maxGroups (5 groups)' in body, '%s: not the group limit: %r' % (name, body[:300]))
        for s in servers:
            listed = sorted(g['name'] for g in ctx.request('GET', '/groups', server=s).json()['groups'])
            ctx.expect_equal(listed, created, 'groups listed through %s' % s.name)
    finally:
        group.stop_all()


@check('replicas-pg/kill-9-during-writes', needs='binary')
def pg_kill9_during_writes(ctx):
    """Three writers through replica 1 and two through replica 2 (each to a group of its
    own, 60 PUTs each); replica 1 is killed with SIGKILL once it has acknowledged 30 writes,
    its writers mid-PUT, while replica 2's go on to the end. Every write any replica
    acknowledged (2xx) is readable through replica 3 with its body; each group's versions
    are contiguous from 1; replica 2 writes and replica 3 answers the new version after."""
    group, (a, b, c), _ = _pg_trio(ctx, 'kill9')
    acked = {}          # (group, version) -> pad
    errors = []
    lock = threading.Lock()
    a_acks = threading.Semaphore(0)

    def writer(server, name, on_a):
        conn = ctx.connect(server)
        try:
            for k in range(60):
                try:
                    r = ctx.request('PUT', '/groups/' + name, _pad_group(1000 + k), conn=conn)
                except (OSError, http.client.HTTPException):
                    if on_a:
                        return          # the replica is gone: unacknowledged, not an error
                    raise
                if r.status not in (200, 201):
                    raise CheckFailed('%s: PUT %s answered %d: %r' % (server.name, name, r.status, r.body[:200]))
                with lock:
                    acked[(name, r.json()['version'])] = 1000 + k
                if on_a:
                    a_acks.release()
        except Exception as e:   # reported by the main thread
            with lock:
                errors.append('%s %s: %s: %s' % (server.name, name, type(e).__name__, e))
        finally:
            conn.close()

    try:
        threads = [threading.Thread(target=writer, args=(a, 'ka%d' % i, True)) for i in range(3)]
        threads += [threading.Thread(target=writer, args=(b, 'kb%d' % i, False)) for i in range(2)]
        for t in threads:
            t.start()
        for _ in range(30):        # replica 1 has acknowledged 30 writes, and more are in flight
            if not a_acks.acquire(timeout=60):
                raise CheckFailed('replica 1 acknowledged fewer than 30 writes within 60 s: %s'
                                  % ('; '.join(sorted(errors)) or a.log_tail()))
        ctx.expect_equal(_kill9(a), -9, 'exit status of replica 1 after SIGKILL')
        for t in threads:
            t.join(timeout=60)
        ctx.expect(not any(t.is_alive() for t in threads), 'a writer did not finish within 60 s')
        ctx.expect(not errors, '; '.join(sorted(errors)))
        names = sorted({n for n, _ in acked})
        ctx.expect_equal(names, ['ka0', 'ka1', 'ka2', 'kb0', 'kb1'], 'groups with acknowledged writes')
        for name in names:
            r = ctx.request('GET', '/groups/%s/versions?limit=100' % name, server=c)
            ctx.expect_status(r, 200, 'versions of %s through replica 3' % name)
            listed = [v['version'] for v in r.json()['versions']]
            ctx.expect_equal(listed, list(range(1, len(listed) + 1)), 'versions of %s (contiguous)' % name)
            mine = sorted(v for n, v in acked if n == name)
            missing = sorted(set(mine) - set(listed))
            ctx.expect(not missing, 'acknowledged versions of %s missing through replica 3: %r' % (name, missing))
            for version in mine:
                g = ctx.request('GET', '/groups/%s/versions/%d' % (name, version), server=c)
                ctx.expect_status(g, 200, '%s version %d through replica 3' % (name, version))
                ctx.expect_equal(g.json()['metrics'], {'pad': acked[(name, version)]},
                                 '%s version %d through replica 3' % (name, version))
        r = ctx.request('PUT', '/groups/ka0', _pad_group(5), server=b)
        ctx.expect_status(r, 200, 'PUT through replica 2 after the kill')
        _expect_x(ctx, ctx.solve(_pad_scene('ka0'), server=c), 5, 'solve through replica 3 after the kill')
    finally:
        group.stop_all()


@check('replicas-pg/database-down', needs='binary')
def pg_database_down(ctx):
    """PostgreSQL stopped (`pg_ctl stop -m fast`) under three warm replicas: /healthz 200,
    /readyz 503 with Retry-After; PUT, DELETE, GET of a group, the group list and scenes with
    an unversioned group (/solve and /validate) 503 with `Retry-After: 5`; scenes without
    groups 200, a scene pinning a version the replica holds 200 (also at another size). A
    replica started while PostgreSQL is down is live but not ready and solves scenes without
    groups. PostgreSQL started again: within 15 s, without restarting layoutd, every replica
    (the late one too) is ready, writes, and answers the new version."""
    cluster = pg_cluster.cluster(ctx)
    group, servers, url = _pg_trio(ctx, 'down')
    name = 'outage'
    plain = {'container': {'width': 300, 'height': 200}, 'views': ['p'],
             'constraints': ['H:|-[p]-|', 'V:|-[p]-|']}
    pinned = dict(_pad_scene(name), groups=[name + '@1'])
    late = None
    try:
        ctx.expect_status(ctx.request('PUT', '/groups/' + name, _pad_group(11), server=servers[0]), 201, 'PUT v1')
        for s in servers:
            _expect_x(ctx, ctx.solve(_pad_scene(name), server=s), 11, 'warm-up through %s' % s.name)
            _expect_x(ctx, ctx.solve(pinned, server=s), 11, 'warm-up pinned through %s' % s.name)
            ctx.expect_status(ctx.solve(plain, server=s), 200, 'warm-up without groups through %s' % s.name)

        cluster.stop()
        for s in servers:
            ctx.expect_status(ctx.request('GET', '/healthz', server=s), 200, '/healthz through %s while down' % s.name)
            r = ctx.request('GET', '/readyz', server=s)
            ctx.expect_status(r, 503, '/readyz through %s while down' % s.name)
            ctx.expect(r.headers.get('retry-after', '').isdigit(), '/readyz 503 without Retry-After: %r' % r.headers)
            _expect_unavailable(ctx, ctx.request('PUT', '/groups/' + name, _pad_group(12), server=s),
                                'PUT through %s while down' % s.name)
            _expect_unavailable(ctx, ctx.request('PUT', '/groups/fresh', _pad_group(12), server=s),
                                'PUT of a new group through %s while down' % s.name)
            _expect_unavailable(ctx, ctx.request('DELETE', '/groups/' + name, server=s),
                                'DELETE through %s while down' % s.name)
            _expect_unavailable(ctx, ctx.request('GET', '/groups/' + name, server=s),
                                'GET of the group through %s while down' % s.name)
            _expect_unavailable(ctx, ctx.request('GET', '/groups', server=s),
                                'GET /groups through %s while down' % s.name)
            _expect_unavailable(ctx, ctx.solve(_pad_scene(name), server=s),
                                'solve with an unversioned group through %s while down' % s.name)
            _expect_unavailable(ctx, ctx.request('POST', '/validate', _pad_scene(name), server=s),
                                'validate with an unversioned group through %s while down' % s.name)
            r = ctx.solve(plain, server=s)
            ctx.expect_status(r, 200, 'solve without groups through %s while down' % s.name)
            ctx.expect_equal(r.json()['frames']['p'], {'x': 20, 'y': 20, 'width': 260, 'height': 160},
                             'frame of p through %s while down' % s.name)
            r = ctx.solve(dict(plain, container={'width': 333, 'height': 200}), server=s)
            ctx.expect_status(r, 200, 'an uncached solve without groups through %s while down' % s.name)
            ctx.expect_equal(r.json()['frames']['p']['width'], 293, 'width of p at 333 through %s' % s.name)
            _expect_x(ctx, ctx.solve(pinned, server=s), 11, '%s@1 (held) through %s while down' % (name, s.name))
            _expect_x(ctx, ctx.solve(dict(pinned, container={'width': 450, 'height': 300}), server=s), 11,
                      '%s@1 (held) at another size through %s while down' % (name, s.name))

        late = group.prepare('down-late', url)
        late.start(args=late.args, port=late.port)
        ctx.expect_status(ctx.request('GET', '/readyz', server=late), 503, '/readyz of a replica started while down')
        ctx.expect_status(ctx.solve(plain, server=late), 200, 'solve without groups through the late replica')

        cluster.start()
        deadline = time.monotonic() + RECOVERY_SECONDS
        everyone = servers + [late]
        pending = {s.name: 'not tried' for s in everyone}
        pad = 40
        while pending and time.monotonic() < deadline:
            for s in everyone:
                if s.name not in pending:
                    continue
                ready = ctx.request('GET', '/readyz', server=s)
                if ready.status != 200:
                    pending[s.name] = '/readyz %d' % ready.status
                    continue
                pad += 1
                w = ctx.request('PUT', '/groups/' + name, _pad_group(pad), server=s)
                if w.status != 200:
                    pending[s.name] = 'PUT %d' % w.status
                    continue
                answers = [ctx.solve(_pad_scene(name), server=t) for t in everyone]
                if any(a.status != 200 for a in answers):
                    pending[s.name] = 'solve %r' % [a.status for a in answers]
                    continue
                for t, a in zip(everyone, answers):
                    _expect_x(ctx, a, pad, 'solve through %s after %s wrote, PostgreSQL back' % (t.name, s.name))
                del pending[s.name]
            if pending:
                time.sleep(0.2)
        ctx.expect(not pending, 'not recovered within %ds after PostgreSQL started again: %r'
                   % (RECOVERY_SECONDS, pending))
        for s in everyone:
            ctx.expect(s.proc is not None and s.proc.poll() is None, '%s exited: %s' % (s.name, s.log_tail()))
    finally:
        if late is not None:
            late.stop()
        group.stop_all()
        cluster.ensure_running()


@check('replicas-pg/database-frozen', needs='binary')
def pg_database_frozen(ctx):
    """PostgreSQL frozen (`kill -STOP` of its processes: connections are accepted, nothing
    answers) under three warm replicas of `--workers 2 --db-timeout 2`: through each, a scene
    with an unversioned group is `503` with `Retry-After: 5` within the timeout (plus slack),
    a pinned version it holds is solved, and while six group requests are in flight a scene
    without groups, `/metrics`, `/openapi.yaml` and `/healthz` answer `200` within the slack;
    a PUT is `503`, never acknowledged; stderr says once that PostgreSQL is unreachable.
    Thawed (`kill -CONT`): within 15 s every replica solves the group again and says, once,
    that PostgreSQL answers again."""
    cluster = pg_cluster.cluster(ctx)
    timeout, slack = 2, 4
    group, servers, _ = _pg_trio(ctx, 'frozen', ['--workers', '2', '--db-timeout', str(timeout)])
    name = 'frozen'
    plain = {'container': {'width': 300, 'height': 200}, 'views': ['p'],
             'constraints': ['H:|-[p]-|', 'V:|-[p]-|']}
    pinned = dict(_pad_scene(name), groups=[name + '@1'])
    unreachable = 'PostgreSQL is unreachable'
    try:
        ctx.expect_status(ctx.request('PUT', '/groups/' + name, _pad_group(11), server=servers[0]), 201, 'PUT v1')
        for s in servers:
            _expect_x(ctx, ctx.solve(_pad_scene(name), server=s), 11, 'warm-up through %s' % s.name)
            _expect_x(ctx, ctx.solve(pinned, server=s), 11, 'warm-up pinned through %s' % s.name)
        cluster.freeze()
        for s in servers:
            start = time.monotonic()
            _expect_unavailable(ctx, ctx.solve(_pad_scene(name), server=s),
                                'solve with an unversioned group through %s while frozen' % s.name)
            took = time.monotonic() - start
            ctx.expect(took <= timeout + slack, '503 through %s after %.1f s (bound %d s)' % (s.name, took, timeout + slack))
            start = time.monotonic()
            _expect_x(ctx, ctx.solve(pinned, server=s), 11, '%s@1 (held) through %s while frozen' % (name, s.name))
            stuck = [threading.Thread(target=lambda: ctx.solve(_pad_scene(name), server=s)) for _ in range(6)]
            for t in stuck:
                t.start()
            time.sleep(0.2)
            r = ctx.solve(plain, server=s)
            ctx.expect_status(r, 200, 'solve without groups through %s while group requests wait' % s.name)
            ctx.expect_equal(r.json()['frames']['p'], {'x': 20, 'y': 20, 'width': 260, 'height': 160},
                             'frame of p through %s while frozen' % s.name)
            for path in ('/metrics', '/openapi.yaml', '/healthz'):
                ctx.expect_status(ctx.request('GET', path, server=s), 200, '%s through %s while frozen' % (path, s.name))
            took = time.monotonic() - start
            ctx.expect(took <= timeout + slack, 'answers without the database through %s took %.1f s (bound %d s)'
                       % (s.name, took, timeout + slack))
            for t in stuck:
                t.join(timeout=timeout + 30)
            _expect_unavailable(ctx, ctx.request('PUT', '/groups/' + name, _pad_group(12), server=s),
                                'PUT through %s while frozen' % s.name)
            lines = [line for line in s.log_tail(100000).splitlines() if unreachable in line]
            ctx.expect_equal(len(lines), 1, 'lines saying PostgreSQL is unreachable in %s\'s log' % s.name)
        cluster.thaw()
        deadline = time.monotonic() + RECOVERY_SECONDS
        pending = set(s.name for s in servers)
        while pending and time.monotonic() < deadline:
            for s in servers:
                if s.name in pending and ctx.solve(_pad_scene(name), server=s).status == 200:
                    pending.discard(s.name)
            if pending:
                time.sleep(0.2)
        ctx.expect(not pending, 'not solving the group within %ds after the thaw: %r' % (RECOVERY_SECONDS, sorted(pending)))
        for s in servers:
            _expect_x(ctx, ctx.solve(_pad_scene(name), server=s), 11, 'solve through %s after the thaw' % s.name)
            log = s.log_tail(100000)
            ctx.expect_equal(log.count('PostgreSQL answers again'), 1, '"answers again" lines in %s\'s log' % s.name)
    finally:
        cluster.thaw()
        group.stop_all()


@check('replicas-pg/history-pruned', needs='binary')
def pg_history_pruned(ctx):
    """--max-group-versions 3 on three replicas, five versions written through all of them
    in turn: every replica lists versions 3..5, answers a pruned version 404 saying so (and
    a version never written 404), serves a kept one, and a replica that never held `@1`
    answers a scene pinning it 422 unknown_group saying it was pruned."""
    group, servers, _ = _pg_trio(ctx, 'pruned', ['--max-group-versions', '3'])
    name = 'history'
    path = '/groups/' + name
    try:
        for i in range(5):
            r = ctx.request('PUT', path, _pad_group(30 + i), server=servers[i % 3])
            ctx.expect_status(r, 201 if i == 0 else 200, 'PUT v%d through %s' % (i + 1, servers[i % 3].name))
        for s in servers:
            r = ctx.request('GET', path + '/versions', server=s)
            ctx.expect_equal([v['version'] for v in r.json()['versions']], [3, 4, 5], 'versions through %s' % s.name)
            r = ctx.request('GET', path + '/versions/2', server=s)
            ctx.expect_status(r, 404, 'a pruned version through %s' % s.name)
            ctx.expect_equal(r.json()['detail'],
                             "Group '%s' version 2 was pruned: only the last 3 versions of a group are kept "
                             "(--max-group-versions); the oldest kept is 3" % name, 'detail through %s' % s.name)
            r = ctx.request('GET', path + '/versions/9', server=s)
            ctx.expect_equal((r.status, r.json()['detail']), (404, "Group '%s' has no version 9" % name),
                             'a version never written through %s' % s.name)
            r = ctx.request('GET', path + '/versions/3', server=s)
            ctx.expect_equal((r.status, r.json()['metrics']), (200, {'pad': 32}), 'version 3 through %s' % s.name)
            _expect_x(ctx, ctx.solve(dict(_pad_scene(name), groups=[name + '@4']), server=s), 33,
                      '%s@4 through %s' % (name, s.name))
            _expect_x(ctx, ctx.solve(_pad_scene(name), server=s), 34, '%s through %s' % (name, s.name))
            r = ctx.solve(dict(_pad_scene(name), groups=[name + '@1']), server=s)
            ctx.expect_status(r, 422, '%s@1 through %s' % (name, s.name))
            d = ctx.expect_diagnostic(r.json(), 'unknown_group')
            ctx.expect_equal(d.get('message'),
                             "Group '%s' version 1 was pruned: only the last 3 versions of a group are kept "
                             "(--max-group-versions); the oldest kept is 3 (included as '%s@1')" % (name, name),
                             'the pruned diagnostic through %s' % s.name)
    finally:
        group.stop_all()


@check('replicas-pg/configured-by-environment', needs='binary')
def pg_configured_by_environment(ctx):
    """`LAYOUTD_DB=postgres://user:password@…` (no --db) selects PostgreSQL and the
    password never reaches the log; `--db postgres:` takes every part from libpq's PG*
    variables, and `--db postgresql:///NAME` the host, port and user: all three replicas
    share the one database."""
    cluster = pg_cluster.cluster(ctx)
    url = cluster.create_database('environment')
    host_port = url.split('@', 1)[1].split('/', 1)[0]
    host, port = host_port.rsplit(':', 1)
    database = url.rsplit('/', 1)[1]
    secret = 'sekrit-%d' % os.getpid()
    group = _Replicas(ctx)
    by_env = group.prepare('env-layoutd-db', '-')
    by_env.args = [a for a in by_env.args if a not in ('--db', '-')]
    by_pg_vars = group.prepare('env-pg-vars', 'postgres:')
    by_url_path = group.prepare('env-url-path', 'postgresql:///' + database)
    pg_vars = {'PGHOST': host, 'PGPORT': port, 'PGUSER': 'postgres'}
    try:
        by_env.start(args=by_env.args, port=by_env.port,
                     env={'LAYOUTD_DB': 'postgres://postgres:%s@%s/%s' % (secret, host_port, database)})
        by_pg_vars.start(args=by_pg_vars.args, port=by_pg_vars.port, env=dict(pg_vars, PGDATABASE=database))
        by_url_path.start(args=by_url_path.args, port=by_url_path.port, env=pg_vars)
        servers = [by_env, by_pg_vars, by_url_path]
        group.wait_ready(servers)
        for i, s in enumerate(servers):
            r = ctx.request('PUT', '/groups/env%d' % i, _pad_group(i), server=s)
            ctx.expect_status(r, 201, 'PUT through %s' % s.name)
        for s in servers:
            listed = [(g['name'], g['version']) for g in ctx.request('GET', '/groups', server=s).json()['groups']]
            ctx.expect_equal(listed, [('env0', 1), ('env1', 1), ('env2', 1)], 'groups through %s' % s.name)
    finally:
        group.stop_all()
    with open(by_env.log_path, 'rb') as fh:
        log = fh.read()
    ctx.expect(b'listening on' in log, 'no start-up line in the log: %r' % log[-500:])
    ctx.expect(secret.encode() not in log, 'the password is in the log: %r' % log[-500:])


@check('replicas-pg/cache-db', needs='binary')
def pg_cache_db(ctx):
    """With a PostgreSQL --db, a replica writes no file by default (its result cache is in
    memory); `--cache-db FILE` keeps the results in FILE across a restart (a hit of the
    same version after it) and still answers a version written meanwhile through another
    replica at once."""
    url = pg_cluster.cluster(ctx).create_database('cache_db')
    quiet_dir = os.path.join(ctx.workdir, 'cache-db-none')
    os.mkdir(quiet_dir)
    cache_file = os.path.join(ctx.workdir, 'cache-db-file.db')
    group = _Replicas(ctx)
    writer = group.prepare('cache-db-writer', url)
    writer.db_path = os.path.join(quiet_dir, 'writer')          # its working directory
    writer.log_path = os.path.join(ctx.workdir, 'cache-db-writer.log')
    scene = _pad_scene('cached')
    try:
        writer.start(args=writer.args, port=writer.port)
        group.wait_ready([writer])
        ctx.expect_status(ctx.request('PUT', '/groups/cached', _pad_group(21), server=writer), 201, 'PUT v1')
        for attempt in ('stored', 'hit'):
            r = ctx.solve(scene, server=writer)
            _expect_x(ctx, r, 21, 'solve through the writer (%s)' % attempt)
        ctx.expect_equal(r.headers.get('cache-status'), HIT, 'second solve through the writer')
        ctx.expect_equal(sorted(os.listdir(quiet_dir)), [],
                         'files a PostgreSQL-backed replica wrote in its working directory')

        first = group.prepare('cache-db-first', url, ['--cache-db', cache_file])
        first.start(args=first.args, port=first.port)
        group.wait_ready([first])
        r = ctx.solve(scene, server=first)
        _expect_x(ctx, r, 21, 'first solve with --cache-db')
        ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss; stored', 'first solve with --cache-db')
        ctx.expect_equal(first.stop(), 0, 'exit status of a SIGTERM')
        ctx.expect(os.path.getsize(cache_file) > 0, 'no --cache-db file')

        again = group.prepare('cache-db-again', url, ['--cache-db', cache_file])
        again.start(args=again.args, port=again.port)
        group.wait_ready([again])
        r = ctx.solve(scene, server=again)
        _expect_x(ctx, r, 21, 'solve after a restart on the same --cache-db')
        ctx.expect_equal(r.headers.get('cache-status'), HIT, 'solve after a restart on the same --cache-db')
        ctx.expect_status(ctx.request('PUT', '/groups/cached', _pad_group(22), server=writer), 200, 'PUT v2')
        r = ctx.solve(scene, server=again)
        _expect_x(ctx, r, 22, 'solve through the restarted replica after the writer\'s PUT')
        ctx.expect(r.headers.get('cache-status') != HIT, 'a hit right after a new version')
    finally:
        group.stop_all()


@check('replicas-pg/export-sqlite-import-postgres', needs='binary')
def pg_export_import(ctx):
    """The way from SQLite to PostgreSQL: groups written through a SQLite-backed server, exported
    from its file and imported into a new PostgreSQL database, are served by two replicas
    on that database with the same versions, ETags and bodies; an ETag from the SQLite
    server continues on a replica; the PostgreSQL export equals the SQLite one."""
    source = os.path.join(ctx.workdir, 'way-over.db')
    s = Server(ctx.binary, source, ['--quiet'], startup_seconds=ctx.args.startup_timeout).start()
    try:
        for width, status in ((10, 201), (20, 200), (30, 200)):
            ctx.expect_status(ctx.request('PUT', '/groups/row', _pad_group(width), server=s), status, 'PUT row')
        ctx.expect_status(ctx.request('PUT', '/groups/Card', {'constraints': ['a.height == 5']}, server=s),
                          201, 'PUT Card')
        before = {n: ctx.request('GET', '/groups/' + n, server=s) for n in ('row', 'Card')}
    finally:
        s.stop()
    env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    exported = subprocess.run([ctx.binary, 'groups', 'export', '--db', source], capture_output=True,
                              timeout=60, env=env, cwd=ctx.workdir)
    ctx.expect_equal(exported.returncode, 0, 'export exit status (%r)' % exported.stderr[-300:])
    url = pg_cluster.cluster(ctx).create_database('way_over')
    imported = subprocess.run([ctx.binary, 'groups', 'import', '--db', url], input=exported.stdout,
                              capture_output=True, timeout=60, env=env, cwd=ctx.workdir)
    ctx.expect_equal(imported.returncode, 0, 'import exit status (%r)' % imported.stderr[-300:])
    again = subprocess.run([ctx.binary, 'groups', 'export', '--db', url], capture_output=True,
                           timeout=60, env=env, cwd=ctx.workdir)
    ctx.expect_equal(again.returncode, 0, 'PostgreSQL export exit status (%r)' % again.stderr[-300:])
    ctx.expect(again.stdout == exported.stdout, 'the PostgreSQL export differs:\n%r\n%r'
               % (again.stdout[:400], exported.stdout[:400]))
    group = _Replicas(ctx)
    servers = [group.prepare('way-over-%d' % (i + 1), url) for i in range(2)]
    try:
        group.start_at_once(servers)
        group.wait_ready(servers)
        for srv in servers:
            for n, answer in before.items():
                after = ctx.request('GET', '/groups/' + n, server=srv)
                ctx.expect_status(after, 200, 'GET %s through %s' % (n, srv.name))
                ctx.expect_equal(after.headers.get('etag'), answer.headers.get('etag'), 'ETag of %s' % n)
                ctx.expect(after.body == answer.body, 'body of %s through %s differs:\n%r\n%r'
                           % (n, srv.name, after.body, answer.body))
        r = ctx.request('PUT', '/groups/row', _pad_group(40), {'If-Match': before['row'].headers['etag']},
                        server=servers[1])
        ctx.expect_status(r, 200, "PUT with the SQLite server's ETag")
        ctx.expect_equal(r.headers.get('etag'), '"4"', 'next version after the import')
        _expect_x(ctx, ctx.solve(_pad_scene('row'), server=servers[0]), 40, 'solve through the other replica')
        _expect_x(ctx, ctx.solve(dict(_pad_scene('row'), groups=['row@2']), server=servers[0]), 20,
                  'an imported version pinned')
    finally:
        group.stop_all()


# ---------------------------------------------------------------- SQLite

@check('replicas-sqlite/read-your-writes', needs='binary')
def sqlite_read_your_writes(ctx):
    """Two processes on one SQLite file, caches warm: a PUT through one is the very next
    answer of the other (frames, GET, ETag), four times in turn; `@1` stays v1; a DELETE
    through one is 422 unknown_group and 404 through both; versions continue after it."""
    db = os.path.join(ctx.workdir, 'replicas-shared.db')
    group = _Replicas(ctx)
    servers = [group.prepare('sqlite-ryw-%d' % (i + 1), db) for i in range(2)]
    try:
        servers[0].start(args=servers[0].args, port=servers[0].port)
        servers[1].start(args=servers[1].args, port=servers[1].port)
        group.wait_ready(servers)
        _read_your_writes(ctx, servers, 'row', rounds=4)
    finally:
        group.stop_all()


@check('replicas-sqlite/start-at-once', needs='binary')
def sqlite_start_at_once(ctx):
    """Three processes started at the same moment on a new SQLite file all come up and are
    ready, five times (a new file each time); a group written through one is read through
    the other two."""
    for trial in range(5):
        db = os.path.join(ctx.workdir, 'replicas-new-%d.db' % trial)
        group = _Replicas(ctx)
        servers = [group.prepare('sqlite-start-%d-%d' % (trial, i + 1), db) for i in range(3)]
        try:
            try:
                group.start_at_once(servers)
            except CheckFailed as e:
                raise CheckFailed('trial %d: %s' % (trial + 1, e))
            group.wait_ready(servers)
            r = ctx.request('PUT', '/groups/g', _pad_group(trial), server=servers[trial % 3])
            ctx.expect_status(r, 201, 'trial %d: PUT' % (trial + 1))
            for s in servers:
                g = ctx.request('GET', '/groups/g', server=s)
                ctx.expect_status(g, 200, 'trial %d: GET through %s' % (trial + 1, s.name))
                ctx.expect_equal(g.json()['metrics'], {'pad': trial}, 'trial %d: GET through %s' % (trial + 1, s.name))
        finally:
            group.stop_all()


@check('replicas-sqlite/pinned-version-removed', needs='binary')
def sqlite_pinned_version_removed(ctx):
    """Two processes on one SQLite file: B solves and caches a scene pinning `row@1`; once A
    deletes the group, or prunes version 1 (`--max-group-versions 3`), B's very next answer
    for it is A's, 422 unknown_group (not from its front cache, with `Cache-Control:
    no-cache`, for a body it never saw, and on /validate); a write that keeps version 1
    changes nothing."""
    db = os.path.join(ctx.workdir, 'replicas-pinned.db')
    group = _Replicas(ctx)
    a, b = [group.prepare('sqlite-pinned-%d' % (i + 1), db, ['--max-group-versions', '3']) for i in range(2)]
    try:
        for s in (a, b):
            s.start(args=s.args, port=s.port)
        group.wait_ready([a, b])

        def pinned(name, width=400):
            scene = _pad_scene(name, width)
            scene['groups'] = [name + '@1']
            return scene

        def warm(name):
            _expect_x(ctx, ctx.solve(pinned(name), server=b), 12, '%s@1 through B' % name)
            r = ctx.solve(pinned(name), server=b)
            _expect_x(ctx, r, 12, '%s@1 through B again' % name)
            ctx.expect_equal(r.headers.get('cache-status'), HIT, '%s@1 through B again: Cache-Status' % name)
            ctx.expect_equal(ctx.request('POST', '/validate', pinned(name), server=b).json()['valid'], True,
                             '%s@1 valid through B' % name)

        def removed(name, message):
            for what, r in [('front', ctx.solve(pinned(name), server=b)),
                            ('no-cache', ctx.solve(pinned(name), headers={'Cache-Control': 'no-cache'}, server=b)),
                            ('new body', ctx.solve(pinned(name, 450), server=b)),
                            ('through A', ctx.solve(pinned(name), server=a))]:
                _expect_unknown_group(ctx, r, '%s@1 %s' % (name, what))
                ctx.expect_equal(r.json()['diagnostics'][0]['message'], message + " (included as '%s@1')" % name,
                                 '%s@1 %s: message' % (name, what))
            v = ctx.request('POST', '/validate', pinned(name), server=b).json()
            ctx.expect_equal(v['valid'], False, '%s@1 /validate through B' % name)
            ctx.expect_diagnostic(v, 'unknown_group')

        ctx.expect_status(ctx.request('PUT', '/groups/row', _pad_group(12), server=a), 201, 'PUT row through A')
        warm('row')
        ctx.expect_status(ctx.request('DELETE', '/groups/row', server=a), 204, 'DELETE row through A')
        removed('row', "No group named 'row' is stored")

        ctx.expect_status(ctx.request('PUT', '/groups/col', _pad_group(12), server=a), 201, 'PUT col v1 through A')
        warm('col')
        for pad in (20, 30):
            ctx.expect_status(ctx.request('PUT', '/groups/col', _pad_group(pad), server=a), 200, 'PUT col through A')
        r = ctx.solve(pinned('col'), server=b)
        _expect_x(ctx, r, 12, 'col@1 through B with 3 versions kept')
        ctx.expect_status(ctx.request('PUT', '/groups/col', _pad_group(40), server=a), 200, 'PUT col v4 through A')
        removed('col', "Group 'col' version 1 was pruned: only the last 3 versions of a group are kept "
                       "(--max-group-versions); the oldest kept is 2")
    finally:
        group.stop_all()
