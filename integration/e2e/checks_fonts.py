"""Stored fonts: PUT/GET/DELETE /fonts/{family}/{face}, GET /fonts, their checks and bounds,
and labels measured with stored faces (SQLite, a restart, and two PostgreSQL replicas).

Expected label sizes come from the font files through uharfbuzz (Debian's monospaced
DejaVu Sans Mono and Liberation Mono, stored under a new family name: every glyph one
advance wide), not from layoutd.
"""
import hashlib
import json
import math
import os
import subprocess
import time

import pg_cluster
from harness import CheckFailed, Server, check, free_port

DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
INTER_BOLD = '/usr/share/fonts/opentype/inter/Inter-Bold.otf'
DEJAVU_MONO = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'
LIBERATION_MONO = '/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf'
LABEL = 'abcdefghijklmnopqrst'   # 20 characters, no kerning pair in a monospaced face
SIZE = 40
HIT = 'layoutd; hit'


def _read(path):
    with open(path, 'rb') as f:
        return f.read()


def _faces(ctx, family, server=None):
    r = ctx.request('GET', '/fonts', server=server)
    ctx.expect_status(r, 200, 'GET /fonts')
    return {f['face']: f for fam in r.json()['fonts'] if fam['family'] == family for f in fam['faces']}


@check('fonts/crud')
def crud(ctx):
    """PUT stores the file (201, then 200 with the next version on replace), the list
    gives size and SHA-256, GET answers the same bytes, DELETE removes it (404 after) and
    a new PUT takes a version never used before."""
    dejavu, inter = _read(DEJAVU), _read(INTER_BOLD)
    path = '/fonts/E2E%20Sans/400'
    r = ctx.request('PUT', path, dejavu, {'Content-Type': 'font/ttf'})
    ctx.expect_status(r, 201, 'first PUT')
    ctx.expect_equal(r.headers.get('etag'), '"1"', 'ETag of version 1')
    ctx.expect_equal(r.headers.get('location'), path, 'Location')
    doc = r.json()
    ctx.expect_equal((doc['family'], doc['face'], doc['version'], doc['bytes'], doc['sha256']),
                     ('E2E Sans', '400', 1, len(dejavu), hashlib.sha256(dejavu).hexdigest()), 'created body')
    listed = _faces(ctx, 'E2E Sans')
    ctx.expect_equal(sorted(listed), ['400'], 'listed faces')
    ctx.expect_equal((listed['400']['bytes'], listed['400']['sha256'], listed['400']['version']),
                     (len(dejavu), hashlib.sha256(dejavu).hexdigest(), 1), 'listed face')
    r = ctx.request('GET', path)
    ctx.expect_status(r, 200, 'GET')
    ctx.expect_equal((r.headers.get('content-type'), r.headers.get('etag')), ('font/ttf', '"1"'), 'GET fields')
    ctx.expect(r.body == dejavu, 'GET answered %d bytes, not the %d stored' % (len(r.body), len(dejavu)))
    r = ctx.request('GET', '/fonts/e2e%20SANS/400')
    ctx.expect_status(r, 200, 'GET in another spelling of the family')
    ctx.expect(r.body == dejavu, 'GET in another spelling answered other bytes')

    r = ctx.request('PUT', path, inter, {'Content-Type': 'font/otf'})
    ctx.expect_status(r, 200, 'replacing PUT')
    ctx.expect_equal((r.json()['version'], r.json()['sha256']), (2, hashlib.sha256(inter).hexdigest()), 'replaced body')
    r = ctx.request('GET', path)
    ctx.expect_equal(r.headers.get('content-type'), 'font/otf', 'content type of a CFF face')
    ctx.expect(r.body == inter, 'GET after replace answered other bytes')

    r = ctx.request('PUT', '/fonts/E2E%20Sans/700-italic', dejavu)
    ctx.expect_status(r, 201, 'a second face')
    ctx.expect_equal(sorted(_faces(ctx, 'E2E Sans')), ['400', '700-italic'], 'two faces listed')

    ctx.expect_status(ctx.request('DELETE', '/fonts/e2e%20sans/400'), 204, 'DELETE in another spelling of the family')
    ctx.expect_status(ctx.request('GET', path), 404, 'GET after DELETE')
    ctx.expect_status(ctx.request('DELETE', path), 404, 'second DELETE')
    ctx.expect_equal(sorted(_faces(ctx, 'E2E Sans')), ['700-italic'], 'faces after DELETE')
    r = ctx.request('PUT', path, dejavu)
    ctx.expect_status(r, 201, 'PUT after DELETE')
    ctx.expect_equal(r.json()['version'], 3, 'version after DELETE (never reused)')
    for face in ('400', '700-italic'):
        ctx.expect_status(ctx.request('DELETE', '/fonts/E2E%20Sans/' + face), 204, 'cleanup ' + face)


