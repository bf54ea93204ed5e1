"""The SVG wireframe a person can read (`svg/*`), through the real server: the display
size (`?scale=`, `?width=`, the default fit, a 1e12-point container), its 400s, labels
that do not overprint, the conflict written as visible text, a guide's label marking its
ambiguous fields, and the 16,384 px cap of a scaled picture. Responses are validated
against openapi.yaml by the harness."""
import xml.etree.ElementTree as ET

from harness import check

SVG = '{http://www.w3.org/2000/svg}'

PHONE = {'container': {'width': 375, 'height': 667}, 'views': ['a'],
         'constraints': ['H:|-[a]-|', 'V:|-[a(44)]']}
OVERFLOW = {'container': {'width': 375, 'height': 100}, 'views': ['red'],
            'constraints': ['H:|-[red(500)]-|', 'V:|[red(10)]']}


def _svg(ctx, r, what):
    ctx.expect_status(r, 200, what)
    ctx.expect_equal(r.headers.get('content-type'), 'image/svg+xml; charset=utf-8', what)
    return ET.fromstring(r.body)


def _label_boxes(root):
    """(text, box) of every label and caption, estimated from x, y, font size and length:
    0.62 em per character, 0.95 em above the baseline, 0.3 em below."""
    root_font = float(root.get('font-size'))
    boxes = []
    for text in root.iter(SVG + 'text'):
        kind = text.get('class') or ''
        if not (kind.startswith('label') or kind == 'caption'):
            continue
        font = float(text.get('font-size') or root_font)
        x, y = float(text.get('x')), float(text.get('y'))
        boxes.append((text.text, (x, y - 0.95 * font, x + len(text.text or '') * 0.62 * font, y + 0.3 * font)))
    return boxes


@check('svg/display-size')
def display_size(ctx):
    root = _svg(ctx, ctx.request('POST', '/solve?format=svg', PHONE), 'default')
    ctx.expect_equal((root.get('width'), root.get('height'), root.get('viewBox')), ('407', '699', '0 0 407 699'),
                     'a phone at 1 px per point')
    root = _svg(ctx, ctx.request('POST', '/solve?format=svg&scale=2', PHONE), 'scale=2')
    ctx.expect_equal((root.get('width'), root.get('height'), root.get('viewBox')), ('782', '1366', '0 0 391 683'),
                     'scale=2: twice the points, margins in pixels')
    root = _svg(ctx, ctx.request('POST', '/solve?width=600', PHONE, {'Accept': 'image/svg+xml'}), 'width=600')
    ctx.expect_equal(root.get('width'), '600', 'width=600')
    huge = dict(PHONE, container={'width': 1e12, 'height': 500})
    root = _svg(ctx, ctx.request('POST', '/solve?format=svg', huge), '1e12 points')
    ctx.expect(float(root.get('width')) <= 1200 and float(root.get('height')) <= 900,
               'a 1e12-point container is drawn %s × %s px' % (root.get('width'), root.get('height')))
    for query, start in (('scale=0', "scale='0' is not a display scale"), ('scale=abc', "scale='abc'"),
                         ('scale=1e3', "scale='1e3'"), ('width=99999', "width='99999' is not a display width"),
                         ('scale=1&width=300', 'Give scale or width, not both'),
                         ('width=300&width=400', "'width' is given 2 times")):
        r = ctx.request('POST', '/solve?format=svg&' + query, PHONE)
        ctx.expect_status(r, 400, query)
        ctx.expect_equal(r.headers.get('content-type'), 'application/problem+json', query)
        ctx.expect(r.json()['detail'].startswith(start), '%s: detail %r' % (query, r.json()['detail']))
    # A JSON answer ignores a valid one and refuses a malformed one, as openapi.yaml's patterns say.
    r = ctx.request('POST', '/solve?scale=2', PHONE)
    ctx.expect_status(r, 200, 'a valid scale is ignored for JSON')
    last = (r.json().get('diagnostics') or [{}])[-1]
    ctx.expect_equal((last.get('severity'), last.get('code'), last.get('path')), ('warning', 'invalid_scene', '?scale'),
                     'a JSON answer warns of the scale it ignores')
    r = ctx.request('POST', '/solve?scale=abc', PHONE)
    ctx.expect_status(r, 400, 'a malformed scale with a JSON answer')
    r = ctx.request('POST', '/solve?width=', PHONE)
    ctx.expect_status(r, 400, 'an empty width with a JSON answer')


@check('svg/labels-readable')
def labels_readable(ctx):
    root = _svg(ctx, ctx.request('POST', '/solve?format=svg', OVERFLOW), 'the issue\'s overflow')
    boxes = _label_boxes(root)
    ctx.expect(len(boxes) == 2, 'labels %r' % boxes)
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            overlap = box_a[0] < box_b[2] and box_b[0] < box_a[2] and box_a[1] < box_b[3] and box_b[1] < box_a[3]
            ctx.expect(not overlap, '%r overprints %r' % (a, b))
    red = next(g for g in root.iter(SVG + 'g') if g.get('data-view') == 'red')
    ctx.expect_equal(red.get('class'), 'view warning conflict', 'red is outlined as in a conflict')
    problems = [t.text for t in root.iter(SVG + 'text') if t.get('class') == 'problem']
    ctx.expect(problems and problems[0].startswith('• Conflict (views superview, red): Unable to simultaneously satisfy'),
               'the conflict is visible text: %r' % problems)


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
