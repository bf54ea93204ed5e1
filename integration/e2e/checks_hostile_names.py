"""Hostile checks of names (`hostile/names-*`): names are bytes, and no work before the
budget that the budget does not see.

- explain-suggestions: a 1 MB `/validate` of 14,300 views and 1,000 unknown 64-character
  `explain` names. A did-you-mean is searched among at most 1,000 names, for the listed
  diagnostics only, and not once the scene is refused (every name against every view:
  34 s of one core on the release build); over the view limit, nothing per view.
- unknown-parents: 42,000 unknown parents (973 KB) are over the view limit, one
  diagnostic; 19,999 unknown parents are each one binary search (never a scan).
- combining-parents: 15,000 parents `"e\u0301"` (Swift's `String ==` normalises such a
  string on every comparison): validated by their bytes first, a 422 naming the rule.
- metric-suggestions: 11,000 VFL strings each naming an unknown 64-character metric among
  998 such metrics (906 KB): every string searched every metric for a did-you-mean (16 s
  for 2,000 strings on the release build). The searches of one compile compare at most
  20,000 names in all, and none past the 100 listed diagnostics.
- unknown-owners: 20,000 guides whose owner is `"e\u0301"`, or an unknown name: a set.
- cache-poisoning: `K` and U+212A KELVIN SIGN as two metrics (one name to Swift's `String`)
  with 62 others: the twin is a 422, and the ASCII scenes that lay out `a.width` as 34 and
  32 each keep their own answer, before and after a restart (from the result cache).
- template-repeats: `"safeArea":{"top":1,"top":5}` and other repeats in the container are
  a 400 on a cold server, on one that knows the template of the same structure, and after
  a restart.

Each check runs a server of its own (hostile.py), asserts the status and the diagnostics'
codes and messages, bounds the wall time generously for the debug build, and prints it.
"""
import json
import time

import hostile
from harness import check

JSON = {'Content-Type': 'application/json'}
NAME_RULE = 'names match [A-Za-z_][A-Za-z0-9_]*'


def seconds_bound(ctx, release_seconds):
    """`release_seconds` for an optimised binary; the debug build is about ten times slower."""
    return release_seconds * (10 if '/debug/' in ctx.binary else 1)


def timed(ctx, server, target, body, what, bound):
    """POST `body` (bytes) to `target`; the response, after checking the wall time against
    `bound` seconds and printing it."""
    start = time.monotonic()
    r = ctx.request('POST', target, body, JSON, server=server)
    elapsed = time.monotonic() - start
    print('  %s: %d bytes answered %d in %.2f s (bound %.1f s)' % (what, len(body), r.status, elapsed, bound),
          flush=True)
    ctx.expect(elapsed < bound, '%s took %.2f s, bound %.1f s' % (what, elapsed, bound))
    return r


def name64(prefix, i):
    return ('%s%05d' % (prefix, i)).ljust(64, 'x')


@check('hostile/names-explain-suggestions', needs='binary')
def explain_suggestions(ctx):
    views = [name64('v', i) for i in range(14_300)]
    # Each unknown name is one edit from no view (`w` for `v`): the search used to compare
    # it with all 14,300 names of its length.
    explain = [name64('w', i) for i in range(1_000)]
    body = json.dumps({'container': {'width': 375, 'height': 667}, 'views': views,
                       'explain': explain}, separators=(',', ':')).encode()
    ctx.expect(950_000 < len(body) < 1_048_576, 'the body is %d bytes' % len(body))
    server = hostile.start(ctx, 'names-explain')
    try:
        r = timed(ctx, server, '/validate', body, '/validate, 1,000 unknown explain names', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 200, '/validate')
        doc = r.json()
        ctx.expect_equal(doc['valid'], False, 'valid')
        diags = doc['diagnostics']
        ctx.expect_equal(len(diags), 101, 'listed diagnostics (100 and the count of the rest)')
        ctx.expect_equal({d['code'] for d in diags[:100]}, {'unknown_view'}, 'codes')
        ctx.expect_equal(diags[0]['message'], "Unknown view or layout guide '%s' in explain" % explain[0],
                         'the first, without a suggestion among 14,300 names')
        ctx.expect_equal(diags[100]['code'], 'limit_exceeded', 'the last one counts the rest')
        # Over the view limit: refused before any view is looked at.
        over = json.dumps({'views': ['v%d' % i for i in range(20_001)], 'explain': explain[:10]},
                          separators=(',', ':')).encode()
        r = timed(ctx, server, '/solve', over, '/solve, 20,001 views', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 422, '20,001 views')
        ctx.expect_equal([d['message'] for d in r.json()['diagnostics']],
                         ['The scene has 20001 views; at most 20000 are allowed (limit maxViews)'], 'the one diagnostic')
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


