"""Labels over HTTP (`text/*`): the `text` member of /solve, of each `sizes` layout, of
/validate and `?format=svg`, the 422s of bad text and unknown fonts, and the cache (a hit
is byte-identical). Every response is validated against openapi.yaml by the harness's
client. The corpus cases of contract v1.2 run in checks_corpus (`corpus/v1.2/*`).

Expected numbers come from the font files through uharfbuzz (DejaVu Sans Mono: every glyph
one advance wide), not from layoutd.
"""
import math

from harness import CheckFailed, check

MONO = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'


def _mono(size=13):
    """(advance, line height) of DejaVu Sans Mono at `size`, points, from its own tables."""
    try:
        import uharfbuzz as hb
    except ImportError:
        raise CheckFailed('uharfbuzz is missing: run scripts/install-deps.sh')
    face = hb.Face(hb.Blob.from_file_path(MONO))
    font = hb.Font(face)
    font.scale = (face.upem, face.upem)
    ext = font.get_font_extents('ltr')
    advance = font.get_glyph_h_advance(font.get_nominal_glyph(ord('a')))
    return advance * size / face.upem, (ext.ascender - ext.descender + ext.line_gap) * size / face.upem


def _label(string, lines=0):
    return {'text': {'string': string, 'font': {'family': 'DejaVu Sans Mono', 'size': 13}, 'numberOfLines': lines}}


def _post(ctx, scene, status=200, target='/solve', headers=None):
    r = ctx.request('POST', target, scene, {'Cache-Control': 'no-store'} if headers is None else headers)
    ctx.expect_status(r, status, target)
    return r


@check('text/sizes-each-wrap-at-their-width')
def sizes_each_wrap(ctx):
    a, lh = _mono()
    # "aaaa bbbb cccc dddd" in 9 cells: 2 lines; in 4: 4 lines; in 19: 1 line.
    widths = [40 + 9 * a, 40 + 4 * a, 40 + 19 * a]
    scene = {'views': {'l': _label('aaaa bbbb cccc dddd')},
             'constraints': ['H:|-20-[l]-20-|', 'V:|-10-[l]'],
             'sizes': [{'width': w, 'height': 200} for w in widths]}
    doc = _post(ctx, scene).json()
    got = [layout['text']['l']['lines'] for layout in doc['layouts']]
    ctx.expect_equal(got, [2, 4, 1], 'lines per size')
    heights = [layout['frames']['l']['height'] for layout in doc['layouts']]
    ctx.expect_equal(heights, [math.ceil(n * lh) for n in (2, 4, 1)], 'label heights')


@check('text/spaces-never-form-a-line')
def spaces_never_form_a_line(ctx):
    """At a wrap width narrower than one glyph each grapheme cluster is a line of its own
    and the spaces hang at the end of the line before: "Hi there you" is 10 lines. The
    label takes its own width (one glyph), since the lines shown are wrapped at the frame's
    width as UILabel draws them, and the preferred width only measures its size."""
    a, lh = _mono()
    label = _label('Hi there you')
    label['text']['preferredMaxLayoutWidth'] = 1e-9
    scene = {'container': {'width': 320, 'height': 400}, 'views': {'l': label},
             'constraints': ['H:|-[l]', 'V:|-[l]']}
    doc = _post(ctx, scene).json()
    ctx.expect_equal(doc['text']['l'], {'lines': 10, 'truncated': False}, 'text of the label')
    ctx.expect_equal(doc['frames']['l']['height'], math.ceil(10 * lh), 'label height (10 lines)')


