"""Layout semantics over HTTP (`semantics/*`): conflicts and their minimal sets, ambiguity,
the `conflicts` / `ambiguity` policies, `negative_size`, `/validate` against `/solve`
; hugging and compression resistance, strict priorities, fitting size,
baselines, margins, right to left and `sizes`.

Every expected frame is derived in a comment from the contract
(docs/scene-format.md): standard spacing 20 to a parent's edge and 8 between
siblings, hugging 250 / compression resistance 750 by default, an omitted container
dimension `== 0 @50`, priorities strict. Every response is validated against openapi.yaml
by the harness's client.
"""
import copy
import time

from harness import check

CONFLICT = 'unsatisfiable_constraints'
AMBIGUOUS = 'ambiguous_layout'


# ---------------------------------------------------------------- helpers

def _post(ctx, scene, status=200, target='/solve', fresh=False):
    """POST `scene` to `target`, expect `status`, return the JSON body; `fresh` sends
    `Cache-Control: no-store` (solved again, not answered from the result cache)."""
    r = ctx.request('POST', target, scene, {'Cache-Control': 'no-store'} if fresh else None)
    ctx.expect_status(r, status, target)
    return r.json()


def _frames_equal(ctx, frames, want, what):
    """`frames` holds exactly the views of `want`, each field within 1e-6 of it."""
    ctx.expect(isinstance(frames, dict), '%s: no frames object' % what)
    ctx.expect_equal(sorted(frames), sorted(want), '%s: the views framed' % what)
    for view, wf in want.items():
        for k in ('x', 'y', 'width', 'height'):
            a = frames[view].get(k)
            ctx.expect(isinstance(a, (int, float)) and abs(a - wf[k]) <= 1e-6,
                       '%s: %s.%s = %r, expected %r' % (what, view, k, a, wf[k]))


def _f(x, y, width, height):
    return {'x': x, 'y': y, 'width': width, 'height': height}


def _ref(r):
    """A constraint ref as (constraint, part); part None when absent."""
    return (r.get('constraint'), r.get('part'))


def _codes(doc):
    return [d['code'] for d in doc['diagnostics']]


def _conflicts(doc):
    return [d for d in doc['diagnostics'] if d['code'] == CONFLICT]


def _expect_conflict(ctx, diag, broken, members, what):
    """`diag` is an error whose `broken` is `broken` and whose `conflicting` refs are
    exactly the set `members` (each (constraint, part)), `broken` among them."""
    ctx.expect_equal(diag.get('severity'), 'error', '%s: severity' % what)
    ctx.expect_equal(_ref(diag.get('broken', {})), broken, '%s: broken' % what)
    refs = [_ref(r) for r in diag.get('conflicting', [])]
    ctx.expect_equal(len(refs), len(set(refs)), '%s: conflicting refs repeated' % what)
    ctx.expect_equal(set(refs), set(members), '%s: conflicting set' % what)
    ctx.expect(broken in set(refs), '%s: broken not among conflicting' % what)


def _without(scene, index):
    s = copy.deepcopy(scene)
    del s['constraints'][index]
    return s


def _expect_minimal(ctx, scene, members, what):
    """Dropping any one member entry (each member is a whole one-part entry) leaves a scene
    with no conflict at all."""
    for c, _ in sorted(members, key=lambda m: str(m)):
        doc = _post(ctx, _without(scene, c))
        ctx.expect(not _conflicts(doc), '%s: still a conflict without constraint %r: %r'
                   % (what, c, _conflicts(doc)))


def _eq_scene(views, constraints, width=400, height=300, **options):
    scene = {'container': {'width': width, 'height': height}, 'views': views,
             'constraints': constraints}
    if options:
        scene['options'] = options
    return scene


# ---------------------------------------------------------------- conflicts

# Each conflict scene: members are one-part equations; every other view field is fixed by
# required constraints outside the conflict, so the frames are exact.

def _two_member():
    # 0 and 1 disagree on a.width; 2–4 fix the rest of a.
    scene = _eq_scene(['a'], ['a.width == 100', 'a.width == 200', 'a.left == 5',
                              'a.top == 6', 'a.height == 10'])
    # 1 is left out: a.width = 100 from 0.
    return scene, (1, 0), {(0, 0), (1, 0)}, {'a': _f(5, 6, 100, 10)}


def _three_member():
    # a.width 100 (0), b 10 wider than a (2), b.width 50 (4): the third cannot be added.
    # 1, 3, 5–9 are bystanders of the same views.
    scene = _eq_scene(['a', 'b'], ['a.width == 100', 'a.left == 0', 'b.width == a.width + 10',
                                   'b.left == a.right + 8', 'b.width == 50', 'a.top == 0',
                                   'b.top == a.bottom', 'a.height == 20', 'b.height == a.height',
                                   'a.width <= 300'])
    # 4 left out: a = (0, 0, 100, 20); b.width = 110, b.x = 0 + 100 + 8 = 108, b.y = 20.
    return (scene, (4, 0), {(0, 0), (2, 0), (4, 0)},
            {'a': _f(0, 0, 100, 20), 'b': _f(108, 20, 110, 20)})


