"""The hostile suite, store area (`hostile/store-*`): unique large answers cannot
fill the disk through the result cache, and many versions of one group cannot fill it
through the group's history or through many groups. Each attack writes several times the
bound it checks."""
import json

import hostile
from harness import check

MIB = 1 << 20
# What sits on disk beside the bounded rows (all in bytes): the cache's write-behind batch,
# written before the eviction that follows it in the same transaction (16 MiB,
# ResultCache.defaultWriteBehindBytes); the -wal file, checkpointed at 1,000 pages (4 MiB)
# and otherwise as large as one transaction plus the incremental vacuum's page moves; and
# the schema, indexes and page slack.
WRITE_BEHIND = 16 * MIB
WAL_CHECKPOINT = 4 * MIB
SLACK = 2 * MIB


def _wide_scene(seed, views=80, sizes=1000):
    """A scene whose answer is about 4.5 MB (80 views at 1,000 sizes), unique per `seed`."""
    names = ['v%d' % i for i in range(views)]
    constraints = []
    for name in names:
        constraints += ['H:|-[%s]-|' % name, 'V:|-[%s]-|' % name]
    return {'container': {'width': 320, 'height': 480}, 'views': names, 'constraints': constraints,
            'sizes': [{'width': 100000 + seed * 1000 + i, 'height': 480} for i in range(sizes)]}


@check('hostile/store-cache-fill', needs='binary')
def cache_fill(ctx):
    """50 unique answers of about 4.5 MB (225 MB) through `--max-cache-bytes 8 MiB`: each is
    stored, the oldest are evicted, and the database's bytes on disk stay under the cache
    bound + one write-behind batch + the -wal file's bound; /healthz answers after."""
    max_cache = 8 * MIB
    server = hostile.start(ctx, 'store-cache-fill', ['--max-cache-bytes', str(max_cache), '--quiet'])
    try:
        written = 0
        largest = 0
        for seed in range(50):
            r = ctx.solve(_wide_scene(seed), server=server, validate=False)
            ctx.expect_status(r, 200, 'unique answer %d' % seed)
            ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss; stored', 'answer %d stored' % seed)
            written += len(r.body)
            largest = max(largest, len(r.body))
        bound = max_cache + WRITE_BEHIND + (WAL_CHECKPOINT + 2 * (WRITE_BEHIND + largest)) + SLACK
        ctx.expect(written > 2 * bound, 'the attack wrote %d bytes, not twice the bound %d' % (written, bound))
        size = hostile.db_bytes(server.db_path)
        ctx.expect(size < bound, 'database %d bytes on disk after %d bytes of answers, bound %d'
                   % (size, written, bound))
        # The most recent answer is still cached; the first was evicted long ago.
        r = ctx.solve(_wide_scene(49), server=server, validate=False)
        ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; hit', 'the last answer again')
        r = ctx.solve(_wide_scene(0), server=server, validate=False)
        ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss; stored', 'the first answer again')
        hostile.expect_bounded(ctx, server, max_db=bound)
    finally:
        server.stop()


@check('hostile/store-group-history', needs='binary')
def group_history(ctx):
    """300 versions of one group of about 500 KB (150 MB) with `--max-group-versions 10`: the
    database stays under the ten kept versions + the -wal file's bound; the history pages
    through exactly the last ten; the oldest pruned version is 404 saying so."""
    kept = 10
    server = hostile.start(ctx, 'store-group-history', ['--max-group-versions', str(kept), '--quiet'])
    try:
        written = 0
        body_bytes = 0
        for version in range(1, 301):
            body = {'constraints': ['a.width == %d' % version],
                    'metrics': {'m%05d_%s' % (i, 'x' * 16): version for i in range(16000)}}
            data = json.dumps(body).encode('utf-8')
            body_bytes = max(body_bytes, len(data))
            r = ctx.request('PUT', '/groups/history', data, server=server,
                            headers={'Content-Type': 'application/json'}, validate=False)
            ctx.expect_status(r, 201 if version == 1 else 200, 'PUT version %d' % version)
            written += len(data)
        bound = kept * body_bytes + (WAL_CHECKPOINT + 4 * body_bytes) + SLACK
        ctx.expect(written > 2 * bound, 'the attack wrote %d bytes, not twice the bound %d' % (written, bound))
        size = hostile.db_bytes(server.db_path)
        ctx.expect(size < bound, 'database %d bytes on disk after %d bytes of versions, bound %d'
                   % (size, written, bound))
        listed = []
        target = '/groups/history/versions?limit=4'
        pages = 0
        while target is not None:
            r = ctx.request('GET', target, server=server)
            ctx.expect_status(r, 200, target)
            doc = r.json()
            listed += [v['version'] for v in doc['versions']]
            target = doc.get('next')
            pages += 1
            ctx.expect(pages <= 3, 'more than 3 pages of 4 for %d versions' % kept)
        ctx.expect_equal(listed, list(range(291, 301)), 'the versions listed page by page')
        r = ctx.request('GET', '/groups/history/versions/290', server=server)
        ctx.expect_status(r, 404, 'the newest pruned version')
        ctx.expect('was pruned' in r.json().get('detail', ''), 'detail %r' % r.json())
        hostile.expect_bounded(ctx, server, max_db=bound)
    finally:
        server.stop()


