"""Layout guides and the safe area over HTTP (`guides/*`): the corpus cases of
contract v1.1 for them (shared/corpus/v1.1/309-311, compared by shared/tools/run_cases.py,
`expect.guides` included), the `guides` member of /solve and of `sizes` layouts, each 422 of
the `guides` rules, VFL naming a guide, a guide's margin or baseline, and the SVG's dashed
guides. Every response is validated against openapi.yaml by the harness's client.

Expected frames are derived in comments from the contract
(docs/scene-format.md, "Stack views, guides, the safe area", and docs/scenes.md).
"""
import importlib.util
import json
import os

from harness import CheckFailed, check

V11_CASES = ('309_spacer_guides_center_buttons', '310_safe_area_header_footer',
             '311_guide_in_vfl_unknown_view')


def _run_cases(ctx):
    path = os.path.join(ctx.shared, 'tools', 'run_cases.py')
    if not os.path.isfile(path):
        raise CheckFailed('shared/tools/run_cases.py is missing (--shared)')
    spec = importlib.util.spec_from_file_location('run_cases', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus_check(name):
    def run(ctx):
        path = os.path.join(ctx.corpus, 'v1.1', name + '.json')
        if not os.path.isfile(path):
            raise CheckFailed('missing corpus case %s' % path)
        with open(path, encoding='utf-8') as fh:
            case = json.load(fh)
        resp = ctx.request('POST', '/solve', json.dumps(case['scene']).encode('utf-8'),
                           {'Content-Type': 'application/json'})
        err = _run_cases(ctx).check(case, resp.status, resp.body)
        if err:
            raise CheckFailed(err)
    check('guides/corpus-' + name)(run)


for _name in V11_CASES:
    _corpus_check(_name)


def _f(x, y, width, height):
    return {'x': x, 'y': y, 'width': width, 'height': height}


def _post(ctx, scene, status=200, target='/solve'):
    r = ctx.request('POST', target, scene, {'Cache-Control': 'no-store'})
    ctx.expect_status(r, status, target)
    return r


@check('guides/answer-owner-relative-and-root')
def answer_owner_relative(ctx):
    # card at (20, 40, 360, 200) in 400 x 300; gap from card.leading + 10 to
    # card.trailing - 30 (x 10, width 320 in card), on card's top, 50 high.
    # Under coordinates: root it is at (30, 40).
    scene = {'container': {'width': 400, 'height': 300}, 'views': ['card'],
             'guides': {'gap': {'owner': 'card'}},
             'constraints': ['H:|-20-[card]-20-|', 'V:|-40-[card(200)]',
                             'gap.leading == card.leading + 10', 'gap.trailing == card.trailing - 30',
                             'gap.top == card.top', 'gap.height == 50']}
    body = _post(ctx, scene).body.decode('utf-8')
    ctx.expect_equal(body, '{"frames":{"superview":{"x":0,"y":0,"width":400,"height":300},'
                           '"card":{"x":20,"y":40,"width":360,"height":200}},'
                           '"guides":{"gap":{"x":10,"y":0,"width":320,"height":50}},"diagnostics":[]}',
                     'answer bytes')
    scene['options'] = {'coordinates': 'root'}
    doc = _post(ctx, scene).json()
    ctx.expect_equal(doc['guides'], {'gap': _f(30, 40, 320, 50)}, 'root guides')


@check('guides/safe-area-follows-sizes')
def safe_area_sizes(ctx):
    # Insets 47 top, 34 bottom. footer on the safe area's bottom, 49 high:
    # at 390 x 844, y = 844 - 34 - 49 = 761; at 844 x 390, y = 390 - 34 - 49 = 307;
    # header on its top: y 47 at both; neither answers a 'guides' member (no guides).
    scene = {'container': {'safeArea': {'top': 47, 'bottom': 34}}, 'views': ['header', 'footer'],
             'constraints': ['header.top == safeArea.top', 'header.leading == safeArea.leading',
                             'header.width == safeArea.width', 'header.height == 44',
                             'footer.bottom == safeArea.bottom', 'footer.leading == safeArea.leading',
                             'footer.width == safeArea.width', 'footer.height == 49'],
             'sizes': [{'width': 390, 'height': 844}, {'width': 844, 'height': 390}]}
    doc = _post(ctx, scene).json()
    layouts = doc['layouts']
    ctx.expect_equal([l['frames']['footer'] for l in layouts],
                     [_f(0, 761, 390, 49), _f(0, 307, 844, 49)], 'footers')
    ctx.expect_equal([l['frames']['header'] for l in layouts],
                     [_f(0, 47, 390, 44), _f(0, 47, 844, 44)], 'headers')
    ctx.expect(all('guides' not in l for l in layouts), 'a guides member without guides')


@check('guides/invalid-scene-422s')
def invalid_scenes(ctx):
    cases = [
        ({'views': ['a'], 'guides': {'g': {'owner': 'b'}}}, "Layout guide 'g' names an unknown owner 'b'"),
        ({'views': ['a'], 'guides': {'a': {}}},
         "Layout guide 'a' has the name of a view: guides and views share one namespace"),
        ({'guides': {'safeArea': {}}},
         "'safeArea' is reserved (the container's safe-area layout guide) and cannot name a layout guide"),
        ({'guides': {'superview': {}}}, "'superview' is reserved (the container) and cannot name a layout guide"),
        ({'guides': {'9g': {}}}, "Layout guide name '9g' is invalid: names match [A-Za-z_][A-Za-z0-9_]*"),
        ({'views': ['safeArea']},
         "'safeArea' is reserved for the container's safe-area layout guide and cannot name a view"),
    ]
    for scene, message in cases:
        doc = _post(ctx, scene, 422).json()
        ctx.expect_diagnostic(doc, 'invalid_scene', message=message)


@check('guides/wrong-shapes-400')
def wrong_shapes(ctx):
    for scene, path in [({'guides': ['g']}, '$.guides'), ({'guides': {'g': {'owner': 1}}}, '$.guides.g.owner'),
                        ({'container': {'safeArea': {'top': '47'}}}, '$.container.safeArea.top')]:
        doc = _post(ctx, scene, 400).json()
        ctx.expect_diagnostic(doc, 'invalid_scene', path=path)


@check('guides/vfl-and-attributes-422')
def vfl_and_attributes(ctx):
    base = {'container': {'width': 320, 'height': 568}, 'views': ['logo', 'caption'], 'guides': {'gap': {}}}
    # A guide as a view, in a predicate, as a connection's space; safeArea too: unknown_view
    # at the name, with the note.
    for source, column, name in [('H:|[gap]|', 4, 'gap'), ('H:[logo(==gap)]', 10, 'gap'),
                                 ('H:[logo]-(gap)-[caption]', 10, 'gap'), ('V:|[safeArea]', 4, 'safeArea')]:
        doc = _post(ctx, dict(base, constraints=[source]), 422).json()
        d = ctx.expect_diagnostic(doc, 'unknown_view', constraint=0, column=column,
                                  message="Unknown view '%s' in a VFL string" % name)
        ctx.expect(any('is a layout guide, and VFL takes views only' in n for n in d.get('notes', [])),
                   '%s: no layout guide note in %r' % (source, d))
    for source, column in [('gap.leadingMargin == logo.leading', 0), ('logo.lastBaseline == gap.baseline', 21)]:
        doc = _post(ctx, dict(base, constraints=[source]), 422).json()
        ctx.expect_diagnostic(doc, 'unknown_attribute', constraint=0, column=column)


@check('guides/ambiguity-and-svg')
def ambiguity_and_svg(ctx):
    # g has a width and height only: its x and y are ambiguous, named 'g'.
    scene = {'container': {'width': 100, 'height': 100}, 'guides': {'g': {}},
             'constraints': ['g.width == 10', 'g.height == 10']}
    doc = _post(ctx, scene).json()
    ambiguous = sorted((d['view'], d['attribute']) for d in doc['diagnostics'] if d['code'] == 'ambiguous_layout')
    ctx.expect_equal(ambiguous, [('g', 'x'), ('g', 'y')], 'ambiguous guide fields')
    r = ctx.request('POST', '/solve', scene, {'Accept': 'image/svg+xml', 'Cache-Control': 'no-store'})
    ctx.expect_status(r, 200, 'svg')
    svg = r.body.decode('utf-8')
    ctx.expect('<g class="guide warning" data-guide="g" data-owner="superview">' in svg, 'no dashed guide group')
    ctx.expect('.guide > rect { fill: none; stroke: #7048c8; stroke-width: 1.5; stroke-dasharray: 6 4; }' in svg, 'guides not dashed')
