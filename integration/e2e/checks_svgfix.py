"""Fresh-user findings on the wireframe and `explain`, through the real server (curl
reproductions of F1, F11, F6's `?scale=` parts and F5): a guide's label marks ambiguous
fields, a reduced scale keeps the 16,384 px cap with margins, `?scale=` from 0.001, and
`explain` of a layout guide. Responses are validated against openapi.yaml by the harness."""
import xml.etree.ElementTree as ET

from harness import check

SVG = '{http://www.w3.org/2000/svg}'


def _svg(ctx, r, what):
    ctx.expect_status(r, 200, what)
    return ET.fromstring(r.body)


@check('svg/guide-label-ambiguity')
def guide_label_ambiguity(ctx):
    scene = {'container': {'width': 300, 'height': 200}, 'views': ['a'], 'guides': {'u': {}},
             'constraints': ['H:|-[a]-|', 'V:|-[a]-|', 'u.left == 100', 'u.top == 100', 'u.width >= 50']}
    root = _svg(ctx, ctx.request('POST', '/solve?format=svg', scene), 'guide u')
    labels = [t.text for t in root.iter(SVG + 'text') if t.get('data-for') == 'u']
    ctx.expect_equal(labels, ['u  100,100 50?×0?'], "u's label marks width and height ambiguous")


@check('svg/scale-cap-with-margins')
def scale_cap_with_margins(ctx):
    scene = {'container': {'width': 2000, 'height': 50}, 'views': ['a'], 'constraints': ['H:|-[a]-|', 'V:|-[a]-|']}
    root = _svg(ctx, ctx.request('POST', '/solve?format=svg&scale=16', scene), 'scale=16')
    ctx.expect_equal((root.get('width'), root.get('data-scale')), ('16384', '8.176'),
                     'reduced to 16,384 px with the 32 px of margins')
    for query, status in (('scale=0.001', 200), ('scale=0.0009', 400), ('scale=NaN', 400)):
        r = ctx.request('POST', '/solve?format=svg&' + query, scene)
        ctx.expect_status(r, status, query)
    r = ctx.request('POST', '/solve?format=svg&scale=NaN', scene)
    ctx.expect(r.json()['detail'].startswith("scale='NaN' is not a display scale"), 'echoed as sent: %r' % r.json()['detail'])


@check('explain/layout-guide')
def explain_layout_guide(ctx):
    scene = {'views': ['a'], 'guides': {'g': {}}, 'constraints': ['H:|[a]|', 'V:|[a]|', 'g.edges == a.edges'],
             'explain': ['g.width']}
    r = ctx.request('POST', '/solve', scene)
    ctx.expect_status(r, 200, 'explain g.width')
    refs = [entry['ref']['text'] for entry in r.json()['explanations']['g.width']]
    ctx.expect_equal(refs, ['a.leading == superview.leading', 'superview.trailing == a.trailing',
                            'g.leading == a.leading', 'g.trailing == a.trailing', 'superview.width == 0 @50'],
                     'g.width explained like a view field')
    scene['explain'] = ['safeArea']
    r = ctx.request('POST', '/solve', scene)
    ctx.expect_status(r, 422, 'explain safeArea')
    ctx.expect_equal([(d['code'], d['path']) for d in r.json()['diagnostics']], [('unknown_view', '$.explain[0]')],
                     'safeArea refused at its element')