@check('text/every-mandatory-break-ends-a-line')
def every_mandatory_break(ctx):
    """LF, VT, FF, CR, CR LF (once), NEL, U+2028 and U+2029 each end a line (UAX #14 LB4,
    LB5): "ab", the break, "cd" is 2 lines in /solve and 2 drawn lines "ab" and "cd" in the
    wireframe; a tab is no break."""
    import xml.etree.ElementTree as ET
    a, lh = _mono()
    ns = '{http://www.w3.org/2000/svg}'
    for sep in ['\n', '\x0b', '\x0c', '\r', '\r\n', '\x85', '\u2028', '\u2029', '\t']:
        want = 1 if sep == '\t' else 2
        scene = {'container': {'width': 320, 'height': 400}, 'views': {'l': _label('ab' + sep + 'cd')},
                 'constraints': ['H:|-[l]', 'V:|-[l]']}
        doc = _post(ctx, scene).json()
        ctx.expect_equal(doc['text']['l'], {'lines': want, 'truncated': False}, 'text of ab%rcd' % sep)
        ctx.expect_equal(doc['frames']['l']['height'], math.ceil(want * lh), 'height of ab%rcd' % sep)
        svg = _post(ctx, scene, target='/solve?format=svg').body
        group = [g for g in ET.fromstring(svg).iter(ns + 'g') if g.get('class') == 'text' and g.get('data-view') == 'l']
        drawn = [t.text for t in group[0].findall(ns + 'text')] if group else None
        ctx.expect_equal(drawn, ['ab', 'cd'] if want == 2 else ['ab\tcd'], 'drawn lines of ab%rcd' % sep)


@check('text/import-measures-every-line-break')
def import_measures_every_line_break(ctx):
    """/import?intrinsic=measured keeps a label's CR (`&#13;` in the document) and measures
    it as a line break: the label is two lines high, the frame /solve gives the same scene."""
    from checks_import import XML, _doc
    label = ('<label text="ab&#13;cd" numberOfLines="0" translatesAutoresizingMaskIntoConstraints="NO" id="l-1">'
             '<rect key="frame" x="16" y="20" width="90" height="24"/>'
             '<fontDescription key="fontDescription" type="system" pointSize="17"/></label>\n')
    body = _doc(label, '<constraint firstItem="l-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="16" id="c-1"/>\n'
                       '<constraint firstItem="l-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" constant="20" id="c-2"/>\n')
    r = ctx.request('POST', '/import?solve=true&intrinsic=measured', body, XML)
    ctx.expect_status(r, 200, 'intrinsic=measured')
    h = r.json()['hierarchies'][0]
    names = [name for name, view in h['scene']['views'].items() if view.get('text', {}).get('string') == 'ab\rcd']
    ctx.expect_equal(len(names), 1, 'labels whose string is ab CR cd')
    solved = _post(ctx, h['scene']).json()
    ctx.expect_equal(solved['text'][names[0]], {'lines': 2, 'truncated': False}, 'text of the imported label')
    ctx.expect_equal(h['frames'][names[0]], solved['frames'][names[0]], 'the frame /solve gives')


@check('text/validate-and-unknown-font')
def validate_and_unknown(ctx):
    scene = {'container': {'width': 320, 'height': 100},
             'views': {'l': {'text': {'string': 'Hi \u2603 \u0fff', 'font': {'family': 'inter'}}}},
             'constraints': ['H:|-[l]', 'V:|-[l]']}
    doc = _post(ctx, scene, target='/validate').json()
    ctx.expect_equal((doc['valid'], [d['code'] for d in doc['diagnostics']]), (True, ['missing_glyphs']), '/validate')
    scene['views']['l']['text']['font']['family'] = 'Intr'
    doc = _post(ctx, scene, status=422).json()
    ctx.expect_equal(doc['diagnostics'][0]['code'], 'unknown_font', 'code')
    ctx.expect_equal(doc['diagnostics'][0]['message'], "Unknown font family 'Intr'; did you mean 'Inter'?", 'message')


