"""Stack views over HTTP (`stacks/*`; the corpus v1.1 cases are `corpus/v1.1/*`): a stack's
constraints named `stack:NAME` in a conflict, the hugging tie as `ambiguous_layout`,
`hidden`, the 422s and 400s of the `stack` member, a nested stack forwarding its arranged
views' baselines (UIKit's `forFirstBaselineLayout`), a hidden view in a `baselineRelative`
stack between the baselines, and a cycle of arrangements reported at the arrangement.

Every expected frame is derived in a comment from the contract
(docs/scene-format.md, "Stack views"). Every response is validated against
openapi.yaml by the harness's client.
"""
import json
import os

from harness import check, CheckFailed

def _post(ctx, scene, status):
    r = ctx.request('POST', '/solve', scene, {'Cache-Control': 'no-store'})
    ctx.expect_status(r, status, '/solve')
    return r.json()


def _row(extra_constraints=(), hugging_a=251, width=300):
    """A fill row `width` wide at (10, 10), 50 tall: a 40 (hugging `hugging_a`) and b 60,
    spacing 10."""
    return {
        'container': {'width': 400, 'height': 100},
        'views': {
            'row': {'stack': {'spacing': 10, 'arranged': ['a', 'b']}},
            'a': {'intrinsicSize': {'width': 40, 'height': 20}, 'hugging': {'horizontal': hugging_a}},
            'b': {'intrinsicSize': {'width': 60, 'height': 20}},
        },
        'constraints': ['H:|-10-[row(%d)]' % width, 'V:|-10-[row(50)]'] + list(extra_constraints),
    }


@check('stacks/stretch-and-hidden')
def stretch_and_hidden(ctx):
    # a hugs at 251, b at 250: b takes 300 - 40 - 10 = 250 at x 50; both 50 tall (fill).
    doc = _post(ctx, _row(), 200)
    ctx.expect_equal(doc['frames']['a'], {'x': 0, 'y': 0, 'width': 40, 'height': 50}, 'a')
    ctx.expect_equal(doc['frames']['b'], {'x': 50, 'y': 0, 'width': 250, 'height': 50}, 'b')
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')
    # a hidden: b alone fills the row; a is 0 wide at the leading edge.
    scene = _row()
    scene['views']['a']['hidden'] = True
    doc = _post(ctx, scene, 200)
    ctx.expect_equal(doc['frames']['a'], {'x': 0, 'y': 0, 'width': 0, 'height': 50}, 'hidden a')
    ctx.expect_equal(doc['frames']['b'], {'x': 0, 'y': 0, 'width': 300, 'height': 50}, 'b alone')


@check('stacks/conflict-names-stack-refs')
def conflict_names_stack_refs(ctx):
    # a.width == 100 and b.width == 200 with spacing 10 need a 310-wide row: the second
    # equation conflicts with the row's 300 and the stack's canvas and spacing constraints.
    doc = _post(ctx, _row(['a.width == 100', 'b.width == 200']), 200)
    conflicts = [d for d in doc['diagnostics'] if d['code'] == 'unsatisfiable_constraints']
    ctx.expect_equal(len(conflicts), 1, 'conflicts')
    refs = conflicts[0]['conflicting']
    stack = sorted((r['part'], r['text']) for r in refs if r['constraint'] == 'stack:row')
    ctx.expect_equal(stack, [(0, 'a.leading == row.leading (stack row canvas)'),
                             (1, 'b.trailing == row.trailing (stack row canvas)'),
                             (2, 'b.leading == a.trailing + 10 (stack row spacing)')], 'stack refs')
    ctx.expect_equal(conflicts[0]['broken']['constraint'], 3, 'broken')


@check('stacks/hugging-tie-is-ambiguous')
def hugging_tie(ctx):
    # Both hug at 250: the 200 extra points may go to either: both widths are ambiguous.
    doc = _post(ctx, _row(hugging_a=250), 200)
    ambiguous = sorted((d['view'], d['attribute']) for d in doc['diagnostics'] if d['code'] == 'ambiguous_layout')
    ctx.expect(('a', 'width') in ambiguous and ('b', 'width') in ambiguous, 'ambiguous: %r' % ambiguous)
    notes = ' '.join(n for d in doc['diagnostics'] if d['code'] == 'ambiguous_layout' for n in d.get('notes', []))
    ctx.expect("Content priority ambiguity in stack 'row': 'a' and 'b' have the same horizontal hugging priority (250)" in notes,
               'notes: %s' % notes[:400])
    again = _post(ctx, _row(hugging_a=250), 200)
    ctx.expect_equal(again['frames'], doc['frames'], 'the same frames again')


@check('stacks/invalid-422-and-400')
def invalid_stacks(ctx):
    base = {'container': {'width': 100, 'height': 100}}
    cases = [
        ({'s': {'stack': {'arranged': ['s']}}}, 422, '$.views.s.stack.arranged[0]'),
        ({'s': {'stack': {'arranged': ['ghost']}}}, 422, '$.views.s.stack.arranged[0]'),
        ({'s': {'stack': {'axis': 'vertical', 'alignment': 'lastBaseline', 'arranged': []}}}, 422,
         '$.views.s.stack.alignment'),
        ({'s': {'stack': {'arranged': ['a']}}, 'p': {}, 'a': {'parent': 'p'}}, 422, '$.views.a.parent'),
        ({'s': {'stack': {'axis': 'sideways', 'arranged': []}}}, 400, '$.views.s.stack.axis'),
        ({'s': {'hidden': 'no'}}, 400, '$.views.s.hidden'),
    ]
    for views, status, path in cases:
        scene = dict(base, views=views)
        doc = _post(ctx, scene, status)
        paths = [d.get('path') for d in doc['diagnostics'] if d['code'] == 'invalid_scene']
        ctx.expect(path in paths, '%r: paths %r, expected %s' % (views, paths, path))


