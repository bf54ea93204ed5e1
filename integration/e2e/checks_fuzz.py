"""Property-based conformance: Schemathesis generates requests from openapi.yaml (its
examples, then random valid data) and checks that every response conforms to the document
(status, content type, headers, body schema) and that none is a 5xx. Only conformance
checks: a generated constraint string that does not parse is rightly a 422, so the
"schema-valid request rejected" check is not used. A fixed seed keeps runs reproducible."""
import os
import re
import shutil
import subprocess

from harness import CheckFailed, check

CHECKS = ('not_a_server_error,status_code_conformance,content_type_conformance,'
          'response_headers_conformance,response_schema_conformance')


@check('fuzz/schemathesis-conformance')
def schemathesis_conformance(ctx):
    exe = shutil.which('schemathesis') or shutil.which('st')
    if exe is None:
        raise CheckFailed('schemathesis not installed (pip install -r integration/requirements.txt)')
    cmd = [exe, 'run', ctx.args.spec, '--url', 'http://127.0.0.1:%d' % ctx.port,
           '--max-examples', '25', '--phases', 'examples,fuzzing', '--seed', '1',
           '--checks', CHECKS, '--no-color']
    env = dict(os.environ, SCHEMATHESIS_TELEMETRY='false', NO_COLOR='1')
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env,
                       cwd=ctx.workdir)
    if p.returncode != 0:
        out = p.stdout + p.stderr
        found = re.findall(r'^(_{3,} .+ _{3,}|- ST\d+ .+|\[\d{3}\] .+)$', out, re.M)
        summary = ' | '.join(s.strip('_ ') for s in found[:8]) or out[-800:]
        raise CheckFailed('schemathesis exited %d: %s' % (p.returncode, summary))