def _five_member():
    # a chain of lefts 10 apart from a.left == 0 to d, then d.left == 100 (needs 30).
    scene = _eq_scene(['a', 'b', 'c', 'd'], [
        'a.left == 0', 'b.left == a.left + 10', 'a.width == b.width', 'c.left == b.left + 10',
        'd.left == c.left + 10', 'b.width == 10', 'd.left == 100', 'c.width == 10',
        'd.width == 10', 'align(top: a, b, c, d)', 'a.top == 0',
        'a.height == 1', 'b.height == 1', 'c.height == 1', 'd.height == 1'])
    # 6 left out: x = 0, 10, 20, 30; all 10 wide, 1 high, at the top.
    return (scene, (6, 0), {(0, 0), (1, 0), (3, 0), (4, 0), (6, 0)},
            {'a': _f(0, 0, 10, 1), 'b': _f(10, 0, 10, 1), 'c': _f(20, 0, 10, 1),
             'd': _f(30, 0, 10, 1)})


for _name, _make in (('two', _two_member), ('three', _three_member), ('five', _five_member)):
    def _conflict_check(ctx, _make=_make, _name=_name):
        scene, broken, members, frames = _make()
        doc = _post(ctx, scene)
        conflicts = _conflicts(doc)
        ctx.expect_equal(len(conflicts), 1, '%s-member: number of conflicts' % _name)
        _expect_conflict(ctx, conflicts[0], broken, members, '%s-member' % _name)
        ctx.expect_equal(_codes(doc), [CONFLICT], '%s-member: diagnostic codes' % _name)
        _frames_equal(ctx, doc['frames'], dict(frames, superview=_f(0, 0, 400, 300)),
                      '%s-member' % _name)
        _expect_minimal(ctx, scene, members, '%s-member' % _name)
    check('semantics/conflict-%s-member-minimal' % _name)(_conflict_check)


@check('semantics/conflict-chain-of-1000')
def conflict_chain(ctx):
    """1,000 required constraints: v0.left == 0, v_i.left == v_(i-1).left + 1 (i = 1…998),
    then v998.left == 0 (index 999), which needs the whole chain to be dropped: the minimal
    set is all 1,000. Answered within the client's request timeout (the time is printed in
    the failure message otherwise)."""
    n = 999
    views = ['v%d' % i for i in range(n)]
    cons = ['v0.left == 0'] + ['v%d.left == v%d.left + 1' % (i, i - 1) for i in range(1, n)]
    cons.append('v%d.left == 0' % (n - 1))
    ctx.expect_equal(len(cons), 1000, 'constraints')
    scene = _eq_scene(views, cons, ambiguity='ignore')   # widths, tops, heights are free
    started = time.monotonic()
    doc = _post(ctx, scene)
    took = time.monotonic() - started
    conflicts = _conflicts(doc)
    ctx.expect_equal(len(conflicts), 1, 'number of conflicts (%.2f s)' % took)
    _expect_conflict(ctx, conflicts[0], (999, 0), {(i, 0) for i in range(1000)}, 'chain')
    for i in (0, 1, 500, 998):   # 999 left out: v_i.x = i
        ctx.expect_equal(doc['frames']['v%d' % i]['x'], i, 'v%d.x' % i)


def _two_conflicts_scene(**options):
    # a.width: 0 (100) vs 1 (200); b: 3 (top 10) + 4 (height 30) vs 5 (bottom 50).
    return _eq_scene(['a', 'b'], [
        'a.width == 100', 'a.width == 200', 'a.left == 0', 'b.top == 10', 'b.height == 30',
        'b.bottom == 50', 'a.top == 0', 'a.height == 10', 'b.left == 0', 'b.width == 20'],
        **options)


@check('semantics/conflict-two-independent')
def two_independent(ctx):
    """Two unrelated conflicts: two diagnostics, in the order added, each its own minimal set."""
    scene = _two_conflicts_scene()
    doc = _post(ctx, scene)
    conflicts = _conflicts(doc)
    ctx.expect_equal(_codes(doc), [CONFLICT, CONFLICT], 'diagnostic codes')
    _expect_conflict(ctx, conflicts[0], (1, 0), {(0, 0), (1, 0)}, 'first conflict')
    _expect_conflict(ctx, conflicts[1], (5, 0), {(3, 0), (4, 0), (5, 0)}, 'second conflict')
    # 1 and 5 left out: a = (0, 0, 100, 10), b = (0, 10, 20, 30)
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 400, 300), 'a': _f(0, 0, 100, 10),
                                       'b': _f(0, 10, 20, 30)}, 'frames')
    # dropping a member of one conflict leaves exactly the other one
    for dropped, left in ((0, (5, 0)), (1, (5, 0)), (3, (1, 0)), (4, (1, 0)), (5, (1, 0))):
        d = _post(ctx, _without(scene, dropped))
        cs = _conflicts(d)
        ctx.expect_equal(len(cs), 1, 'conflicts without constraint %d' % dropped)
        want = (left[0] - 1 if left[0] > dropped else left[0], 0)
        ctx.expect_equal(_ref(cs[0]['broken']), want, 'broken without constraint %d' % dropped)