def parents_body(count, parent, views=1):
    """`views` views `a…`, and `count` more whose parent is `parent` (a JSON string's
    contents), as compact JSON text."""
    members = ['"a%d":{}' % i for i in range(views)]
    members += ['"p%d":{"parent":"%s"}' % (i, parent) for i in range(count)]
    return ('{"container":{"width":375,"height":667},"views":{%s}}' % ','.join(members)).encode()


@check('hostile/names-unknown-parents', needs='binary')
def unknown_parents(ctx):
    body = parents_body(42_000, 'zz', views=1)
    ctx.expect(900_000 < len(body) < 1_048_576, 'the body is %d bytes' % len(body))
    server = hostile.start(ctx, 'names-parents')
    try:
        # Over maxViews: refused before any parent is looked at.
        r = timed(ctx, server, '/solve', body, '/solve, 42,000 unknown parents', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 422, '42,000 unknown parents')
        ctx.expect_equal([(d['code'], d['message']) for d in r.json()['diagnostics']],
                         [('limit_exceeded', 'The scene has 42001 views; at most 20000 are allowed (limit maxViews)')],
                         'the one diagnostic')
        # Within it: each parent found unknown by binary search.
        body = parents_body(19_999, 'zz', views=1)
        r = timed(ctx, server, '/solve', body, '/solve, 19,999 unknown parents', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 422, '19,999 unknown parents')
        diags = r.json()['diagnostics']
        ctx.expect_equal(len(diags), 101, 'listed diagnostics')
        ctx.expect_equal(diags[0]['message'], "View 'p0' names an unknown parent 'zz'", 'the first')
        ctx.expect_equal(diags[0]['path'], '$.views.p0.parent', 'its path')
        ctx.expect_equal(diags[100]['code'], 'limit_exceeded', 'the last one counts the rest')
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


@check('hostile/names-combining-parents', needs='binary')
def combining_parents(ctx):
    body = parents_body(15_000, 'e\\u0301', views=1)
    ctx.expect(300_000 < len(body) < 1_048_576, 'the body is %d bytes' % len(body))
    server = hostile.start(ctx, 'names-combining')
    try:
        r = timed(ctx, server, '/solve', body, '/solve, 15,000 parents e+U+0301', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 422, 'combining-mark parents')
        diags = r.json()['diagnostics']
        ctx.expect_equal(diags[0]['code'], 'invalid_scene', 'code')
        ctx.expect_equal(diags[0]['message'],
                         "View 'p0' names an unknown parent 'e\u0301': %s (U+0301 is not ASCII)" % NAME_RULE, 'the first')
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


@check('hostile/names-unknown-owners', needs='binary')
def unknown_owners(ctx):
    guides = ','.join('"g%d":{"owner":"e\\u0301"}' % i for i in range(20_000))
    body = ('{"container":{"width":375,"height":667},"guides":{%s}}' % guides).encode()
    ctx.expect(450_000 < len(body) < 1_048_576, 'the body is %d bytes' % len(body))
    server = hostile.start(ctx, 'names-owners')
    try:
        r = timed(ctx, server, '/solve', body, '/solve, 20,000 guide owners e+U+0301', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 422, 'unknown owners')
        diags = r.json()['diagnostics']
        ctx.expect_equal(len(diags), 101, 'listed diagnostics')
        ctx.expect_equal(diags[0]['message'],
                         "Layout guide 'g0' names an unknown owner 'e\u0301': %s (U+0301 is not ASCII)" % NAME_RULE,
                         'the first')
        # And plain unknown owners, by set lookup.
        plain = ('{"container":{"width":375,"height":667},"guides":{%s}}'
                 % ','.join('"g%d":{"owner":"zz%d"}' % (i, i) for i in range(20_000))).encode()
        r = timed(ctx, server, '/solve', plain, '/solve, 20,000 unknown guide owners', seconds_bound(ctx, 0.5))
        ctx.expect_status(r, 422, 'plain unknown owners')
        ctx.expect_equal(r.json()['diagnostics'][0]['message'], "Layout guide 'g0' names an unknown owner 'zz0'", 'the first')
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


def kelvin_body(metrics):
    """62 metrics and `metrics` (JSON members), `a.width` laid out as `K`."""
    others = ','.join('"m%d":%d' % (i, i) for i in range(62))
    return ('{"container":{"width":100,"height":50},"views":["a"],"metrics":{%s,%s},'
            '"constraints":["H:|[a(==K)]","V:|[a]|"]}' % (others, metrics)).encode()