@check('hostile/store-group-bytes', needs='binary')
def group_bytes(ctx):
    """80 new groups of about 400 KB each (32 MB) through `--max-group-bytes 4 MiB`: the
    first ones fill the bound and are stored (201), every later one is 422 `limit_exceeded`
    naming `maxGroupBytes` and `--max-group-bytes` and stores nothing, a new version of a
    stored group too; a DELETE frees its bytes for a new group; the database stays under
    the bound + the -wal file's bound; /healthz answers after."""
    max_group_bytes = 4 * MIB
    server = hostile.start(ctx, 'store-group-bytes', ['--max-group-bytes', str(max_group_bytes), '--quiet'])
    try:
        def body(seed):
            return json.dumps({'constraints': ['a.width == %d' % seed],
                               'metrics': {'m%05d_%s' % (i, 'x' * 8): seed for i in range(20000)}},
                              separators=(',', ':')).encode('utf-8')

        def put(name, seed):
            return ctx.request('PUT', '/groups/' + name, body(seed), server=server,
                               headers={'Content-Type': 'application/json'}, validate=False)

        body_bytes = len(body(0))
        written = 0
        statuses = []
        refusal = None
        for seed in range(80):
            r = put('g%02d' % seed, seed)
            written += body_bytes
            statuses.append(r.status)
            if r.status == 422 and refusal is None:
                refusal = r
        stored = statuses.count(201)
        ctx.expect_equal(statuses, [201] * stored + [422] * (80 - stored), 'statuses: stored ones, then refused')
        # A version counts its payload (about the body) rounded up to 4 KiB pages + 4 KiB.
        ctx.expect(max_group_bytes // (body_bytes + 8192) <= stored <= max_group_bytes // (body_bytes - 4096),
                   '%d groups of %d bytes stored under %d' % (stored, body_bytes, max_group_bytes))
        # The first refusal, validated against openapi.yaml (a small answer).
        r = put('g%02d' % stored, stored)
        ctx.expect_status(r, 422, 'the first group beyond the bound, again')
        doc = r.json()
        ctx.expect_equal([d['code'] for d in doc['diagnostics']], ['limit_exceeded'], 'the refusal\'s diagnostics')
        message = doc['diagnostics'][0]['message']
        ctx.expect(message.startswith("The store's limit is reached: maxGroupBytes (%d bytes of stored group versions; "
                                      % max_group_bytes) and message.endswith('raise it with --max-group-bytes'),
                   'message %r' % message)
        ctx.expect_equal(refusal.json(), doc, 'the same refusal for the same state')
        # A new version of a stored group is refused too (nothing of it is pruned).
        ctx.expect_status(put('g00', 1000), 422, 'a new version of g00')
        r = ctx.request('GET', '/groups', server=server)
        ctx.expect_status(r, 200, 'GET /groups')
        listed = [(g['name'], g['version']) for g in r.json()['groups']]
        ctx.expect_equal(listed, [('g%02d' % i, 1) for i in range(stored)], 'the stored groups, unchanged')
        ctx.expect_status(ctx.request('GET', '/groups/g%02d' % stored, server=server), 404, 'the refused group')
        # A DELETE frees its bytes: a new group fits again, and then nothing more.
        ctx.expect_status(ctx.request('DELETE', '/groups/g00', server=server), 204, 'DELETE g00')
        ctx.expect_status(put('fresh', 1), 201, 'a new group after the DELETE')
        ctx.expect_status(put('fresher', 2), 422, 'the next new group')
        bound = max_group_bytes + (WAL_CHECKPOINT + 4 * body_bytes) + SLACK
        ctx.expect(written > 2 * bound, 'the attack wrote %d bytes, not twice the bound %d' % (written, bound))
        size = hostile.db_bytes(server.db_path)
        ctx.expect(size < bound, 'database %d bytes on disk after %d bytes of groups, bound %d'
                   % (size, written, bound))
        hostile.expect_bounded(ctx, server, max_db=bound)
    finally:
        server.stop()