@check('semantics/redundant-consistent-no-diagnostic')
def redundant(ctx):
    """Required constraints implied by others, also up to float noise, are no conflict."""
    scene = _eq_scene(['a', 'b', 'c', 'd'], [
        'a.left == 0', 'a.width == 100', 'b.width == a.width', 'b.width == 100',   # redundant
        'b.left == a.right', 'b.right == 200', 'b.left == 100',                    # redundant
        'c.width == 0.1', 'd.width == c.width + 0.2', 'd.width == 0.3',            # 0.1+0.2≠0.3
        'c.left == 0', 'd.left == c.right',
        'align(top: a, b, c, d)', 'a.top == 0', 'a.height == 10', 'b.height == 10',
        'c.height == 10', 'd.height == 10', 'H:|[a][b]', 'a.height == b.height'])
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    # a = 0..100, b = 100..200, c = 0..0.1, d = 0.1..0.4 (d.width = 0.3), all 10 high at y 0
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 400, 300), 'a': _f(0, 0, 100, 10), 'b': _f(100, 0, 100, 10),
        'c': _f(0, 0, 0.1, 10), 'd': _f(0.1, 0, 0.3, 10)}, 'frames')
    ctx.expect_equal(doc['frames']['d']['width'], 0.3, 'd.width (rounded to 6 places)')


@check('semantics/redundant-multiplier-noise')
def redundant_multiplier(ctx):
    """b = 3 × a with a 0.1 (0.30000000000000004) and b == c with c 0.3: consistent up to
    float noise, no diagnostic; a, b, c flush in a row: x 0, 0.1, 0.4."""
    scene = _eq_scene(['a', 'b', 'c'], ['a.width == 0.1', 'b.width == a.width * 3',
                                        'c.width == 0.3', 'b.width == c.width', 'H:|[a][b][c]',
                                        'V:|[a(1)]', 'V:|[b(1)]', 'V:|[c(1)]'])
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 400, 300), 'a': _f(0, 0, 0.1, 1),
                                       'b': _f(0.1, 0, 0.3, 1), 'c': _f(0.4, 0, 0.3, 1)},
                  'frames')


@check('semantics/conflict-with-implicit-constraint')
def conflict_implicit(ctx):
    """Required hugging (1000) on a 100-wide label makes `a.width <= 100` required; `a.width
    == 200` then conflicts with it, named by the implicit ref `a.hugging.horizontal` (no
    part); 0 is left out and the label keeps 100."""
    scene = _eq_scene({'a': _label(100, 10, hugging={'horizontal': 1000})},
                      ['a.width == 200', 'H:|[a]', 'V:|[a]'])
    doc = _post(ctx, scene)
    ctx.expect_equal(_codes(doc), [CONFLICT], 'codes')
    _expect_conflict(ctx, doc['diagnostics'][0], (0, 0),
                     {('a.hugging.horizontal', None), (0, 0)}, 'hugging conflict')
    ctx.expect_equal(doc['frames']['a'], _f(0, 0, 100, 10), 'a')
    scene['views']['a']['hugging']['horizontal'] = 999   # optional again: 200, no diagnostic
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'hugging 999: diagnostics')
    ctx.expect_equal(doc['frames']['a'], _f(0, 0, 200, 10), 'hugging 999: a')


@check('semantics/conflicts-error-vs-break')
def conflicts_policy(ctx):
    """`conflicts: error` → 422 problem with every conflict; `break` → 200 with frames."""
    r = ctx.request('POST', '/solve', _two_conflicts_scene(conflicts='error'))
    ctx.expect_status(r, 422, 'conflicts: error')
    ctx.expect(r.headers.get('content-type', '').startswith('application/problem+json'),
               'content type %r' % r.headers.get('content-type'))
    doc = r.json()
    ctx.expect('frames' not in doc, 'frames in a 422')
    ctx.expect_equal(doc.get('status'), 422, 'problem status')
    conflicts = _conflicts(doc)
    ctx.expect_equal(len(conflicts), 2, 'conflicts in the problem')
    _expect_conflict(ctx, conflicts[0], (1, 0), {(0, 0), (1, 0)}, 'error: first')
    _expect_conflict(ctx, conflicts[1], (5, 0), {(3, 0), (4, 0), (5, 0)}, 'error: second')
    brk = _post(ctx, _two_conflicts_scene(conflicts='break'))
    default = _post(ctx, _two_conflicts_scene())
    ctx.expect_equal(brk, default, 'break is the default')
    ctx.expect_equal(_codes(brk), [CONFLICT, CONFLICT], 'break: codes')
    ctx.expect_equal(brk['frames']['a']['width'], 100, 'break: a.width')


# ---------------------------------------------------------------- ambiguity

def _ambiguities(doc):
    return sorted((d['view'], d['attribute']) for d in doc['diagnostics']
                  if d['code'] == AMBIGUOUS)


@check('semantics/ambiguity-no-horizontal-constraint')
def ambiguity_horizontal(ctx):
    """Nothing horizontal on `a`: its x and width are ambiguous, never its y or height;
    `b` is fully determined and never reported."""
    scene = _eq_scene(['a', 'b'], ['V:|-10-[a(30)]', 'H:|-[b(50)]', 'V:|[b(5)]'])
    doc = _post(ctx, scene)
    ctx.expect_equal(_ambiguities(doc), [('a', 'width'), ('a', 'x')], 'ambiguous fields')
    ctx.expect_equal(_codes(doc), [AMBIGUOUS] * 2, 'codes')
    for d in doc['diagnostics']:
        ctx.expect_equal(d['severity'], 'warning', 'severity under warn')
    fa = doc['frames']['a']
    ctx.expect_equal((fa['y'], fa['height']), (10, 30), 'a.y, a.height')
    # b: x = 20 (standard superview space), 50 wide, y 0, 5 high
    ctx.expect_equal(doc['frames']['b'], _f(20, 0, 50, 5), 'b')
    again = _post(ctx, scene, fresh=True)
    ctx.expect_equal(again, doc, 'an ambiguous scene solved again (no-store)')