@check('text/bad-text-is-422')
def bad_text(ctx):
    for text, what in [({'string': 'x', 'font': {'size': 0}}, 'size 0'),
                       ({'string': 'x', 'font': {'weight': 1000}}, 'weight 1000'),
                       ({'string': 'y' * 10001}, '10,001 characters')]:
        scene = {'views': {'l': {'text': text}}, 'constraints': ['H:|[l]']}
        doc = _post(ctx, scene, status=422).json()
        ctx.expect_equal(doc['diagnostics'][0]['code'], 'invalid_scene', what)
    scene = {'views': {'l': {'text': {'string': 'x'}, 'intrinsicSize': {'width': 3}}}, 'constraints': ['H:|[l]']}
    ctx.expect_equal(_post(ctx, scene, status=422).json()['diagnostics'][0]['path'], '$.views.l.intrinsicSize', 'path')


@check('text/cache-hit-is-the-same-bytes')
def cache_hit(ctx):
    scene = {'container': {'width': 200}, 'views': {'l': _label('the same label, twice over')},
             'constraints': ['H:|-[l]-|', 'V:|-[l]-|']}
    first = _post(ctx, scene, headers={})
    second = _post(ctx, scene, headers={})
    ctx.expect_equal(second.headers.get('cache-status'), 'layoutd; hit', 'Cache-Status of the second')
    ctx.expect_equal(second.body, first.body, 'bytes of the hit')


@check('text/svg-of-a-scene-with-labels')
def svg(ctx):
    """The wireframe draws the label's lines (`g.text`) in its font at its left edge and
    measured baselines (the ascender from uharfbuzz, plus a line height per line), as many
    as the JSON answer's `text.lines`, each `textLength` its measured width."""
    import xml.etree.ElementTree as ET
    advance, line_height = _mono()
    ascender = _mono_ascender()
    # 'drawn as a box' is 14 cells; 10 cells of width wrap it into 'drawn as a' and 'box'.
    scene = {'container': {'width': 40 + 10 * advance}, 'views': {'l': _label('drawn as a box')},
             'constraints': ['H:|-20-[l]-20-|', 'V:|-20-[l]-20-|']}
    r = _post(ctx, scene, target='/solve?format=svg')
    if b'<svg' not in r.body:
        raise CheckFailed('no SVG: %r' % r.body[:200])
    answer = _post(ctx, scene).json()
    ns = '{http://www.w3.org/2000/svg}'
    groups = [g for g in ET.fromstring(r.body).iter(ns + 'g') if g.get('class') == 'text' and g.get('data-view') == 'l']
    ctx.expect(len(groups) == 1, 'g.text of l: %d' % len(groups))
    group = groups[0]
    ctx.expect(group.get('font-family') == "'DejaVu Sans Mono', monospace" and group.get('font-size') == '13',
               'font %r %r' % (group.get('font-family'), group.get('font-size')))
    lines = group.findall(ns + 'text')
    ctx.expect([t.text for t in lines] == ['drawn as a', 'box'], 'lines %r' % [t.text for t in lines])
    ctx.expect(group.get('data-lines') == '2' == str(answer['text']['l']['lines']),
               'data-lines %r, /solve %r' % (group.get('data-lines'), answer['text']['l']))
    for index, (line, cells) in enumerate(zip(lines, (10, 3))):
        ctx.expect(float(line.get('x')) == 20, 'x %r' % line.get('x'))
        ctx.expect(abs(float(line.get('y')) - (20 + ascender + index * line_height)) <= 1e-6,
                   'baseline %d at %r, want %r' % (index, line.get('y'), 20 + ascender + index * line_height))
        ctx.expect(abs(float(line.get('textLength')) - cells * advance) <= 1e-6, 'textLength %r' % line.get('textLength'))


def _mono_ascender(size=13):
    """DejaVu Sans Mono's ascender at `size`, points, from its own tables."""
    import uharfbuzz as hb
    face = hb.Face(hb.Blob.from_file_path(MONO))
    font = hb.Font(face)
    font.scale = (face.upem, face.upem)
    return font.get_font_extents('ltr').ascender * size / face.upem
