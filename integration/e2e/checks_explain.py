"""`explain` end to end (`explain/*`): `explain` and `options.displayScale` through the real server (the
v1.1 corpus cases 312-315, compared with shared/tools/run_cases.py, every response
validated against openapi.yaml), their error statuses, the result cache keyed by `explain`,
`layoutd solve --explain`, and `explain` of a layout guide."""
import importlib.util
import json
import os
import subprocess

from harness import CheckFailed, check

CASES = ['312_equal_thirds_of_320_at_2x', '313_equal_thirds_of_320_at_3x',
         '314_explain_label_between_insets', '315_explain_centered_with_multiplier']


def _case(ctx, name):
    path = os.path.join(ctx.corpus, 'v1.1', name + '.json')
    if not os.path.isfile(path):
        raise CheckFailed('no corpus case at %s' % path)
    with open(path, encoding='utf-8') as fh:
        return json.load(fh)


def _run_cases(ctx):
    path = os.path.join(ctx.shared, 'tools', 'run_cases.py')
    if not os.path.isfile(path):
        raise CheckFailed('no %s' % path)
    spec = importlib.util.spec_from_file_location('run_cases', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _register_case(name):
    @check('explain/corpus-v1.1-' + name.split('_')[0])
    def run(ctx):
        case = _case(ctx, name)
        errors = ctx.spec.schema_errors('/components/schemas/Scene', case['scene'])
        if errors:
            raise CheckFailed('%s does not match the Scene schema: %s' % (name, errors[0]))
        resp = ctx.solve(json.dumps(case['scene']).encode('utf-8'),
                         {'Content-Type': 'application/json', 'Accept': 'application/json'})
        err = _run_cases(ctx).check(case, resp.status, resp.body)
        if err:
            raise CheckFailed(err)


for _name in CASES:
    _register_case(_name)


SCENE = {'container': {'width': 375, 'height': 100}, 'views': ['title'],
         'constraints': ['H:|-20-[title]-20-|', 'V:|-10-[title(21)]']}


@check('explain/statuses')
def statuses(ctx):
    """A wrong spelling or type is 400 naming the element; an unknown view 422; a
    displayScale other than 1, 2, 3 is 400."""
    for explain, status, path in [(['title.depth'], 400, '$.explain[0]'), ([3], 400, '$.explain[0]'),
                                  ('title', 400, '$.explain'), (['nobody.x'], 422, '$.explain[0]')]:
        resp = ctx.solve(json.dumps(dict(SCENE, explain=explain)).encode('utf-8'))
        ctx.expect_status(resp, status, 'explain %r' % (explain,))
        ctx.expect(any(d.get('path') == path for d in resp.json()['diagnostics']),
                   'explain %r: no diagnostic at %s: %s' % (explain, path, resp.body[:300]))
    for scale in [4, 0, 1.5, '2']:
        resp = ctx.solve(json.dumps(dict(SCENE, options={'displayScale': scale})).encode('utf-8'))
        ctx.expect_status(resp, 400, 'displayScale %r' % (scale,))


@check('explain/cached-per-explain')
def cached(ctx):
    """The result cache keys on `explain`: another field is a miss with its own answer; the
    same one again is a byte-identical hit."""
    def solve(explain):
        # Member order and spacing differ between bodies, so the front cache does not answer.
        body = json.dumps(dict(SCENE, explain=explain, options={'ambiguity': 'warn'}), indent=len(explain)).encode('utf-8')
        return ctx.solve(body, {'Cache-Control': 'no-cache'} if explain == ['title.x'] else None)
    first = solve(['title.x'])
    ctx.expect_status(first, 200, 'first')
    other = solve(['title.width'])
    ctx.expect_status(other, 200, 'other field')
    ctx.expect('stored' in (other.headers.get('cache-status', '')), 'another explain is not a hit: %r' % other.headers.get('cache-status'))
    ctx.expect_equal(list(other.json()['explanations']), ['title.width'], 'fields explained')
    again = ctx.solve(json.dumps(dict(SCENE, explain=['title.width'], options={'ambiguity': 'warn'})).encode('utf-8'))
    ctx.expect('hit' in (again.headers.get('cache-status', '')), 'the same explain is not a hit: %r' % again.headers.get('cache-status'))
    ctx.expect_equal(again.body, other.body, 'hit body')


@check('explain/cli', needs='nothing')
def cli(ctx):
    """`layoutd solve FILE --explain title.width` (not a terminal: JSON) answers what
    /solve answers for the scene with that explain."""
    if not os.path.isfile(ctx.binary):
        raise CheckFailed('no binary at %s' % ctx.binary)
    path = os.path.join(ctx.workdir, 'explain-scene.json')
    with open(path, 'w', encoding='utf-8') as fh:
        json.dump(SCENE, fh)
    env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    run = subprocess.run([ctx.binary, 'solve', path, '--explain', 'title.width'], capture_output=True,
                         timeout=60, cwd=ctx.workdir, env=env)
    ctx.expect_equal(run.returncode, 0, 'exit code (stderr %r)' % run.stderr[:300])
    doc = json.loads(run.stdout)
    refs = [(e['ref']['constraint'], e['ref'].get('part'), e['by']) for e in doc['explanations']['title.width']]
    ctx.expect_equal(refs, [('container.width', None, 1), (0, 0, -1), (0, 1, -1)], 'title.width explanation')


@check('explain/sizes')
def sizes(ctx):
    """Each `layouts` entry holds its own explanations (validated against openapi.yaml's
    Layout), equal to a separate /solve at that size."""
    scene = dict(SCENE, explain=['title'], sizes=[{'width': 300}, {'width': 400, 'height': 60}])
    resp = ctx.solve(json.dumps(scene).encode('utf-8'))
    ctx.expect_status(resp, 200, 'sizes')
    layouts = resp.json()['layouts']
    ctx.expect_equal(len(layouts), 2, 'layouts')
    for layout, size in zip(layouts, scene['sizes']):
        alone = dict(SCENE, explain=['title'])
        alone['container'] = dict(SCENE['container'], **size)
        single = ctx.solve(json.dumps(alone).encode('utf-8')).json()
        ctx.expect_equal(layout['explanations'], single['explanations'], 'explanations at %r' % (size,))
        ctx.expect_equal(list(layout['explanations']), ['title.x', 'title.y', 'title.width', 'title.height'], 'fields')


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