def _tie_scene(*extra, **options):
    return _eq_scene(['a'], ['a.left == 0', 'a.top == 0', 'a.height == 10',
                             'a.width == 100 @500', 'a.width == 200 @500'] + list(extra),
                     **options)


@check('semantics/ambiguity-tie-and-tie-break')
def ambiguity_tie(ctx):
    """Two @500 widths 100 and 200: every width in [100, 200] has total error 100 → width
    ambiguous (nothing else); a lower @499 width 120 then decides it: 120, no diagnostic."""
    doc = _post(ctx, _tie_scene())
    ctx.expect_equal(_ambiguities(doc), [('a', 'width')], 'tie: ambiguous fields')
    ctx.expect_equal(_codes(doc), [AMBIGUOUS], 'tie: codes')
    w = doc['frames']['a']['width']
    ctx.expect(100 <= w <= 200, 'tie: a.width %r outside [100, 200]' % w)
    ctx.expect_equal(_post(ctx, _tie_scene(), fresh=True), doc, 'the tie solved again (no-store)')
    doc = _post(ctx, _tie_scene('a.width == 120 @499'))
    ctx.expect_equal(doc['diagnostics'], [], 'tie broken: diagnostics')
    ctx.expect_equal(doc['frames']['a'], _f(0, 0, 120, 10), 'tie broken: a')
    # the lower priority only chooses inside the tie: 300 @499 gives the nearest end, 200
    doc = _post(ctx, _tie_scene('a.width == 300 @499'))
    ctx.expect_equal(doc['diagnostics'], [], 'tie broken at an end: diagnostics')
    ctx.expect_equal(doc['frames']['a']['width'], 200, 'tie broken at an end: a.width')


@check('semantics/ambiguity-policies')
def ambiguity_policies(ctx):
    """warn → 200 with warnings; error → 422 problem with them as errors; ignore → none."""
    base = ['V:|-10-[a(30)]']
    warn = _post(ctx, _eq_scene(['a'], base, ambiguity='warn'))
    ctx.expect_equal(_ambiguities(warn), [('a', 'width'), ('a', 'x')], 'warn')
    ctx.expect_equal({d['severity'] for d in warn['diagnostics']}, {'warning'}, 'warn severity')
    r = ctx.request('POST', '/solve', _eq_scene(['a'], base, ambiguity='error'))
    ctx.expect_status(r, 422, 'ambiguity: error')
    doc = r.json()
    ctx.expect('frames' not in doc, 'frames in a 422')
    ctx.expect_equal(_ambiguities(doc), [('a', 'width'), ('a', 'x')], 'error')
    ctx.expect_equal({d['severity'] for d in doc['diagnostics']}, {'error'}, 'error severity')
    ign = _post(ctx, _eq_scene(['a'], base, ambiguity='ignore'))
    ctx.expect_equal(ign['diagnostics'], [], 'ignore')
    ctx.expect_equal(ign['frames'], warn['frames'], 'ignore lays out as warn')
    # an unambiguous scene is 200 under error
    ok = _post(ctx, _eq_scene(['a'], base + ['H:|[a(7)]'], ambiguity='error'))
    ctx.expect_equal(ok['diagnostics'], [], 'determined under error')
    ctx.expect_equal(ok['frames']['a'], _f(0, 10, 7, 30), 'determined a')


@check('semantics/negative-size')
def negative_size(ctx):
    """A width solved below 0 is a `negative_size` warning naming the view and attribute."""
    # b.right == a.left + 10 with b.left == 50 and a at 0: b.width = 10 − 50 = −40
    scene = _eq_scene(['a', 'b'], ['H:|[a(20)]', 'V:|[a(20)]', 'b.left == 50',
                                   'b.right == a.left + 10', 'V:|[b(5)]'])
    doc = _post(ctx, scene)
    ctx.expect_equal(_codes(doc), ['negative_size'], 'codes')
    ctx.expect_diagnostic(doc, 'negative_size', view='b', attribute='width', severity='warning')
    ctx.expect_equal(doc['frames']['b'], _f(50, 0, -40, 5), 'b')
    v = _post(ctx, scene, target='/validate')
    ctx.expect_equal(v, {'valid': True, 'diagnostics': doc['diagnostics']}, '/validate')


@check('semantics/validate-matches-solve')
def validate_matches(ctx):
    """/validate reports exactly /solve's diagnostics, no frames; `valid` is false exactly
    when one has severity error."""
    cases = [
        ('clean', _eq_scene(['a'], ['H:|[a(7)]', 'V:|[a(9)]']), True),
        ('two conflicts', _two_conflicts_scene(), False),
        ('ambiguity warn', _eq_scene(['a'], ['V:|-10-[a(30)]']), True),
        ('tie', _tie_scene(), True),
    ]
    for what, scene, valid in cases:
        solved = _post(ctx, scene)
        v = _post(ctx, scene, target='/validate')
        ctx.expect_equal(sorted(v), ['diagnostics', 'valid'], '%s: /validate fields' % what)
        ctx.expect_equal(v['diagnostics'], solved['diagnostics'], '%s: diagnostics' % what)
        ctx.expect_equal(v['valid'], valid, '%s: valid' % what)
        ctx.expect_equal(v['valid'], all(d['severity'] != 'error' for d in v['diagnostics']),
                         '%s: valid against severities' % what)
    # the 422 policies: /validate still answers 200, with the errors
    for what, scene in (('conflicts: error', _two_conflicts_scene(conflicts='error')),
                        ('ambiguity: error', _eq_scene(['a'], ['V:|-10-[a(30)]'],
                                                       ambiguity='error'))):
        problem = _post(ctx, scene, status=422)
        v = _post(ctx, scene, target='/validate')
        ctx.expect_equal(v['valid'], False, '%s: valid' % what)
        ctx.expect_equal(v['diagnostics'], problem['diagnostics'], '%s: diagnostics' % what)