@check('stacks/playground-examples')
def playground_examples(ctx):
    # The playground's three stack examples (a table cell row, an equalSpacing toolbar, a
    # form of rows) lay out with no diagnostic. The toolbar is corpus case 303's: four
    # buttons 22 + 30 + 26 + 28 = 106 wide in 358, gaps (358 - 106)/3 = 84: x 0, 106, 220, 330.
    r = ctx.request('GET', '/')
    ctx.expect_status(r, 200, 'GET /')
    page = r.body.decode('utf-8')
    decoder = json.JSONDecoder()
    for name in ('stackCell', 'stackToolbar', 'stackForm'):
        marker = '    %s: ' % name
        ctx.expect(marker in page, 'the playground has no %s example' % name)
        scene, _ = decoder.raw_decode(page, page.index(marker) + len(marker))
        doc = _post(ctx, scene, 200)
        ctx.expect_equal(doc['diagnostics'], [], '%s diagnostics' % name)
        if name == 'stackToolbar':
            ctx.expect_equal([doc['frames'][b]['x'] for b in ('back', 'share', 'bookmark', 'tabs')],
                             [0, 106, 220, 330], 'toolbar x')


@check('stacks/nested-stack-forwards-baselines')
def nested_stack_forwards_baselines(ctx):
    # title (50 x 30, baseline 22) beside col = name (60 x 20, baseline 15) over detail
    # (60 x 14): col's first baseline is name's, col.y + 15 == title.y + 22, the higher
    # top (title's) at 0: col at y 7, 34 tall; the row 50 + 8 + 60 = 118 wide,
    # 7 + 34 = 41 tall; nothing squeezed, nothing ambiguous.
    scene = {
        'container': {'width': 300, 'height': 300},
        'views': {
            'row': {'stack': {'alignment': 'firstBaseline', 'spacing': 8, 'arranged': ['title', 'col']}},
            'title': {'intrinsicSize': {'width': 50, 'height': 30}, 'baseline': 22, 'firstBaseline': 22},
            'col': {'stack': {'axis': 'vertical', 'arranged': ['name', 'detail']}},
            'name': {'intrinsicSize': {'width': 60, 'height': 20}, 'baseline': 15, 'firstBaseline': 15},
            'detail': {'intrinsicSize': {'width': 60, 'height': 14}, 'baseline': 11, 'firstBaseline': 11},
        },
        'constraints': ['row.top == 0', 'row.leading == 0'],
    }
    doc = _post(ctx, scene, 200)
    frames = doc['frames']
    ctx.expect_equal(frames['row'], {'x': 0, 'y': 0, 'width': 118, 'height': 41}, 'row')
    ctx.expect_equal(frames['col'], {'x': 58, 'y': 7, 'width': 60, 'height': 34}, 'col')
    ctx.expect_equal(frames['name'], {'x': 0, 'y': 0, 'width': 60, 'height': 20}, 'name')
    ctx.expect_equal(frames['detail'], {'x': 0, 'y': 20, 'width': 60, 'height': 14}, 'detail')
    ctx.expect_equal(doc['diagnostics'], [], 'diagnostics')


@check('stacks/hidden-between-baselines')
def hidden_between_baselines(ctx):
    # baselineRelative, 30 after a: b.y = 25 + 30 - 12 = 43; hidden h at a's last
    # baseline + 15 = 40, 0 tall (between a's bottom 30 and b's top 43).
    scene = {
        'container': {'width': 300, 'height': 300},
        'views': {
            's': {'stack': {'axis': 'vertical', 'baselineRelative': True, 'spacing': 20, 'alignment': 'leading',
                            'arranged': ['a', 'h', 'b'], 'customSpacing': {'a': 30}}},
            'a': {'intrinsicSize': {'width': 20, 'height': 30}, 'baseline': 25, 'firstBaseline': 10},
            'h': {'hidden': True, 'intrinsicSize': {'width': 20, 'height': 30}, 'baseline': 25, 'firstBaseline': 10},
            'b': {'intrinsicSize': {'width': 40, 'height': 40}, 'baseline': 35, 'firstBaseline': 12},
        },
        'constraints': ['s.top == superview.top', 's.leading == superview.leading'],
    }
    doc = _post(ctx, scene, 200)
    ctx.expect_equal(doc['frames']['h'], {'x': 0, 'y': 40, 'width': 20, 'height': 0}, 'h')
    ctx.expect_equal(doc['frames']['b'], {'x': 0, 'y': 43, 'width': 40, 'height': 40}, 'b')


@check('stacks/arrangement-cycle-path')
def arrangement_cycle_path(ctx):
    # s (checked first) arranges t, so t arranging s arranges its ancestor.
    doc = _post(ctx, {'views': {'s': {'stack': {'arranged': ['t']}}, 't': {'stack': {'arranged': ['s']}}}}, 422)
    ctx.expect_equal([(d['code'], d['path'], d['message']) for d in doc['diagnostics']],
                     [('invalid_scene', '$.views.t.stack.arranged[0]',
                       "Stack 't' cannot arrange 's', which is an ancestor of it")], 'diagnostics')
