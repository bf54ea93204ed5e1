"""The public corpus, one check per case: POST the scene to /solve (validating the response
against openapi.yaml) and compare it as shared/corpus/README.md says, with the comparison of
shared/tools/run_cases.py (imported, never copied)."""
import glob
import importlib.util
import json
import os

from harness import CheckFailed, check


def _load_run_cases(tools_dir):
    path = os.path.join(tools_dir, 'run_cases.py')
    if not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location('run_cases', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def register(corpus_dir, tools_dir):
    # The v1.1 examples (stack views, guides and the safe area, displayScale, explain) and the
    # v1.2 ones of labels (text) are in the suite since their features landed:
    # `corpus/v1.1/NAME`, `corpus/v1.2/NAME`.
    files = sorted(glob.glob(os.path.join(corpus_dir, '*.json')))
    v11 = sorted(glob.glob(os.path.join(corpus_dir, 'v1.1', '*.json')))
    v11 += sorted(glob.glob(os.path.join(corpus_dir, 'v1.2', '*.json')))
    run_cases = _load_run_cases(tools_dir)
    if not files or run_cases is None:
        @check('corpus/present', needs='nothing')
        def missing(ctx):
            raise CheckFailed('the public corpus is missing: need %s/*.json and %s/run_cases.py '
                              '(the shared/ folder beside the repository; --shared to point '
                              'elsewhere)' % (corpus_dir, tools_dir))
        return

    for path in files + v11:
        name = 'corpus/' + os.path.relpath(os.path.splitext(path)[0], corpus_dir)

        def run(ctx, path=path):
            with open(path, encoding='utf-8') as fh:
                case = json.load(fh)
            ctype = case.get('request', {}).get('contentType', 'application/json')
            resp = ctx.request('POST', '/solve', json.dumps(case['scene']).encode('utf-8'),
                               {'Content-Type': ctype, 'Accept': 'application/json'})
            err = run_cases.check(case, resp.status, resp.body)
            if err:
                raise CheckFailed(err)

        check(name)(run)
