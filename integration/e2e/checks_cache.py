"""The result cache as the contract's Cache-Status header shows it (RFC 9211)."""
import scenes
from harness import check

HIT = 'layoutd; hit'
STORED = 'layoutd; fwd=miss; stored'
NOT_STORED = 'layoutd; fwd=miss'
FWD_REQUEST = 'layoutd; fwd=request'


def _cs(resp):
    return resp.headers.get('cache-status')


@check('cache/miss-then-hit')
def miss_then_hit(ctx):
    scene, want = scenes.unique_readme_scene()
    a = ctx.solve(scene)
    ctx.expect_status(a, 200)
    ctx.expect_equal(_cs(a), STORED, 'first Cache-Status')
    b = ctx.solve(scene)
    ctx.expect_equal(_cs(b), HIT, 'second Cache-Status')
    ctx.expect(a.body == b.body, 'the hit is not byte-identical to the miss:\n%r\n%r' % (a.body, b.body))
    err = scenes.frames_close(b.json()['frames'], want)
    ctx.expect(err is None, err)


@check('cache/key-is-canonical-scene')
def canonical_key(ctx):
    """The same scene written differently (key order, spacing) is the same cache entry."""
    scene, _ = scenes.unique_readme_scene()
    a = ctx.solve(scene)
    ctx.expect_equal(_cs(a), STORED, 'first Cache-Status')
    import json
    reordered = json.dumps(dict(reversed(list(scene.items()))), indent=2).encode()
    b = ctx.request('POST', '/solve', reordered, {'Content-Type': 'application/json'})
    ctx.expect_equal(_cs(b), HIT, 'Cache-Status of the reordered scene')
    ctx.expect(a.body == b.body, 'different bodies for one scene')


@check('cache/no-cache')
def no_cache(ctx):
    """no-cache: looks up nothing, stores the fresh result."""
    scene, _ = scenes.unique_readme_scene()
    a = ctx.solve(scene)
    ctx.expect_equal(_cs(a), STORED, 'first Cache-Status')
    b = ctx.solve(scene, {'Cache-Control': 'no-cache'})
    ctx.expect_status(b, 200)
    ctx.expect_equal(_cs(b), FWD_REQUEST, 'Cache-Status with no-cache after a store')
    ctx.expect(a.body == b.body, 'fresh body differs from the stored one')
    scene2, _ = scenes.unique_readme_scene()
    c = ctx.solve(scene2, {'Cache-Control': 'no-cache'})
    ctx.expect_equal(_cs(c), FWD_REQUEST, 'Cache-Status with no-cache on a cold scene')
    d = ctx.solve(scene2)
    ctx.expect_equal(_cs(d), HIT, 'Cache-Status after a no-cache request stored the result')
    ctx.expect(c.body == d.body, 'hit differs from the no-cache answer')


@check('cache/no-store')
def no_store(ctx):
    """no-store: neither looks up nor stores."""
    scene, _ = scenes.unique_readme_scene()
    a = ctx.solve(scene, {'Cache-Control': 'no-store'})
    ctx.expect_status(a, 200)
    ctx.expect(_cs(a) != HIT, 'no-store on a cold scene answered a hit')
    b = ctx.solve(scene)
    ctx.expect_equal(_cs(b), STORED, 'Cache-Status after no-store (it must not have stored)')
    c = ctx.solve(scene, {'Cache-Control': 'no-store'})
    ctx.expect(_cs(c) != HIT, 'no-store looked the result up (Cache-Status %r)' % _cs(c))
    ctx.expect(a.body == b.body == c.body, 'bodies differ')


@check('cache/422-not-stored')
def errors_not_stored(ctx):
    for i in range(2):
        r = ctx.solve(scenes.SYNTAX_ERROR_SCENE)
        ctx.expect_status(r, 422)
        ctx.expect_equal(_cs(r), NOT_STORED, 'Cache-Status of a 422 (request %d)' % (i + 1))
