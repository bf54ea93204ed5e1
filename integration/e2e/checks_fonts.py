"""Stored fonts: PUT/GET/DELETE /fonts/{family}/{face}, GET /fonts, their checks and bounds."""
import hashlib

from harness import check

DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
INTER_BOLD = '/usr/share/fonts/opentype/inter/Inter-Bold.otf'


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

    r = ctx.request('PUT', path, inter, {'Content-Type': 'font/otf'})
    ctx.expect_status(r, 200, 'replacing PUT')
    ctx.expect_equal((r.json()['version'], r.json()['sha256']), (2, hashlib.sha256(inter).hexdigest()), 'replaced body')
    r = ctx.request('GET', path)
    ctx.expect_equal(r.headers.get('content-type'), 'font/otf', 'content type of a CFF face')
    ctx.expect(r.body == inter, 'GET after replace answered other bytes')

    r = ctx.request('PUT', '/fonts/E2E%20Sans/700-italic', dejavu)
    ctx.expect_status(r, 201, 'a second face')
    ctx.expect_equal(sorted(_faces(ctx, 'E2E Sans')), ['400', '700-italic'], 'two faces listed')

    ctx.expect_status(ctx.request('DELETE', path), 204, 'DELETE')
    ctx.expect_status(ctx.request('GET', path), 404, 'GET after DELETE')
    ctx.expect_status(ctx.request('DELETE', path), 404, 'second DELETE')
    ctx.expect_equal(sorted(_faces(ctx, 'E2E Sans')), ['700-italic'], 'faces after DELETE')
    r = ctx.request('PUT', path, dejavu)
    ctx.expect_status(r, 201, 'PUT after DELETE')
    ctx.expect_equal(r.json()['version'], 3, 'version after DELETE (never reused)')
    for face in ('400', '700-italic'):
        ctx.expect_status(ctx.request('DELETE', '/fonts/E2E%20Sans/' + face), 204, 'cleanup ' + face)


@check('fonts/invalid')
def invalid(ctx):
    """Not a font, a truncated font, a built-in family's name (any case, system too) and
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