def _with_table_length(font, tag, length):
    """`font` with the table directory's length of `tag` set to `length` (the table's
    bytes stay where they are)."""
    import struct
    count = struct.unpack('>H', font[4:6])[0]
    for index in range(count):
        record = 12 + 16 * index
        if font[record:record + 4] == tag:
            return font[:record + 12] + struct.pack('>I', length) + font[record + 16:]
    raise CheckFailed('no %r table' % tag)


def _hhea_metric_count(font):
    import struct
    count = struct.unpack('>H', font[4:6])[0]
    for index in range(count):
        record = 12 + 16 * index
        if font[record:record + 4] == b'hhea':
            offset = struct.unpack('>I', font[record + 8:record + 12])[0]
            return struct.unpack('>H', font[offset + 34:offset + 36])[0]
    raise CheckFailed('no hhea table')


@check('fonts/preconditions')
def preconditions(ctx):
    """Font writes honour If-Match and If-None-Match as group writes do (RFC 9110
    §13.1.1): a stale If-Match on PUT or DELETE and If-None-Match: * on an existing face
    (PUT or DELETE) are 412 problems and change nothing; If-None-Match: * on a DELETE of an
    absent face is the usual 404; a matching If-Match writes; a GET whose If-None-Match
    names the current ETag is 304."""
    dejavu, inter = _read(DEJAVU), _read(INTER_BOLD)
    path = '/fonts/E2E%20Match/400'
    r = ctx.request('PUT', path, dejavu, {'If-Match': '*'})
    ctx.expect_status(r, 412, 'If-Match: * on an absent face')
    ctx.expect_equal(r.json()['detail'], "If-Match: * but no font face named 'E2E Match/400' exists", 'detail')
    for _ in range(3):
        ctx.request('PUT', path, dejavu)
    r = ctx.request('PUT', path, inter, {'If-Match': '"1"'})
    ctx.expect_status(r, 412, 'stale If-Match')
    ctx.expect_equal((r.headers.get('content-type'), r.json()['status'], r.json()['detail']),
                     ('application/problem+json', 412, "If-Match '\"1\"' does not match font face 'E2E Match/400': the current version is 3"),
                     'stale If-Match answer')
    r = ctx.request('PUT', path, inter, {'If-None-Match': '*'})
    ctx.expect_status(r, 412, 'If-None-Match: * on an existing face')
    ctx.expect_equal(r.json()['detail'], "Precondition failed for font face 'E2E Match/400': it exists and the current version is 3", 'detail')
    r = ctx.request('DELETE', path, None, {'If-Match': '"2"'})
    ctx.expect_status(r, 412, 'DELETE with a stale If-Match')
    r = ctx.request('DELETE', path, None, {'If-None-Match': '*'})
    ctx.expect_status(r, 412, 'DELETE with If-None-Match: * on an existing face')
    ctx.expect_equal(r.json()['detail'], "Precondition failed for font face 'E2E Match/400': it exists and the current version is 3", 'detail')
    r = ctx.request('DELETE', '/fonts/E2E%20Match/500', None, {'If-None-Match': '*'})
    ctx.expect_status(r, 404, 'DELETE with If-None-Match: * on an absent face')
    ctx.expect_equal(r.json()['detail'], "No stored font face 'E2E Match/500'", '404 detail')
    r = ctx.request('GET', path)
    ctx.expect_equal((r.headers.get('etag'), r.body == dejavu), ('"3"', True), 'face unchanged by refused writes')
    # RFC 9110 §13.1.2: a GET naming the current ETag is 304, no content, the same ETag.
    r = ctx.request('GET', path, None, {'If-None-Match': '"3"'})
    ctx.expect_equal((r.status, r.body, r.headers.get('etag')), (304, b'', '"3"'), 'GET with a matching If-None-Match')
    r = ctx.request('GET', path, None, {'If-None-Match': '"2"'})
    ctx.expect_equal((r.status, r.body == dejavu), (200, True), 'GET with another If-None-Match')
    r = ctx.request('PUT', path, inter, {'If-Match': '"3"'})
    ctx.expect_status(r, 200, 'matching If-Match')
    ctx.expect_equal(r.json()['version'], 4, 'version written under a matching If-Match')
    ctx.expect_status(ctx.request('DELETE', path, None, {'If-Match': '"4"'}), 204, 'DELETE with a matching If-Match')


