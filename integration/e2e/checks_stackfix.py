"""Stack-view fixes of the fresh-user findings over HTTP (`stackfix/*`): a nested
stack forwards its arranged views' baselines (F10), a hidden view in a
`baselineRelative` stack sits between the baselines (F9), and a cycle of stack
arrangements is reported at the arrangement (F4).

Every expected frame is derived in a comment from the contract
(shared/design/scene-format.md, "Stack views") and UIKit's `forFirstBaselineLayout`.
Every response is validated against openapi.yaml by the harness's client.
"""
from harness import check


def _post(ctx, scene, status):
    r = ctx.request('POST', '/solve', scene, {'Cache-Control': 'no-store'})
    ctx.expect_status(r, status, '/solve')
    return r.json()


@check('stackfix/nested-stack-forwards-baselines')
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


@check('stackfix/hidden-between-baselines')
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


@check('stackfix/arrangement-cycle-path')
def arrangement_cycle_path(ctx):
    # s (checked first) arranges t, so t arranging s arranges its ancestor.
    doc = _post(ctx, {'views': {'s': {'stack': {'arranged': ['t']}}, 't': {'stack': {'arranged': ['s']}}}}, 422)
    ctx.expect_equal([(d['code'], d['path'], d['message']) for d in doc['diagnostics']],
                     [('invalid_scene', '$.views.t.stack.arranged[0]',
                       "Stack 't' cannot arrange 's', which is an ancestor of it")], 'diagnostics')