# ---------------------------------------------------------------- content priorities

def _label(width, height, **fields):
    return dict({'intrinsicSize': {'width': width, 'height': height}}, **fields)


def _row_scene(width, a, b):
    """Two labels in a row, standard spacing: `H:|-[a]-[b]-|`, both 20 from the top."""
    return {'container': {'width': width, 'height': 100}, 'views': {'a': a, 'b': b},
            'constraints': ['H:|-[a]-[b]-|', 'V:|-[a]', 'V:|-[b]']}


@check('semantics/hugging-lower-stretches')
def hugging(ctx):
    """320 wide: 320 − 20 − 8 − 20 = 272 for two 100-wide labels, 72 to spare. b hugs at
    250 (default) below a's 251, so b stretches: a = (20, 20, 100, 21), b = (128, 20, 172, 21).
    Swapped priorities stretch a instead: a = (20, 20, 172, 21), b = (200, 20, 100, 21)."""
    doc = _post(ctx, _row_scene(320, _label(100, 21, hugging={'horizontal': 251}),
                                _label(100, 21)))
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 320, 100), 'a': _f(20, 20, 100, 21),
                                       'b': _f(128, 20, 172, 21)}, 'b stretches')
    doc = _post(ctx, _row_scene(320, _label(100, 21),
                                _label(100, 21, hugging={'horizontal': 251})))
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics (swapped)')
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 320, 100), 'a': _f(20, 20, 172, 21),
                                       'b': _f(200, 20, 100, 21)}, 'a stretches')


@check('semantics/compression-resistance-lower-squeezed')
def compression(ctx):
    """200 wide: 200 − 48 = 152 for 100 + 100, 48 short. b resists at 749 below a's 750
    (default), so b gives it all up: a = (20, 20, 100, 21), b = (128, 20, 52, 21)."""
    doc = _post(ctx, _row_scene(200, _label(100, 21),
                                _label(100, 21, compressionResistance={'horizontal': 749})))
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 200, 100), 'a': _f(20, 20, 100, 21),
                                       'b': _f(128, 20, 52, 21)}, 'b squeezed')
    doc = _post(ctx, _row_scene(200, _label(100, 21, compressionResistance={'horizontal': 749}),
                                _label(100, 21)))
    # a squeezed to 52: b.x = 20 + 52 + 8 = 80
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 200, 100), 'a': _f(20, 20, 52, 21),
                                       'b': _f(80, 20, 100, 21)}, 'a squeezed')


@check('semantics/priority-751-beats-ten-750')
def strict_priorities(ctx):
    """One @751 wins over one @750 and over ten @750s (kiwi's weighted sum would let the
    ten outweigh it: 10 × 750 > 751); and a compression resistance of 751 wins over a @750
    width, where 749 gives way."""
    for n in (1, 10):
        scene = _eq_scene(['a'], ['a.width == 100 @751'] + ['a.width == 200 @750'] * n
                          + ['H:|[a]', 'V:|[a(5)]'])
        doc = _post(ctx, scene)
        ctx.expect_equal(doc['diagnostics'], [], '%d × 750: diagnostics' % n)
        ctx.expect_equal(doc['frames']['a'], _f(0, 0, 100, 5), '%d × 750: a' % n)
    # the other way round: 750s below a 751 of 200
    scene = _eq_scene(['a'], ['a.width == 200 @751'] + ['a.width == 100 @750'] * 10
                      + ['H:|[a]', 'V:|[a(5)]'])
    ctx.expect_equal(_post(ctx, scene)['frames']['a']['width'], 200, '751 of 200: a.width')
    scene = _eq_scene({'a': _label(100, 21, compressionResistance={'horizontal': 751})},
                      ['a.width == 50 @750', 'H:|[a]', 'V:|[a]'])
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'resistance 751: diagnostics')
    ctx.expect_equal(doc['frames']['a'], _f(0, 0, 100, 21), 'resistance 751 keeps 100')
    scene['views']['a']['compressionResistance']['horizontal'] = 749
    ctx.expect_equal(_post(ctx, scene)['frames']['a']['width'], 50, 'resistance 749 gives way')


# ---------------------------------------------------------------- fitting size

def _cell_scene(container):
    """A cell filling the container; a title (200×21) over a subtitle (150×17), 4 apart,
    standard spacing inside the cell."""
    return {'container': container,
            'views': {'cell': {}, 'title': _label(200, 21, parent='cell'),
                      'subtitle': _label(150, 17, parent='cell')},
            'constraints': ['H:|[cell]|', 'V:|[cell]|', 'H:|-[title]-|', 'H:|-[subtitle]-|',
                            'V:|-[title]-4-[subtitle]-|']}


