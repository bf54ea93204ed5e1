"""Hostile checks of the fuzz targets' area (`hostile/fuzz-*`): the scene fuzz seeds
(fuzz/scene/seeds: the three conflicting chains of `hostile/diagnostics-chains`, a 1,500-view ambiguous chain, 1,200
equations with markup in their ids, `sizes`, groups, stack views, malformed JSON) sent to
a production-like server (at the targets' work limit) as `/solve`, `/solve?format=svg`
and `/validate`. Each answer is judged on its status and shape; the server must stay up
and bounded (hostile.expect_bounded)."""
import http.client
import os
import re

from harness import check
from hostile import RESPONSE_BOUND, expect_bounded, start

SEEDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'fuzz', 'scene', 'seeds')
# What the seeds may answer: 200, 400 (malformed JSON or shape), 422 (invalid scene,
# unknown group, work limit); any other status (5xx above all) fails.
STATUSES = {200, 400, 422}
SEED_TIMEOUT = 120   # seconds for one answer


def seeds():
    return [(name, open(os.path.join(SEEDS, name), 'rb').read()) for name in sorted(os.listdir(SEEDS))]


def well_formed_svg(body):
    """The wireframe's own promise, coarsely: an XML declaration, one <svg> root, no
    element the renderer does not write, and every '&' a reference."""
    text = body.decode('utf-8')
    if not text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg '):
        return 'no XML declaration and <svg> root'
    if not text.rstrip().endswith('</svg>'):
        return 'no </svg> at the end'
    elements = set(re.findall(r'<([A-Za-z][A-Za-z0-9:-]*)', text))
    stray = elements - {'svg', 'style', 'g', 'rect', 'path', 'text', 'title'}  # SceneFuzz.svgElements
    if stray:
        return 'elements %s' % sorted(stray)
    if re.search(r'&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)', text):
        return "a bare '&'"
    return None


@check('hostile/fuzz-seeds-solve-svg-validate', needs='binary')
def fuzz_seeds(ctx):
    # The fuzz targets' work limit (SceneFuzz.limits): the seeds are judged as the targets
    # judge them, and the debug binary answers each within the client's timeout.
    server = start(ctx, 'fuzz-seeds', ['--max-solver-work', '1000000'])
    try:
        headers = {'Content-Type': 'application/json'}
        for name, body in seeds():
            for target in ('/solve', '/solve?format=svg', '/validate'):
                # A client timeout of its own: a debug binary on a busy machine takes
                # seconds for the longest seeds (the 1,500-view chain's /validate).
                conn = http.client.HTTPConnection('127.0.0.1', server.port, timeout=SEED_TIMEOUT)
                try:
                    r = ctx.request('POST', target, body, headers, server=server, conn=conn)
                finally:
                    conn.close()
                what = 'POST %s of seed %s' % (target, name)
                ctx.expect(r.status in STATUSES, '%s answered %d' % (what, r.status))
                ctx.expect(len(r.body) <= RESPONSE_BOUND, '%s answered %d bytes' % (what, len(r.body)))
                if r.status == 200 and target == '/solve?format=svg':
                    failure = well_formed_svg(r.body)
                    ctx.expect(failure is None, '%s: %s' % (what, failure))
                elif r.status == 200 and target == '/validate':
                    doc = r.json()
                    ctx.expect(isinstance(doc.get('valid'), bool), '%s: no "valid"' % what)
                else:
                    doc = r.json()
                    if r.status != 200:
                        ctx.expect(len(doc.get('diagnostics', [])) > 0, '%s: %d without diagnostics' % (what, r.status))
        expect_bounded(ctx, server)
    finally:
        server.stop()