@check('fonts/invalid')
def invalid(ctx):
    """Not a font, a truncated font, an empty hmtx table, a built-in family's name (any case, system too) and
    a second spelling of a stored family are 422 invalid_font; a bad face name is 400;
    none changes what is stored."""
    dejavu = _read(DEJAVU)
    cases = [
        ('/fonts/Bad/400', b'hello, not a font', 'not a TrueType or OpenType font'),
        ('/fonts/Bad/400', dejavu[:len(dejavu) // 2], 'The font is truncated'),
        ('/fonts/Bad/400', b'<svg xmlns="http://www.w3.org/2000/svg"/>', 'not a TrueType or OpenType font'),
        ('/fonts/inter/400', dejavu, "named like the built-in family 'Inter'"),
        ('/fonts/SYSTEM/400', dejavu, "named like the built-in family 'system'"),
        ('/fonts/dejavu%20sans/700', dejavu, "named like the built-in family 'DejaVu Sans'"),
        ('/fonts/Bad/400', _with_table_length(dejavu, b'hmtx', 0),
         "The font's 'hmtx' table is 0 bytes, fewer than the %d that hhea.numberOfHMetrics (%d) long metrics of 4 bytes take"
         % (4 * _hhea_metric_count(dejavu), _hhea_metric_count(dejavu))),
    ]
    for path, body, needle in cases:
        r = ctx.request('PUT', path, body)
        ctx.expect_status(r, 422, path)
        d = ctx.expect_diagnostic(r.json(), 'invalid_font')
        ctx.expect(needle in d['message'], '%s: %r does not say %r' % (path, d['message'], needle))
    ctx.expect_status(ctx.request('PUT', '/fonts/Spelled/400', dejavu), 201, 'a family')
    r = ctx.request('PUT', '/fonts/spelled/700', dejavu)
    ctx.expect_status(r, 422, 'another spelling')
    ctx.expect_diagnostic(r.json(), 'invalid_font', message='The family is stored as \'Spelled\': families are matched '
                          'without regard to case, so use that spelling')
    for face in ('450', '1000', '400-oblique', 'regular'):
        ctx.expect_status(ctx.request('PUT', '/fonts/Bad/' + face, dejavu), 400, 'face ' + face)
    ctx.expect_status(ctx.request('PUT', '/fonts/%20Bad/400', dejavu), 400, 'family beginning with a space')
    fonts = ctx.request('GET', '/fonts').json()['fonts']
    ctx.expect_equal([f['family'] for f in fonts if f['family'].lower() in ('bad', 'inter', 'system', 'dejavu sans')], [],
                     'nothing stored by a refused PUT')
    ctx.expect_status(ctx.request('DELETE', '/fonts/Spelled/400'), 204, 'cleanup')


@check('fonts/bounds', needs='binary')
def bounds(ctx):
    """--max-font-file-bytes refuses a larger file with 413; --max-fonts refuses a face
    beyond it with 422 limit_exceeded naming the flag; replacing a face is not a new one."""
    dejavu = _read(DEJAVU)
    s = ctx.new_server('fonts-bounds', ['--max-font-file-bytes', '300000', '--max-fonts', '1'])
    try:
        r = ctx.request('PUT', '/fonts/Big/400', dejavu, server=s)
        ctx.expect_status(r, 413, 'over the per-file bound')
        ctx.expect('--max-font-file-bytes' in r.json()['detail'], 'the 413 names its flag: %r' % r.json()['detail'])
        inter = _read(INTER_BOLD)
        ctx.expect_status(ctx.request('PUT', '/fonts/Small/700', inter, server=s), 201, 'a file under the bound')
        ctx.expect_status(ctx.request('PUT', '/fonts/Small/700', inter, server=s), 200, 'replacing the one face')
        r = ctx.request('PUT', '/fonts/Small/400', inter, server=s)
        ctx.expect_status(r, 422, 'over --max-fonts')
        d = ctx.expect_diagnostic(r.json(), 'limit_exceeded')
        ctx.expect('--max-fonts' in d['message'], 'the 422 names its flag: %r' % d['message'])
        ctx.expect_equal(r.json()['title'], 'The font cannot be stored', "the 422's title")
        ctx.expect_equal(r.json()['type'], 'urn:layoutd:problem:invalid-font', "the 422's problem type")
        ctx.expect_equal(ctx.request('GET', '/fonts', server=s).json()['fonts'],
                         [{'family': 'Small', 'faces': [_faces(ctx, 'Small', server=s)['700']]}], 'what is stored')
    finally:
        s.stop()


@check('fonts/token', needs='binary')
def token(ctx):
    """With --api-token, font writes need the token as group writes do (401 with
    WWW-Authenticate: Bearer); reads do not."""
    dejavu = _read(DEJAVU)
    s = ctx.new_server('fonts-token', ['--api-token', 'f0nt-token'])
    try:
        r = ctx.request('PUT', '/fonts/Tok/400', dejavu, server=s)
        ctx.expect_status(r, 401, 'PUT without the token')
        ctx.expect(r.headers.get('www-authenticate', '').startswith('Bearer'), 'WWW-Authenticate')
        ctx.expect_equal(r.json()['detail'], "Writing fonts needs 'Authorization: Bearer <token>'", 'the 401 speaks of fonts')
        ctx.expect_status(ctx.request('PUT', '/fonts/Tok/400', dejavu, {'Authorization': 'Bearer wrong'}, server=s),
                          401, 'PUT with a wrong token')
        ctx.expect_status(ctx.request('PUT', '/fonts/Tok/400', dejavu, {'Authorization': 'Bearer f0nt-token'}, server=s),
                          201, 'PUT with the token')
        ctx.expect_status(ctx.request('DELETE', '/fonts/Tok/400', server=s), 401, 'DELETE without the token')
        ctx.expect_status(ctx.request('GET', '/fonts/Tok/400', server=s), 200, 'GET without the token')
        ctx.expect_equal(sorted(_faces(ctx, 'Tok', server=s)), ['400'], 'list without the token')
        ctx.expect_status(ctx.request('DELETE', '/fonts/Tok/400', headers={'Authorization': 'Bearer f0nt-token'}, server=s),
                          204, 'DELETE with the token')
    finally:
        s.stop()


# ---------------------------------------------------------------- labels measured with stored faces

def _label_size(path):
    """(width, height) of LABEL at SIZE points in the font file at `path`, whole points
    rounded up: 20 advances of 'a' and one line height, from the file through uharfbuzz."""
    try:
        import uharfbuzz as hb
    except ImportError:
        raise CheckFailed('uharfbuzz is missing: run scripts/install-deps.sh')
    face = hb.Face(hb.Blob.from_file_path(path))
    font = hb.Font(face)
    font.scale = (face.upem, face.upem)
    ext = font.get_font_extents('ltr')
    advance = font.get_glyph_h_advance(font.get_nominal_glyph(ord('a')))
    return (math.ceil(len(LABEL) * advance * SIZE / face.upem),
            math.ceil((ext.ascender - ext.descender + ext.line_gap) * SIZE / face.upem))


def _scene(family, width=600, weight=400):
    return {'container': {'width': width, 'height': 100},
            'views': {'l': {'text': {'string': LABEL, 'font': {'family': family, 'size': SIZE, 'weight': weight}}}},
            'constraints': ['H:|[l]', 'V:|[l]']}


def _measured(ctx, scene, what, server=None, body=None):
    """The label's (width, height) and the answer's Cache-Status."""
    r = ctx.request('POST', '/solve', body if body is not None else scene, {'Content-Type': 'application/json'}, server=server)
    ctx.expect_status(r, 200, what)
    frame = r.json()['frames']['l']
    return (frame['width'], frame['height']), r.headers.get('cache-status')


def _expect_unknown_font(ctx, scene, family, what, server=None):
    r = ctx.request('POST', '/solve', scene, server=server)
    ctx.expect_status(r, 422, what)
    ctx.expect_diagnostic(r.json(), 'unknown_font', path='$.views.l.text.font.family',
                          message="Unknown font family '%s'" % family)


def _measure_replace_delete(ctx, family, path, writer, reader):
    """PUT DejaVu Sans Mono as FAMILY/400 through `writer`; `reader` measures the label with
    it (a miss, then a hit); PUT Liberation Mono over it through `writer`: `reader`'s very
    next answers (the same body: its front cache; other bytes: its result cache; another
    width: a warm template) are Liberation Mono's; DELETE through `writer`: unknown_font."""
    dejavu, liberation = _label_size(DEJAVU_MONO), _label_size(LIBERATION_MONO)
    ctx.expect(dejavu != liberation, 'the two faces measure the label alike: %r' % (dejavu,))
    r = ctx.request('PUT', path, _read(DEJAVU_MONO), server=writer)
    ctx.expect_status(r, 201, 'PUT %s' % path)
    scene = _scene(family.lower())   # families match without regard to case
    got, _ = _measured(ctx, scene, 'the stored face', server=reader)
    ctx.expect_equal(got, dejavu, 'label measured with the stored DejaVu Sans Mono')
    got, status = _measured(ctx, scene, 'again', server=reader)
    ctx.expect_equal((got, status), (dejavu, HIT), 'the repeat: same size, a hit')
    got, _ = _measured(ctx, _scene(family, width=601), 'a warm template', server=reader)
    ctx.expect_equal(got, dejavu, 'another width')

    r = ctx.request('PUT', path, _read(LIBERATION_MONO), server=writer)
    ctx.expect_status(r, 200, 'replacing PUT')
    got, status = _measured(ctx, scene, 'the same body after the replacement', server=reader)
    ctx.expect_equal(got, liberation, 'front cache: label measured with the new face')
    ctx.expect(status != HIT, 'a hit right after the face was replaced')
    spaced = (' ' + json.dumps(scene, indent=1)).encode()
    got, _ = _measured(ctx, scene, 'other bytes after the replacement', server=reader, body=spaced)
    ctx.expect_equal(got, liberation, 'result cache: label measured with the new face')
    got, _ = _measured(ctx, _scene(family, width=601), 'the warm template after the replacement', server=reader)
    ctx.expect_equal(got, liberation, 'template: label measured with the new face')

    ctx.expect_status(ctx.request('DELETE', path, server=writer), 204, 'DELETE')
    _expect_unknown_font(ctx, scene, family.lower(), 'after the DELETE', server=reader)
    _expect_unknown_font(ctx, _scene(family, width=601), family, 'the template after the DELETE', server=reader)


@check('fonts/labels-measure-with-stored-faces')
def labels_measure_with_stored_faces(ctx):
    """A label whose family is stored measures with the stored face (its size from the font
    file's own numbers); a replaced face is never answered from the front cache, the result
    cache or a warm template; after DELETE the family is 422 unknown_font."""
    _measure_replace_delete(ctx, 'E2E Mono', '/fonts/E2E%20Mono/400', None, None)


@check('fonts/stored-face-weight-matching')
def stored_face_weight_matching(ctx):
    """Within a stored family the face is chosen by CSS Fonts 4 weight matching: 700 asked of
    {400} is the 400 face; once a 700 face is stored, it is the 700 one (the answer changes),
    while 400 keeps the 400 face."""
    ctx.expect_status(ctx.request('PUT', '/fonts/E2E%20Weights/400', _read(DEJAVU_MONO)), 201, 'PUT 400')
    try:
        got, _ = _measured(ctx, _scene('E2E Weights', weight=700), '700 of {400}')
        ctx.expect_equal(got, _label_size(DEJAVU_MONO), '700 asked of {400}')
        ctx.expect_status(ctx.request('PUT', '/fonts/E2E%20Weights/700', _read(LIBERATION_MONO)), 201, 'PUT 700')
        got, status = _measured(ctx, _scene('E2E Weights', weight=700), '700 of {400, 700}')
        ctx.expect_equal(got, _label_size(LIBERATION_MONO), '700 asked of {400, 700}')
        ctx.expect(status != HIT, 'a hit after a face was added')
        got, _ = _measured(ctx, _scene('E2E Weights', weight=400), '400 of {400, 700}')
        ctx.expect_equal(got, _label_size(DEJAVU_MONO), '400 asked of {400, 700}')
    finally:
        for face in ('400', '700'):
            ctx.request('DELETE', '/fonts/E2E%20Weights/' + face)


@check('fonts/stored-face-across-a-restart', needs='binary')
def stored_face_across_a_restart(ctx):
    """The result cache outlives the process: after a restart the label is answered from it
    (a hit, the same size); a face replaced after the restart is the next answer."""
    s = ctx.new_server('fonts-restart')
    try:
        ctx.expect_status(ctx.request('PUT', '/fonts/E2E%20Restart/400', _read(DEJAVU_MONO), server=s), 201, 'PUT')
        scene = _scene('E2E Restart')
        got, status = _measured(ctx, scene, 'before the restart', server=s)
        ctx.expect_equal((got, status), (_label_size(DEJAVU_MONO), 'layoutd; fwd=miss; stored'), 'first answer')
        s.stop()
        s.start()
        got, status = _measured(ctx, scene, 'after the restart', server=s)
        ctx.expect_equal((got, status), (_label_size(DEJAVU_MONO), HIT), 'answer after the restart')
        ctx.expect_status(ctx.request('PUT', '/fonts/E2E%20Restart/400', _read(LIBERATION_MONO), server=s), 200, 'replace')
        got, status = _measured(ctx, scene, 'after the replacement', server=s)
        ctx.expect_equal((got, status), (_label_size(LIBERATION_MONO), 'layoutd; fwd=miss; stored'), 'new answer')
    finally:
        s.stop()


@check('fonts/cli-solve-reads-stored-fonts', needs='binary')
def cli_solve_reads_stored_fonts(ctx):
    """`layoutd solve --db FILE` measures a label with the faces stored in that database, as
    the server does; without --db the family is unknown_font (exit 1), and standard error
    names the flag."""
    s = ctx.new_server('fonts-cli')
    try:
        ctx.expect_status(ctx.request('PUT', '/fonts/E2E%20Cli/400', _read(DEJAVU_MONO), server=s), 201, 'PUT')
    finally:
        s.stop()
    path = os.path.join(ctx.workdir, 'fonts-cli-scene.json')
    with open(path, 'w', encoding='utf-8') as fh:
        json.dump(_scene('e2e cli'), fh)
    env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    run = subprocess.run([ctx.binary, 'solve', path, '--db', s.db_path], capture_output=True, timeout=60,
                         cwd=ctx.workdir, env=env)
    ctx.expect_equal(run.returncode, 0, 'exit code (stderr %r)' % run.stderr[:300])
    frame = json.loads(run.stdout)['frames']['l']
    ctx.expect_equal((frame['width'], frame['height']), _label_size(DEJAVU_MONO), 'label measured with the stored face')
    run = subprocess.run([ctx.binary, 'solve', path], capture_output=True, timeout=60, cwd=ctx.workdir, env=env)
    ctx.expect_equal(run.returncode, 1, 'exit code without --db')
    ctx.expect_equal(json.loads(run.stdout)['diagnostics'][0]['code'], 'unknown_font', 'without --db')
    ctx.expect_equal(run.stderr.decode(), 'layoutd: no --db was given, so no stored font families are read: pass '
                     '--db PATH|URL, the database `layoutd serve --db` stores them in\n', 'the hint without --db')


@check('fonts/stored-face-across-pg-replicas', needs='binary')
def stored_face_across_pg_replicas(ctx):
    """Two replicas on one PostgreSQL database, caches warm: a face PUT through A is the very
    next answer of B (its front cache, result cache and template), a replacement through A
    too, and a DELETE through A is unknown_font through B."""
    url = pg_cluster.cluster(ctx).create_database('stored_fonts')

    def replica(name):
        s = Server(ctx.binary, os.path.join(ctx.workdir, name + '.db'), startup_seconds=ctx.args.startup_timeout)
        port = free_port()
        s.start(args=['serve', '--host', '127.0.0.1', '--port', str(port), '--db', url, '--quiet'], port=port)
        deadline = time.monotonic() + 30
        while ctx.request('GET', '/readyz', server=s).status != 200:   # the schema is made at start-up
            if time.monotonic() > deadline:
                s.stop()
                raise CheckFailed('%s not ready within 30 s: %s' % (name, s.log_tail()))
            time.sleep(0.1)
        return s

    a = replica('fonts-pg-a')
    try:
        b = replica('fonts-pg-b')
        try:
            _expect_unknown_font(ctx, _scene('E2E Replica'), 'E2E Replica', 'before any PUT', server=b)
            _measure_replace_delete(ctx, 'E2E Replica', '/fonts/E2E%20Replica/400', a, b)
        finally:
            b.stop()
    finally:
        a.stop()


def _with_every_advance(data, advance):
    """The font file `data` with every hmtx long metric's advanceWidth set to `advance`
    (the table directory, hhea.numberOfHMetrics and hmtx as the OpenType spec lays them out)."""
    import struct
    data = bytearray(data)
    offsets = {}
    for index in range(struct.unpack_from('>H', data, 4)[0]):
        tag, _, offset, _ = struct.unpack_from('>4sIII', data, 12 + 16 * index)
        offsets[tag] = offset
    for metric in range(struct.unpack_from('>H', data, offsets[b'hhea'] + 34)[0]):
        struct.pack_into('>H', data, offsets[b'hmtx'] + 4 * metric, advance)
    return bytes(data)


@check('fonts/advances-are-unsigned')
def advances_are_unsigned(ctx):
    """hmtx advanceWidth is an unsigned 16-bit UFWORD: a stored DejaVu Sans (unitsPerEm 2,048)
    whose every advance is 32,767, 32,768, 40,000 or 65,535 units measures "WW" at 17 points
    as 2 × advance × 17 / 2,048, rounded up to whole points, never 0."""
    path = '/fonts/E2E%20Advances/400'
    try:
        for advance in (32767, 32768, 40000, 65535):
            r = ctx.request('PUT', path, _with_every_advance(_read(DEJAVU), advance), {'Content-Type': 'font/ttf'})
            ctx.expect(r.status in (200, 201), 'PUT with advances %d: %d %r' % (advance, r.status, r.body[:200]))
            scene = {'container': {'width': 2000, 'height': 100},
                     'views': {'l': {'text': {'string': 'WW', 'font': {'family': 'E2E Advances', 'size': 17}}}},
                     'constraints': ['H:|[l]', 'V:|[l]']}
            got, _ = _measured(ctx, scene, 'advances %d' % advance)
            ctx.expect_equal(got[0], math.ceil(2 * advance * 17 / 2048), 'width of WW with advances %d' % advance)
    finally:
        ctx.request('DELETE', path)