@check('hostile/names-cache-poisoning', needs='binary')
def cache_poisoning(ctx):
    twins = [kelvin_body('"K":34,"\\u212a":32'), kelvin_body('"K":32,"\\u212a":34'),
             kelvin_body('"\\u212a":32,"K":34')]
    plain = {34: kelvin_body('"K":34'), 32: kelvin_body('"K":32')}
    server = hostile.start(ctx, 'names-poisoning')
    try:
        for restarted in (False, True):
            if restarted:
                server.stop()
                server.start()
            when = 'after a restart' if restarted else 'first'
            for body in twins:
                for attempt in ('once', 'again'):
                    r = ctx.request('POST', '/solve', body, JSON, server=server)
                    ctx.expect_status(r, 422, 'the KELVIN twin (%s, %s)' % (when, attempt))
                    d = r.json()['diagnostics']
                    ctx.expect_equal([(x['code'], x['message']) for x in d],
                                     [('invalid_scene', "Metric name '\u212a' is invalid: %s (U+212A is not ASCII)" % NAME_RULE)],
                                     'the twin\'s diagnostics (%s)' % when)
            for width, body in sorted(plain.items()):
                r = ctx.request('POST', '/solve', body, JSON, server=server)
                ctx.expect_status(r, 200, 'K = %d (%s)' % (width, when))
                ctx.expect_equal(r.json()['frames']['a'], {'x': 0, 'y': 0, 'width': width, 'height': 50},
                                 'a\'s frame with K = %d (%s)' % (width, when))
                if restarted:
                    ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; hit',
                                     'K = %d is served from the result cache after the restart' % width)
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


TEMPLATE_VALID = (b'{"container":{"width":300,"height":200,"safeArea":{"top":5}},"views":["a"],'
                  b'"constraints":["H:|-[a]-|","V:|-[a]-|"]}')
TEMPLATE_REPEATS = [
    TEMPLATE_VALID.replace(b'"safeArea":{"top":5}', b'"safeArea":{"top":1,"top":5}'),
    TEMPLATE_VALID.replace(b'"safeArea":{"top":5}', b'"safeArea":{"top":5},"margins":{"left":1,"left":2}'),
    TEMPLATE_VALID.replace(b'"safeArea":{"top":5}', b'"safeArea":{"top":1},"safeArea":{"top":5}'),
]


@check('hostile/names-template-repeats', needs='binary')
def template_repeats(ctx):
    server = hostile.start(ctx, 'names-template')
    try:
        for phase in ('cold', 'warm', 'after a restart'):
            if phase == 'after a restart':
                server.stop()
                server.start()
            if phase != 'cold':
                # The repeat-free structure, at another width: its template is known.
                r = ctx.request('POST', '/solve', TEMPLATE_VALID.replace(b'"width":300', b'"width":310'), JSON,
                                server=server)
                ctx.expect_status(r, 200, 'the valid body (%s)' % phase)
            for body in TEMPLATE_REPEATS:
                r = ctx.request('POST', '/solve', body, JSON, server=server)
                ctx.expect_status(r, 400, '%s (%s)' % (body.decode(), phase))
                d = r.json()['diagnostics'][0]
                ctx.expect_equal(d['code'], 'invalid_scene', 'code (%s)' % phase)
                ctx.expect('is given more than once' in d['message'], 'message %r (%s)' % (d['message'], phase))
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()


@check('hostile/names-metric-suggestions', needs='binary')
def metric_suggestions(ctx):
    metrics = {name64('m', i): i for i in range(998)}
    constraints = ['H:[a(==%s)]' % name64('n', i) for i in range(11_000)]
    body = json.dumps({'container': {'width': 100, 'height': 100}, 'views': ['a'], 'metrics': metrics,
                       'constraints': constraints}, separators=(',', ':')).encode()
    ctx.expect(850_000 < len(body) < 1_048_576, 'the body is %d bytes' % len(body))
    server = hostile.start(ctx, 'names-metric-suggestions')
    try:
        r = timed(ctx, server, '/validate', body, '/validate, 11,000 unknown metrics among 998', seconds_bound(ctx, 0.6))
        ctx.expect_status(r, 200, '/validate')
        diags = r.json()['diagnostics']
        ctx.expect_equal(len(diags), 101, 'listed diagnostics')
        ctx.expect_equal({d['code'] for d in diags[:100]}, {'unknown_metric'}, 'codes')
        ctx.expect_equal(diags[0]['notes'], ["did you mean '%s'?" % name64('m', 0)], 'the first one\'s note')
        noted = sum(1 for d in diags[:100] if any(n.startswith('did you mean') for n in d.get('notes', [])))
        ctx.expect_equal(noted, 20, 'notes searched (20,000 names compared)')
        hostile.expect_bounded(ctx, server)
    finally:
        server.stop()