@check('semantics/fitting-size')
def fitting_size(ctx):
    """Height omitted at width 375: 20 + 21 + 4 + 17 + 20 = 82 (hugging 250 and resistance
    750 both beat the fitting size's @50); labels 375 − 40 = 335 wide."""
    doc = _post(ctx, _cell_scene({'width': 375}))
    ctx.expect_equal(doc['diagnostics'], [], 'height fitted: diagnostics')
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 375, 82), 'cell': _f(0, 0, 375, 82),
        'title': _f(20, 20, 335, 21), 'subtitle': _f(20, 45, 335, 17)}, 'height fitted')
    # both omitted: the labels share a width; the title's resistance (750) keeps 200 over
    # the subtitle's hugging (250) → 20 + 200 + 20 = 240 wide, still 82 high
    doc = _post(ctx, _cell_scene({}))
    ctx.expect_equal(doc['diagnostics'], [], 'both fitted: diagnostics')
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 240, 82), 'cell': _f(0, 0, 240, 82),
        'title': _f(20, 20, 200, 21), 'subtitle': _f(20, 45, 200, 17)}, 'both fitted')
    # width omitted at height 200: 240 wide; the title hugs vertically at 251, so the
    # subtitle stretches: 200 − 20 − 45 = 135 high
    scene = _cell_scene({'height': 200})
    scene['views']['title']['hugging'] = {'vertical': 251}
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'width fitted: diagnostics')
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 240, 200), 'cell': _f(0, 0, 240, 200),
        'title': _f(20, 20, 200, 21), 'subtitle': _f(20, 45, 200, 135)}, 'width fitted')


# ---------------------------------------------------------------- baselines and margins

@check('semantics/baselines')
def baselines(ctx):
    """a's top is 20, its baseline 17 below: 37. b (baseline 12) → y 25; c has no baseline,
    its bottom stands in → 37 − 30 = 7; d's firstBaseline 15 → 22; e has a baseline (11)
    but no firstBaseline, which falls back to it: e.firstBaseline == d.baseline = 22 + 40
    → e.y = 51."""
    scene = _eq_scene({'a': _label(50, 21, baseline=17), 'b': _label(40, 16, baseline=12),
                       'c': _label(30, 30), 'd': _label(60, 50, baseline=40, firstBaseline=15),
                       'e': _label(20, 20, baseline=11)},
                      ['H:|[a]', 'V:|-20-[a]', 'b.baseline == a.baseline', 'b.left == 100',
                       'c.lastBaseline == a.baseline', 'c.left == 200',
                       'd.firstBaseline == a.baseline', 'd.left == 250',
                       'e.firstBaseline == d.baseline', 'e.left == 330'], height=200)
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 400, 200), 'a': _f(0, 20, 50, 21), 'b': _f(100, 25, 40, 16),
        'c': _f(200, 7, 30, 30), 'd': _f(250, 22, 60, 50), 'e': _f(330, 51, 20, 20)}, 'frames')


@check('semantics/vfl-align-all-baseline')
def vfl_baseline(ctx):
    """alignAllBaseline on `H:|-[a]-[b]-[c]`: x = 20, 20 + 50 + 8 = 78, 78 + 40 + 8 = 126;
    the y values as in semantics/baselines (25, and 7 for c's bottom edge).
    alignAllFirstBaseline aligns d's firstBaseline (15) to a's (none: its baseline 17) → 22."""
    scene = _eq_scene({'a': _label(50, 21, baseline=17), 'b': _label(40, 16, baseline=12),
                       'c': _label(30, 30)},
                      [{'vfl': 'H:|-[a]-[b]-[c]', 'options': ['alignAllBaseline']},
                       'V:|-20-[a]'], height=200)
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 400, 200), 'a': _f(20, 20, 50, 21), 'b': _f(78, 25, 40, 16),
        'c': _f(126, 7, 30, 30)}, 'alignAllBaseline')
    scene = _eq_scene({'a': _label(50, 21, baseline=17),
                       'd': _label(60, 50, baseline=40, firstBaseline=15)},
                      [{'vfl': 'H:|-[a]-[d]', 'options': ['alignAllFirstBaseline']},
                       'V:|-20-[a]'], height=200)
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics (first)')
    _frames_equal(ctx, doc['frames'], {'superview': _f(0, 0, 400, 200), 'a': _f(20, 20, 50, 21),
                                       'd': _f(78, 22, 60, 50)}, 'alignAllFirstBaseline')


@check('semantics/margins')
def margins(ctx):
    """card 200×100 with margins left 10, right 30, top 5, bottom 7 (card space):
    l.leading == leadingMargin → x 10, l.top == topMargin → y 5;
    m.centerX == centerXWithinMargins = 10 + (200 − 10 − 30) / 2 = 90 → x 70,
    m.bottom == bottomMargin = 93 → y 73; n.trailing == trailingMargin = 170 → x 130,
    n.centerY == centerYWithinMargins = 5 + (100 − 12) / 2 = 49 → y 39.
    The container's default margins are 8: a = (8, 8, 384, 10)."""
    scene = _eq_scene({'card': {'margins': {'left': 10, 'right': 30, 'top': 5, 'bottom': 7}},
                       'l': _label(50, 20, parent='card'), 'm': _label(40, 20, parent='card'),
                       'n': _label(40, 20, parent='card'), 'a': {}},
                      ['H:|-16-[card(200)]', 'V:|-20-[card(100)]',
                       'l.leading == card.leadingMargin', 'l.top == card.topMargin',
                       'm.centerX == card.centerXWithinMargins',
                       'm.bottom == card.bottomMargin',
                       'n.trailing == card.trailingMargin',
                       'n.centerY == card.centerYWithinMargins',
                       'a.leading == superview.leadingMargin',
                       'a.trailing == superview.trailingMargin',
                       'a.top == superview.topMargin', 'a.height == 10'])
    doc = _post(ctx, scene)
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    _frames_equal(ctx, doc['frames'], {
        'superview': _f(0, 0, 400, 300), 'card': _f(16, 20, 200, 100), 'l': _f(10, 5, 50, 20),
        'm': _f(70, 73, 40, 20), 'n': _f(130, 39, 40, 20), 'a': _f(8, 8, 384, 10)}, 'frames')


