"""Hostile input, diagnostics (`hostile/diagnostics-*`): answers that
grew with the square of the input. Three conflicting chains `"H:|" + "[a]" * 20000 + "|"`
(a 180 KB body) made 60,000 `unsatisfiable_constraints` diagnostics, each quoting the
whole 60 KB string: a 3.6 GB answer. Now a list holds at most 100 diagnostics (the
first five of each code, then errors, then warnings) and one `limit_exceeded` warning
counting the rest, and `source` is a window of 256 scalars.

Each check runs a server of its own under `prlimit --as=2GiB` with two workers
(hostile.py) and asserts the status, the answer's byte count, the server's VmHWM, and
/healthz afterwards.
"""
import json

import hostile
from harness import check

PARTS = 20000
CHAIN = 'H:|' + '[a]' * PARTS + '|'
# `a.width >= 10` (required) makes every `[a][a]` (a.leading == a.trailing, a width of 0)
# a conflict: 19,999 in each chain.
WIDTH = 'a.width >= 10'
LISTED = 100                       # LayoutDiagnostic.maxCount
ANSWER_BOUND = 128 << 10           # 100 diagnostics of about 760 bytes, and the frames
HWM_BOUND = 384 << 20              # a debug build's peak with the attack, well below 1.5 GiB
MESSAGE = '%d more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)'


def _expect_bounded_list(ctx, doc, omitted, what):
    """`doc['diagnostics']` is 98 conflicts, a's two ambiguous fields (every code keeps its
    first findings) and one warning counting `omitted` more, each conflict's `source` a
    window of at most 256 scalars with the caret on a `]` or `[`."""
    diags = doc.get('diagnostics')
    ctx.expect(isinstance(diags, list), '%s: no diagnostics list' % what)
    ctx.expect_equal(len(diags), LISTED + 1, '%s: diagnostics listed' % what)
    ctx.expect_equal([d['code'] for d in diags[:LISTED]],
                     ['unsatisfiable_constraints'] * (LISTED - 2) + ['ambiguous_layout'] * 2,
                     '%s: 98 conflicts, then the two ambiguous fields' % what)
    last = diags[-1]
    ctx.expect_equal((last['severity'], last['code'], last['message']),
                     ('warning', 'limit_exceeded', MESSAGE % omitted), '%s: the last one' % what)
    for d in diags[:LISTED - 2]:
        source, column = d.get('source', ''), d.get('column', -1)
        ctx.expect(len(source) <= 256, '%s: a source of %d characters' % (what, len(source)))
        ctx.expect(0 <= column < len(source) and source[column] in '[]|',
                   '%s: column %r of %r' % (what, column, source[:40]))
        # The window's place: the same character in the whole chain.
        ctx.expect_equal(CHAIN[d.get('sourceOffset', 0) + column], source[column],
                         '%s: the caret in the whole string' % what)


@check('hostile/diagnostics-chains', needs='binary')
def chains(ctx):
    scene = {'container': {'width': 375, 'height': 667}, 'views': ['a'],
             'constraints': [WIDTH, CHAIN, CHAIN, CHAIN]}
    body = json.dumps(scene).encode()
    ctx.expect(170_000 < len(body) < 190_000, 'the attack body is %d bytes' % len(body))
    server = hostile.start(ctx, 'diagnostics-chains')
    try:
        r = ctx.request('POST', '/solve', body, {'Content-Type': 'application/json'}, server=server)
        ctx.expect_status(r, 200, 'the three chains (conflicts: break)')
        ctx.expect(len(r.body) < ANSWER_BOUND, 'the answer is %d bytes, bound %d' % (len(r.body), ANSWER_BOUND))
        doc = r.json()
        # 3 × 19,999 conflicts and a's y and height ambiguous: 59,999 found, 100 listed.
        _expect_bounded_list(ctx, doc, 3 * (PARTS - 1) + 2 - LISTED, '/solve')
        ctx.expect_equal(doc['frames']['a']['width'], 375, 'a is as wide as the container')

        r = ctx.request('POST', '/validate', body, {'Content-Type': 'application/json'}, server=server)
        ctx.expect_status(r, 200, '/validate')
        ctx.expect(len(r.body) < ANSWER_BOUND, '/validate answered %d bytes' % len(r.body))
        ctx.expect_equal(r.json()['valid'], False, '/validate: valid')
        _expect_bounded_list(ctx, r.json(), 3 * (PARTS - 1) + 2 - LISTED, '/validate')

        strict = dict(scene, options={'conflicts': 'error'})
        r = ctx.request('POST', '/solve', strict, server=server)
        ctx.expect_status(r, 422, 'the three chains (conflicts: error)')
        ctx.expect(len(r.body) < ANSWER_BOUND, 'the 422 is %d bytes' % len(r.body))
        _expect_bounded_list(ctx, r.json(), 3 * (PARTS - 1) + 2 - LISTED, '/solve 422')
        hostile.expect_bounded(ctx, server, max_hwm=HWM_BOUND)
    finally:
        server.stop()


@check('hostile/diagnostics-group-chain', needs='binary')
def group_chain(ctx):
    server = hostile.start(ctx, 'diagnostics-group-chain')
    try:
        r = ctx.request('PUT', '/groups/chains', {'constraints': [WIDTH, CHAIN, CHAIN, CHAIN]}, server=server)
        ctx.expect_status(r, 201, 'PUT the chains as a group')
        scene = b'{"container":{"width":375,"height":667},"views":["a"],"groups":["chains"]}'
        ctx.expect(len(scene) <= 109, 'the scene is %d bytes' % len(scene))
        for attempt in ('miss', 'hit'):
            r = ctx.request('POST', '/solve', scene, {'Content-Type': 'application/json'}, server=server)
            ctx.expect_status(r, 200, 'the scene including the group (%s)' % attempt)
            ctx.expect(len(r.body) < ANSWER_BOUND, 'the answer is %d bytes' % len(r.body))
            doc = r.json()
            _expect_bounded_list(ctx, doc, 3 * (PARTS - 1) + 2 - LISTED, 'group (%s)' % attempt)
            ctx.expect_equal(doc['diagnostics'][0]['constraint'], 'group:chains/1', 'the first conflict')
        hostile.expect_bounded(ctx, server, max_hwm=HWM_BOUND)
    finally:
        server.stop()


@check('hostile/diagnostics-long-names', needs='binary')
def long_names(ctx):
    """100 views with 3 KB names (a scene whose answer once grew with its names): 422 naming the limit, one
    diagnostic per name, each quoting it cut at 256 characters."""
    names = ['v%03d' % i + 'x' * 3000 for i in range(100)]
    scene = {'container': {'width': 375, 'height': 667}, 'views': names,
             'constraints': ['H:|[%s]|' % n for n in names]}
    server = hostile.start(ctx, 'diagnostics-long-names')
    try:
        r = ctx.request('POST', '/solve', scene, server=server)
        ctx.expect_status(r, 422, '3 KB view names')
        ctx.expect(len(r.body) < ANSWER_BOUND, 'the answer is %d bytes' % len(r.body))
        diags = r.json()['diagnostics']
        ctx.expect_equal(len(diags), 100, 'one diagnostic per name')
        first = diags[0]
        ctx.expect_equal(first['code'], 'invalid_scene', 'code')
        ctx.expect_equal(first['path'], '$.views[0]', 'path')
        ctx.expect_equal(first['message'],
                         "View name '%s…' is 3004 characters long; names are at most 256 characters (limit maxNameLength)"
                         % names[0][:255], 'message')
        hostile.expect_bounded(ctx, server, max_hwm=HWM_BOUND)
    finally:
        server.stop()