# ---------------------------------------------------------------- right to left

def _rtl_scene(direction):
    """A card 16 from the leading edge and 40 from the trailing one; inside it an icon,
    a title and a badge in a VFL row, and q placed by a multiplier on the card's trailing
    edge; `abs` is placed by left/right only."""
    return {'container': {'width': 375, 'height': 300},
            'views': {'card': {}, 'icon': _label(24, 24, parent='card'),
                      'title': _label(120, 21, parent='card'),
                      'badge': _label(30, 20, parent='card'), 'q': {'parent': 'card'},
                      'abs': {}},
            'constraints': [
                'H:|-16-[card]-40-|', 'V:|-20-[card(100)]',
                {'vfl': 'H:|-[icon]-12-[title]-(>=8)-[badge]-|', 'options': ['alignAllCenterY']},
                'V:|-[icon]', 'q.leading == card.trailing * 0.25', 'q.width == 10',
                'q.top == 60', 'q.height == 5',
                'abs.left == superview.left + 10', 'abs.right == superview.right - 300',
                'V:[card]-[abs(10)]'],
            'options': {'layoutDirection': direction}}


@check('semantics/right-to-left-mirror')
def rtl_mirror(ctx):
    """Left to right: card = (16, 20, 375 − 56 = 319, 100); in it icon x 20, title
    20 + 24 + 12 = 56, badge 319 − 20 − 30 = 269, q 319 × 0.25 = 79.75; icon 24 high at
    y 20 centres the others: title y 32 − 10.5 = 21.5, badge 22; abs = (10, 128, 65, 10).
    Right to left: each leading/trailing-placed frame is parentWidth − x − width of its
    left-to-right frame (card: 375 − 16 − 319 = 40); abs, placed by left/right, stays."""
    ltr = _post(ctx, _rtl_scene('leftToRight'))
    ctx.expect_equal(ltr['diagnostics'], [], 'ltr diagnostics')
    want = {'superview': _f(0, 0, 375, 300), 'card': _f(16, 20, 319, 100),
            'icon': _f(20, 20, 24, 24), 'title': _f(56, 21.5, 120, 21),
            'badge': _f(269, 22, 30, 20), 'q': _f(79.75, 60, 10, 5),
            'abs': _f(10, 128, 65, 10)}
    _frames_equal(ctx, ltr['frames'], want, 'left to right')
    rtl = _post(ctx, _rtl_scene('rightToLeft'))
    ctx.expect_equal(rtl['diagnostics'], [], 'rtl diagnostics')
    parent_width = {'card': 375, 'icon': 319, 'title': 319, 'badge': 319, 'q': 319}
    mirrored = dict(want)
    for view, pw in parent_width.items():
        f = want[view]
        mirrored[view] = dict(f, x=pw - f['x'] - f['width'])
        a = rtl['frames'][view]
        ctx.expect(abs(a['x'] - (pw - ltr['frames'][view]['x'] - ltr['frames'][view]['width']))
                   <= 1e-6, '%s: rtl x %r is not the mirror of ltr %r'
                   % (view, a, ltr['frames'][view]))
    ctx.expect_equal(mirrored['card']['x'], 40, 'derivation: mirrored card.x')
    _frames_equal(ctx, rtl['frames'], mirrored, 'right to left')
    ctx.expect_equal(rtl['frames']['abs'], ltr['frames']['abs'], 'left/right stay absolute')


@check('semantics/right-to-left-vfl-direction-options')
def rtl_vfl_options(ctx):
    """`H:|-10-[a(50)]-5-[b(20)]` in a 300-wide container: directionLeftToRight lays it out
    left to right under a right-to-left scene (a x 10, b x 65); directionRightToLeft right to
    left under a left-to-right scene (a x 300 − 10 − 50 = 240, b x 240 − 5 − 20 = 215);
    directionLeadingToTrailing follows the scene (right to left: as the latter)."""
    def scene(direction, option):
        return {'container': {'width': 300, 'height': 100}, 'views': ['a', 'b'],
                'options': {'layoutDirection': direction},
                'constraints': [{'vfl': 'H:|-10-[a(50)]-5-[b(20)]', 'options': [option]},
                                'V:|[a(5)]', 'V:|[b(5)]']}
    left = {'superview': _f(0, 0, 300, 100), 'a': _f(10, 0, 50, 5), 'b': _f(65, 0, 20, 5)}
    right = {'superview': _f(0, 0, 300, 100), 'a': _f(240, 0, 50, 5), 'b': _f(215, 0, 20, 5)}
    for direction, option, want in (
            ('rightToLeft', 'directionLeftToRight', left),
            ('leftToRight', 'directionLeftToRight', left),
            ('leftToRight', 'directionRightToLeft', right),
            ('rightToLeft', 'directionRightToLeft', right),
            ('rightToLeft', 'directionLeadingToTrailing', right),
            ('leftToRight', 'directionLeadingToTrailing', left)):
        doc = _post(ctx, scene(direction, option))
        what = '%s scene, %s' % (direction, option)
        ctx.expect_equal(doc['diagnostics'], [], '%s: diagnostics' % what)
        _frames_equal(ctx, doc['frames'], want, what)


@check('semantics/right-to-left-margins')
def rtl_margins(ctx):
    """Margins are given as left/right and stay absolute (UIKit's `layoutMargins`): under
    right to left, leadingMargin is the right edge less the right margin, so a card 200
    wide with margins left 10, right 30 puts l (20 wide) at 200 − 30 − 20 = 150, not at
    the mirror of its left-to-right x 10 (170)."""
    def scene(direction):
        return {'container': {'width': 200, 'height': 100},
                'options': {'layoutDirection': direction},
                'views': {'card': {'margins': {'left': 10, 'right': 30}}, 'l': {'parent': 'card'}},
                'constraints': ['H:|[card]|', 'V:|[card]|', 'l.leading == card.leadingMargin',
                                'l.width == 20', 'l.top == 0', 'l.height == 5']}
    ctx.expect_equal(_post(ctx, scene('leftToRight'))['frames']['l'], _f(10, 0, 20, 5), 'ltr l')
    ctx.expect_equal(_post(ctx, scene('rightToLeft'))['frames']['l'], _f(150, 0, 20, 5), 'rtl l')


# ---------------------------------------------------------------- sizes

@check('semantics/sizes-repeat-conflict-fitted')
def sizes(ctx):
    """sizes A, B, A, C, D: both A entries identical, each entry exactly a separate /solve.
    a (intrinsic 100×21, >= 100) and b (>= 10, no intrinsic size) in
    `H:|-[a(>=100)]-[b(>=10)]-|`; b as high as a; a >= 10 above the bottom.
    A 320×200: b = 320 − 20 − 100 − 8 − 20 = 172 → b (128, 20, 172, 21).
    B 120×100: needs 20 + 100 + 8 + 10 + 20 = 158: the trailing `-|` (part 4) is left out,
    conflicting with container.width and parts 0–3; the container stays 120 wide, b.width
    is then only bounded below (ambiguous, at its bound 10).
    C width 400, height fitted: 20 + 21 + 10 = 51; b = 400 − 148 = 252.
    D nothing given: both fitted: b at its least, 10 → 20 + 100 + 8 + 10 + 20 = 158 wide."""
    base = {'views': {'a': _label(100, 21), 'b': {}},
            'constraints': ['H:|-[a(>=100)]-[b(>=10)]-|', 'V:|-[a]-(>=10)-|', 'V:|-[b(==a)]']}
    A, B, C, D = ({'width': 320, 'height': 200}, {'width': 120, 'height': 100},
                  {'width': 400}, {})
    scene = dict(base, sizes=[A, B, A, C, D])
    doc = _post(ctx, scene)
    ctx.expect('frames' not in doc, 'frames beside layouts')
    ctx.expect_equal(doc['diagnostics'], [], 'top-level diagnostics')
    lays = doc['layouts']
    ctx.expect_equal(len(lays), 5, 'number of layouts')
    ctx.expect_equal(lays[0], lays[2], 'the two A entries')
    singles = []
    for i, size in enumerate(scene['sizes']):
        single = _post(ctx, dict(base, container=size))
        singles.append(single)
        ctx.expect_equal(lays[i]['frames'], single['frames'], 'layouts[%d].frames' % i)
        ctx.expect_equal(lays[i]['diagnostics'], single['diagnostics'],
                         'layouts[%d].diagnostics' % i)
        sv = single['frames']['superview']
        ctx.expect_equal(lays[i]['container'], {'width': sv['width'], 'height': sv['height']},
                         'layouts[%d].container' % i)
    a = _f(20, 20, 100, 21)
    _frames_equal(ctx, lays[0]['frames'], {'superview': _f(0, 0, 320, 200), 'a': a,
                                           'b': _f(128, 20, 172, 21)}, 'A')
    ctx.expect_equal(lays[0]['diagnostics'], [], 'A diagnostics')
    _frames_equal(ctx, lays[1]['frames'], {'superview': _f(0, 0, 120, 100), 'a': a,
                                           'b': _f(128, 20, 10, 21)}, 'B')
    conflicts = _conflicts(lays[1])
    ctx.expect_equal(len(conflicts), 1, 'B conflicts')
    _expect_conflict(ctx, conflicts[0], (0, 4),
                     {('container.width', None), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4)}, 'B')
    ctx.expect_equal(_ambiguities(lays[1]), [('b', 'width')], 'B ambiguity')
    _frames_equal(ctx, lays[3]['frames'], {'superview': _f(0, 0, 400, 51), 'a': a,
                                           'b': _f(128, 20, 252, 21)}, 'C')
    ctx.expect_equal(lays[3]['diagnostics'], [], 'C diagnostics')
    _frames_equal(ctx, lays[4]['frames'], {'superview': _f(0, 0, 158, 51), 'a': a,
                                           'b': _f(128, 20, 10, 21)}, 'D')
    ctx.expect_equal(lays[4]['diagnostics'], [], 'D diagnostics')
