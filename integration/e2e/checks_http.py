"""The contract's HTTP behaviours that plain clients can observe (http.client, curl, raw
sockets), on the shared server."""
import json

import scenes
from harness import CheckFailed, check


def _frames_ok(ctx, resp, expected, what):
    ctx.expect_status(resp, 200, what)
    err = scenes.frames_close(resp.json().get('frames'), expected)
    if err:
        raise CheckFailed('%s: %s' % (what, err))


# ---------------------------------------------------------------- the README example

@check('http/readme-curl-example')
def readme_curl(ctx):
    """The README's command, as written (localhost, curl -s, -H content-type, -d)."""
    resp = ctx.curl(['-s', 'localhost:%d/solve' % ctx.port, '-H', 'content-type: application/json',
                     '-d', scenes.README_BODY])
    _frames_ok(ctx, resp, scenes.readme_frames(), 'README example')
    # red x=20 w=136, green x=164 w=136, y=20 h=440: stated literally by the brief
    f = resp.json()['frames']
    ctx.expect_equal((f['red']['x'], f['red']['width'], f['green']['x'], f['green']['width'],
                      f['red']['y'], f['red']['height']), (20, 136, 164, 136, 20, 440),
                     'README frames')


@check('http/frames-order-and-bytes')
def frames_order(ctx):
    """`superview` first, then the views sorted by name; the same scene gives the same bytes."""
    a = ctx.solve(scenes.readme_scene(), {'Cache-Control': 'no-store'})
    b = ctx.solve(scenes.readme_scene(), {'Cache-Control': 'no-store'})
    ctx.expect_status(a, 200)
    keys = [k for k, _ in dict(a.json_ordered())['frames']]
    ctx.expect_equal(keys, ['superview', 'green', 'red'], 'frames key order')
    ctx.expect(a.body == b.body, 'two fresh solves of one scene differ:\n%r\n%r' % (a.body, b.body))
    ctx.expect('-0' not in a.body.decode().replace('-0.', ''), 'a -0 in %r' % a.body)


# ---------------------------------------------------------------- operations routes

@check('http/healthz')
def healthz(ctx):
    r = ctx.request('GET', '/healthz')
    ctx.expect_status(r, 200)
    ctx.expect_equal(r.json(), {'status': 'ok'}, 'body')


@check('http/readyz')
def readyz(ctx):
    r = ctx.request('GET', '/readyz')
    ctx.expect_status(r, 200)
    ctx.expect_equal(r.json(), {'status': 'ready'}, 'body')


@check('http/head-healthz')
def head_healthz(ctx):
    """HEAD is GET without the body; Content-Length stays that of the GET."""
    g = ctx.request('GET', '/healthz')
    h = ctx.request('HEAD', '/healthz')
    ctx.expect_status(h, 200)
    ctx.expect_equal(h.body, b'', 'HEAD body')
    ctx.expect_equal(h.headers.get('content-length'), str(len(g.body)), 'HEAD Content-Length')


@check('http/metrics')
def metrics(ctx):
    ctx.solve(scenes.readme_scene())
    r = ctx.request('GET', '/metrics')
    ctx.expect_status(r, 200)
    ctype = r.headers.get('content-type', '').replace(' ', '').lower()
    ctx.expect(ctype.startswith('text/plain;') and 'version=0.0.4' in ctype,
               'Content-Type %r, expected text/plain; version=0.0.4' % r.headers.get('content-type'))
    samples = [l for l in r.body.decode('utf-8').splitlines() if l and not l.startswith('#')]
    ctx.expect(samples, 'no samples in /metrics')
    for line in samples:
        name_labels, _, value = line.rpartition(' ')
        try:
            float(value)
        except ValueError:
            # a sample may end with a timestamp: NAME VALUE TIMESTAMP
            name_labels, _, value = name_labels.rpartition(' ')
            try:
                float(value)
            except ValueError:
                raise CheckFailed('not a Prometheus sample line: %r' % line)
        ctx.expect(name_labels and (name_labels[0].isalpha() or name_labels[0] in '_:'),
                   'bad metric name in %r' % line)


@check('http/openapi-served')
def openapi_served(ctx):
    """GET /openapi.yaml serves this repository's openapi.yaml, byte for byte."""
    r = ctx.request('GET', '/openapi.yaml')
    ctx.expect_status(r, 200)
    with open(ctx.args.spec, 'rb') as fh:
        mine = fh.read()
    ctx.expect(r.body == mine, 'served openapi.yaml (%d bytes) differs from %s (%d bytes)'
               % (len(r.body), ctx.args.spec, len(mine)))


# ---------------------------------------------------------------- request ids

@check('http/x-request-id')
def request_id(ctx):
    r = ctx.solve(scenes.readme_scene(), {'X-Request-Id': 'e2e-req-42'})
    ctx.expect_equal(r.headers.get('x-request-id'), 'e2e-req-42', 'echoed X-Request-Id')
    r1 = ctx.solve(scenes.readme_scene())
    r2 = ctx.solve(scenes.readme_scene())
    a, b = r1.headers.get('x-request-id'), r2.headers.get('x-request-id')
    ctx.expect(a and b, 'no X-Request-Id generated (%r, %r)' % (a, b))
    ctx.expect(a != b, 'the same generated X-Request-Id twice: %r' % a)


# ---------------------------------------------------------------- media types and bad bodies

@check('http/media-types-accepted')
def media_types_accepted(ctx):
    """application/json, a +json type, curl's default form type, and no Content-Type."""
    want = scenes.readme_frames()
    body = scenes.README_BODY.encode()
    for ctype in ('application/json', 'application/json; charset=utf-8',
                  'application/vnd.layoutd.scene+json', 'application/x-www-form-urlencoded'):
        _frames_ok(ctx, ctx.request('POST', '/solve', body, {'Content-Type': ctype}), want, ctype)
    _frames_ok(ctx, ctx.request('POST', '/solve', body), want, 'no Content-Type')
    # curl -d without -H: application/x-www-form-urlencoded
    r = ctx.curl(['http://127.0.0.1:%d/solve' % ctx.port, '-d', scenes.README_BODY])
    _frames_ok(ctx, r, want, 'curl -d without a content type')


@check('http/415-unsupported-media-type')
def unsupported_media_type(ctx):
    for target in ('/solve', '/validate'):
        for ctype in ('text/plain', 'application/xml'):
            r = ctx.request('POST', target, scenes.README_BODY.encode(), {'Content-Type': ctype})
            ctx.expect_status(r, 415, '%s %s' % (target, ctype))
            ctx.expect_equal(r.json()['type'], 'urn:layoutd:problem:unsupported-media-type', 'type')


@check('http/400-invalid-json')
def invalid_json(ctx):
    for target in ('/solve', '/validate'):
        for body in (b'{"container": {"width": 320,', b'not json', b'{"a":1}}', b''):
            r = ctx.request('POST', target, body, {'Content-Type': 'application/json'})
            ctx.expect_status(r, 400, '%s %r' % (target, body))
            ctx.expect(r.headers.get('content-type', '').startswith('application/problem+json'),
                       'Content-Type %r' % r.headers.get('content-type'))
            ctx.expect_diagnostic(r.json(), 'invalid_json')


@check('http/400-invalid-scene')
def invalid_scene(ctx):
    """Wrong shapes or types: 400 with an invalid_scene diagnostic naming the JSON path."""
    cases = [
        ({'views': {'title': {'parent': 5}}, 'constraints': []}, '$.views.title.parent'),
        ({'container': {'width': 'wide'}, 'views': ['a'], 'constraints': []}, '$.container.width'),
        ({'views': 'red', 'constraints': []}, '$.views'),
        ({'views': ['a'], 'constraints': [5]}, '$.constraints[0]'),
    ]
    for scene, path in cases:
        r = ctx.solve(scene)
        ctx.expect_status(r, 400, json.dumps(scene))
        ctx.expect_diagnostic(r.json(), 'invalid_scene', path=path)
    for body in (b'[1, 2]', b'"scene"', b'42', b'null'):
        r = ctx.request('POST', '/solve', body, {'Content-Type': 'application/json'})
        ctx.expect_status(r, 400, 'non-object body %r' % body)
        r = ctx.request('POST', '/validate', body, {'Content-Type': 'application/json'})
        ctx.expect_status(r, 400, '/validate non-object body %r' % body)


@check('http/422-unprocessable')
def unprocessable(ctx):
    r = ctx.solve(scenes.SYNTAX_ERROR_SCENE)
    ctx.expect_status(r, 422)
    doc = r.json()
    ctx.expect_equal(doc['type'], 'urn:layoutd:problem:unprocessable-scene', 'type')
    d = ctx.expect_diagnostic(doc, 'vfl_syntax', column=10, constraint=0)
    ctx.expect_equal(d.get('source'), 'H:|-0-[red-0-|', 'source')
    ctx.expect_equal(d.get('severity'), 'error', 'severity')
    ctx.expect('frames' not in doc, '422 has frames')


# ---------------------------------------------------------------- routing

@check('http/404-unknown-path')
def not_found(ctx):
    for method, target in (('GET', '/nope'), ('POST', '/solve/extra'), ('GET', '/groups/a/b/c/d')):
        r = ctx.request(method, target, b'{}' if method == 'POST' else None)
        ctx.expect_status(r, 404, '%s %s' % (method, target))


@check('http/405-method-not-allowed')
def method_not_allowed(ctx):
    """405 with Allow listing the path's methods (the openapi validator compares them)."""
    for method, target, must in (('GET', '/solve', 'POST'), ('DELETE', '/healthz', 'GET'),
                                 ('POST', '/groups', 'GET'), ('PATCH', '/groups/x', 'PUT'),
                                 ('PUT', '/validate', 'POST')):
        r = ctx.request(method, target, b'{}' if method in ('PUT', 'PATCH', 'POST') else None)
        ctx.expect_status(r, 405, '%s %s' % (method, target))
        allow = [m.strip() for m in r.headers.get('allow', '').split(',')]
        ctx.expect(must in allow, '%s %s: Allow %r lacks %s' % (method, target, allow, must))


@check('http/501-unknown-method')
def unknown_method(ctx):
    r = ctx.request('BREW', '/solve')
    ctx.expect_status(r, 501)


# ---------------------------------------------------------------- connections and framing

@check('http/keep-alive')
def keep_alive(ctx):
    """Several requests on one HTTP/1.1 connection (http.client), the socket kept."""
    conn = ctx.connect()
    try:
        r = ctx.solve(scenes.readme_scene(), conn=conn)
        _frames_ok(ctx, r, scenes.readme_frames(), 'first')
        sock = conn.sock
        ctx.expect(sock is not None, 'the server closed after the first response')
        for i in range(5):
            r = ctx.request('GET', '/healthz', conn=conn)
            ctx.expect_status(r, 200)
            r = ctx.solve(scenes.readme_scene(), conn=conn)
            _frames_ok(ctx, r, scenes.readme_frames(), 'request %d' % i)
            ctx.expect(conn.sock is sock, 'a new connection was needed at request %d' % i)
        r = ctx.request('POST', '/validate', scenes.readme_scene(), conn=conn)
        ctx.expect_status(r, 200)
        ctx.expect(conn.sock is sock, 'a new connection was needed for /validate')
    finally:
        conn.close()


@check('http/chunked-upload-curl')
def chunked_curl(ctx):
    r = ctx.curl(['http://127.0.0.1:%d/solve' % ctx.port, '-H', 'Transfer-Encoding: chunked',
                  '-H', 'Content-Type: application/json', '--data-binary', '@-'],
                 stdin=scenes.README_BODY.encode())
    _frames_ok(ctx, r, scenes.readme_frames(), 'chunked upload')


@check('http/chunked-upload-raw')
def chunked_raw(ctx):
    """Chunks split mid-token, a chunk extension, and a trailer."""
    body = scenes.README_BODY.encode()
    parts = [body[:7], body[7:50], body[50:]]
    chunked = b''.join(b'%x;ext=1\r\n%s\r\n' % (len(p), p) for p in parts) + b'0\r\nX-Trailer: 1\r\n\r\n'
    head = (b'POST /solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
            b'Transfer-Encoding: chunked\r\n\r\n')
    (r,), _ = ctx.raw(head + chunked, shut_write=False)
    ctx.validate('POST', '/solve', r)
    _frames_ok(ctx, r, scenes.readme_frames(), 'raw chunked')


@check('http/http10-curl')
def http10_curl(ctx):
    r = ctx.curl(['--http1.0', 'http://127.0.0.1:%d/solve' % ctx.port,
                  '-H', 'Content-Type: application/json', '-d', scenes.README_BODY])
    _frames_ok(ctx, r, scenes.readme_frames(), 'HTTP/1.0')


@check('http/http10-closes')
def http10_closes(ctx):
    """An HTTP/1.0 request without keep-alive is answered, then the connection closes."""
    (r,), closed = ctx.raw(b'GET /healthz HTTP/1.0\r\n\r\n')
    ctx.validate('GET', '/healthz', r)
    ctx.expect_status(r, 200)
    ctx.expect(closed, 'the connection stayed open after an HTTP/1.0 response')


@check('http/pipelining')
def pipelining(ctx):
    """Three pipelined requests in one write are answered in order."""
    body = scenes.README_BODY.encode()
    data = (b'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'
            b'POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n'
            b'Content-Length: %d\r\n\r\n%s' % (len(body), body) +
            b'GET /nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    (a, b, c), closed = ctx.raw(data, read_responses=3)
    ctx.validate('GET', '/healthz', a)
    ctx.validate('POST', '/solve', b)
    ctx.validate('GET', '/nope', c)
    ctx.expect_equal((a.status, b.status, c.status), (200, 200, 404), 'statuses in order')
    _frames_ok(ctx, b, scenes.readme_frames(), 'pipelined solve')
    ctx.expect(closed, 'Connection: close did not close the connection')


@check('http/413-body-too-large')
def too_large(ctx):
    """A body over the default limit (1,048,576 bytes) → 413, Connection: close, closed."""
    size = 1048576 + 1
    head = (b'POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n'
            b'Content-Length: %d\r\n\r\n' % size)
    (r,), closed = ctx.raw(head + b' ' * size)
    ctx.validate('POST', '/solve', r)
    ctx.expect_status(r, 413)
    ctx.expect_equal(r.headers.get('connection', '').lower(), 'close', 'Connection header')
    ctx.expect(closed, 'the connection stayed open after 413')


# ---------------------------------------------------------------- /validate and scenes

@check('http/validate-shapes')
def validate_shapes(ctx):
    r = ctx.request('POST', '/validate', scenes.readme_scene())
    ctx.expect_status(r, 200, 'valid scene')
    ctx.expect_equal(r.json(), {'valid': True, 'diagnostics': []}, 'valid scene body')

    r = ctx.request('POST', '/validate', scenes.SYNTAX_ERROR_SCENE)
    ctx.expect_status(r, 200, 'syntax error')
    doc = r.json()
    ctx.expect_equal(doc['valid'], False, 'valid for a syntax error')
    ctx.expect_diagnostic(doc, 'vfl_syntax', column=10, constraint=0, severity='error')

    r = ctx.request('POST', '/validate', {'views': 3})
    ctx.expect_status(r, 200, 'a JSON object that is no scene')
    doc = r.json()
    ctx.expect_equal(doc['valid'], False, 'valid for views: 3')
    ctx.expect_diagnostic(doc, 'invalid_scene', path='$.views')

    # only horizontal constraints: y and height of `a` are ambiguous (warnings), still valid
    r = ctx.request('POST', '/validate', {'container': {'width': 100, 'height': 100},
                                          'views': ['a'], 'constraints': ['H:|-[a]-|']})
    ctx.expect_status(r, 200, 'ambiguous scene')
    doc = r.json()
    ctx.expect_equal(doc['valid'], True, 'valid with only warnings')
    for attr in ('y', 'height'):
        ctx.expect_diagnostic(doc, 'ambiguous_layout', view='a', attribute=attr, severity='warning')
    bad = [d for d in doc['diagnostics'] if d.get('attribute') in ('x', 'width')]
    ctx.expect(not bad, 'determined fields reported ambiguous: %r' % bad)

    r = ctx.request('POST', '/validate', {'container': {'width': 100, 'height': 100},
                                          'views': ['a'], 'constraints': ['H:|-[b]-|']})
    ctx.expect_equal(r.json()['valid'], False, 'unknown view')
    ctx.expect_diagnostic(r.json(), 'unknown_view')


@check('http/sizes-equal-separate-solves')
def sizes(ctx):
    """Each entry of `layouts` is exactly what a separate /solve with that container answers."""
    sizes = [{'width': 320, 'height': 480}, {'width': 400, 'height': 300}, {'width': 200, 'height': 600}]
    scene = scenes.readme_scene()
    scene['sizes'] = sizes
    r = ctx.solve(scene)
    ctx.expect_status(r, 200)
    doc = r.json()
    ctx.expect('frames' not in doc, 'both frames and layouts')
    ctx.expect_equal(len(doc.get('layouts', [])), len(sizes), 'number of layouts')
    ctx.expect_equal(doc['diagnostics'], [], 'top-level diagnostics')
    for i, size in enumerate(sizes):
        single = ctx.solve(scenes.readme_scene(size['width'], size['height'])).json()
        lay = doc['layouts'][i]
        ctx.expect_equal(lay['container'], size, 'layouts[%d].container' % i)
        ctx.expect_equal(lay['frames'], single['frames'], 'layouts[%d].frames' % i)
        ctx.expect_equal(lay['diagnostics'], single['diagnostics'], 'layouts[%d].diagnostics' % i)
        err = scenes.frames_close(lay['frames'], scenes.readme_frames(size['width'], size['height']))
        ctx.expect(err is None, 'layouts[%d]: %s' % (i, err))


@check('http/coordinates-root')
def coordinates_root(ctx):
    """`coordinates: root` = parent-relative frames shifted by the parent's root origin."""
    scene = {
        'container': {'width': 375, 'height': 667},
        'views': {'card': {}, 'title': {'parent': 'card'}},
        'constraints': ['H:|-16-[card]-16-|', 'V:|-20-[card(==100)]',
                        'H:|-[title]-|', 'V:|-10-[title(==21)]'],
    }
    parent = ctx.solve(scene)
    ctx.expect_status(parent, 200)
    pf = parent.json()['frames']
    scene['options'] = {'coordinates': 'root'}
    root = ctx.solve(scene)
    ctx.expect_status(root, 200)
    rf = root.json()['frames']
    ctx.expect_equal(rf['card'], pf['card'], 'card (a child of the container)')
    want = dict(pf['title'], x=pf['card']['x'] + pf['title']['x'], y=pf['card']['y'] + pf['title']['y'])
    err = scenes.frames_close(rf, {'title': want})
    ctx.expect(err is None, 'root coordinates: %s' % err)
    # the values the contract's rules give: card at (16, 20), title 20 in from card's edges
    err = scenes.frames_close(pf, {'card': {'x': 16, 'y': 20, 'width': 343, 'height': 100},
                                   'title': {'x': 20, 'y': 10, 'width': 303, 'height': 21}})
    ctx.expect(err is None, 'parent coordinates: %s' % err)


# ---------------------------------------------------------------- framing (RFC 9112)

def _framing(ctx, data, status, what, closes=True, target='/solve', method='POST'):
    (r,), closed = ctx.raw(data)
    ctx.validate(method, target, r)
    ctx.expect_status(r, status, what)
    if closes:
        ctx.expect_equal(r.headers.get('connection', '').lower(), 'close', '%s: Connection' % what)
        ctx.expect(closed, '%s: the connection stayed open' % what)
    return r


@check('http/expect-100-continue')
def expect_continue(ctx):
    """Expect: 100-continue gets 100 before the body is sent, then the answer; a body over
    the limit gets the final 413 at once."""
    import socket
    body = scenes.README_BODY.encode()
    s = socket.create_connection(('127.0.0.1', ctx.port), timeout=ctx.timeout)
    try:
        s.sendall(b'POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n'
                  b'Expect: 100-continue\r\nContent-Length: %d\r\n\r\n' % len(body))
        first = s.recv(64)
        ctx.expect(first.startswith(b'HTTP/1.1 100'), 'expected 100 Continue first, got %r' % first)
        s.sendall(body)
        from harness import _SocketReader
        reader = _SocketReader(s)
        reader.buf = first[first.index(b'\r\n\r\n') + 4:] if b'\r\n\r\n' in first else b''
        if b'\r\n\r\n' not in first:   # the rest of the 100 head is still coming
            while b'\r\n\r\n' not in reader.buf:
                ctx.expect(reader._fill(), 'closed during 100 Continue')
            reader.buf = reader.buf[reader.buf.index(b'\r\n\r\n') + 4:]
        r = reader.read_response()
    finally:
        s.close()
    ctx.validate('POST', '/solve', r)
    _frames_ok(ctx, r, scenes.readme_frames(), 'after 100 Continue')
    _framing(ctx, b'POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n'
                  b'Expect: 100-continue\r\nContent-Length: 2000000\r\n\r\n', 413,
             'Expect with a body over the limit')


@check('http/smuggling-rejected')
def smuggling(ctx):
    """Content-Length with Transfer-Encoding, or bad/duplicate Content-Length → 400, close."""
    body = b'{"views":[]}'
    cases = [
        (b'Content-Length: %d\r\nTransfer-Encoding: chunked\r\n' % len(body), 'CL and TE'),
        (b'Content-Length: %d\r\nContent-Length: %d\r\n' % (len(body), len(body) + 1), 'two CLs'),
        (b'Content-Length: -1\r\n', 'negative CL'),
        (b'Content-Length: +12\r\n', 'signed CL'),
        (b'Content-Length: 1x\r\n', 'non-numeric CL'),
        (b'Content-Length: 99999999999999999999999\r\n', 'overflowing CL'),
    ]
    for head, what in cases:
        data = b'POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' + head + b'\r\n' + body
        _framing(ctx, data, 400, what)


@check('http/framing-errors')
def framing_errors(ctx):
    _framing(ctx, b'GET /healthz HTTP/1.1\r\n\r\n', 400, 'HTTP/1.1 without Host',
             method='GET', target='/healthz')
    _framing(ctx, b'GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: y\r\n\r\n', 400, 'two Hosts',
             method='GET', target='/healthz')
    _framing(ctx, b'GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n', 400, 'space before colon',
             method='GET', target='/healthz')
    _framing(ctx, b'GET /healthz HTTP/2.0\r\nHost: localhost\r\n\r\n', 505, 'HTTP/2.0 request line',
             method='GET', target='/healthz')
    long_target = '/healthz?' + 'a' * 9000
    _framing(ctx, b'GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n' % long_target.encode(), 414,
             'a 9,009-byte target', method='GET', target='/healthz')
    big = b''.join(b'X-Pad-%d: %s\r\n' % (i, b'v' * 1000) for i in range(20))
    _framing(ctx, b'GET /healthz HTTP/1.1\r\nHost: localhost\r\n' + big + b'\r\n', 431,
             'a 20 KB header section', method='GET', target='/healthz')


# ---------------------------------------------------------------- numbers and fitting

@check('http/numbers-rounded')
def numbers_rounded(ctx):
    """Response numbers have at most 6 decimal places (thirds of 100 points here)."""
    import re
    r = ctx.solve({'container': {'width': 100, 'height': 100}, 'views': ['a', 'b', 'c'],
                   'constraints': ['H:|[a][b(==a)][c(==a)]|', 'V:|[a]|', 'V:|[b]|', 'V:|[c]|']})
    ctx.expect_status(r, 200)
    f = r.json()['frames']
    for v in 'abc':
        ctx.expect(abs(f[v]['width'] - 100 / 3) <= 1e-6, '%s.width = %r' % (v, f[v]['width']))
    long = re.findall(rb'-?\d+\.\d{7,}', r.body)
    ctx.expect(not long, 'numbers with more than 6 decimals: %r' % long[:3])
    ctx.expect(not re.search(rb'\d[eE][-+]?\d', r.body), 'exponent notation in %r' % r.body[:200])


@check('http/sizes-fitted-dimension')
def sizes_fitted(ctx):
    """A size without a height gets the fitting height (required constraints: 20 + 40 + 20)."""
    scene = {'views': ['a'], 'constraints': ['H:|-[a]-|', 'V:|-[a(==40)]-|'],
             'sizes': [{'width': 100}, {'width': 300, 'height': 80}]}
    r = ctx.solve(scene)
    ctx.expect_status(r, 200)
    lays = r.json()['layouts']
    ctx.expect_equal(lays[0]['container'], {'width': 100, 'height': 80}, 'fitted container')
    err = scenes.frames_close(lays[0]['frames'], {'a': {'x': 20, 'y': 20, 'width': 60, 'height': 40}})
    ctx.expect(err is None, 'layouts[0]: %s' % err)
    err = scenes.frames_close(lays[1]['frames'], {'a': {'x': 20, 'y': 20, 'width': 260, 'height': 40}})
    ctx.expect(err is None, 'layouts[1]: %s' % err)


# ---------------------------------------------------------------- strict scenes

@check('http/400-unknown-scene-field')
def unknown_scene_field(ctx):
    """A misspelt top-level member is a 400 invalid_scene naming its path, with a hint."""
    r = ctx.solve({'container': {'width': 100, 'height': 100}, 'views': ['a'],
                   'contraints': ['H:|-[a]-|', 'V:|-[a]-|']})
    ctx.expect_status(r, 400)
    doc = r.json()
    ctx.expect_equal(doc['type'], 'urn:layoutd:problem:invalid-scene', 'type')
    d = ctx.expect_diagnostic(doc, 'invalid_scene', path='$.contraints', severity='error')
    ctx.expect("did you mean 'constraints'" in d['message'],
               'no did-you-mean hint in %r' % d['message'])
    r = ctx.request('POST', '/validate', {'views': ['a'], 'contraints': []})
    ctx.expect_status(r, 200, '/validate')
    ctx.expect_equal(r.json()['valid'], False, '/validate valid')
    ctx.expect_diagnostic(r.json(), 'invalid_scene', path='$.contraints')


@check('http/400-null-in-scene')
def null_in_scene(ctx):
    """`null` is never a value: 400 invalid_scene naming where it stands."""
    base = {'container': {'width': 100, 'height': 100}, 'views': ['a'],
            'constraints': ['H:|-[a]-|', 'V:|-[a]-|']}
    cases = [
        (dict(base, constraints=None), '$.constraints'),
        (dict(base, container={'width': None, 'height': 100}), '$.container.width'),
        (dict(base, metrics={'pad': None}), '$.metrics.pad'),
        (dict(base, options={'conflicts': None}), '$.options.conflicts'),
        (dict(base, constraints=[{'equation': 'a.width == 5', 'priority': None}]),
         '$.constraints[0].priority'),
        (dict(base, views={'a': {'parent': None}}), '$.views.a.parent'),
    ]
    for scene, path in cases:
        r = ctx.solve(scene)
        ctx.expect_status(r, 400, json.dumps(scene))
        ctx.expect_diagnostic(r.json(), 'invalid_scene', path=path)


# ---------------------------------------------------------------- SVG and the playground

@check('http/format-unknown-400')
def format_unknown(ctx):
    for value in ('png', '', 'xml'):
        r = ctx.request('POST', '/solve?format=' + value, scenes.readme_scene())
        ctx.expect_status(r, 400, 'format=%r' % value)
        ctx.expect_equal(r.json()['type'], 'urn:layoutd:problem:bad-request', 'type')


def _svg_rects(ctx, resp):
    """data-view → (x, y, width, height) of each view's rectangle in an SVG answer."""
    import xml.etree.ElementTree as ET
    ns = '{http://www.w3.org/2000/svg}'
    try:
        root = ET.fromstring(resp.body)
    except ET.ParseError as e:
        raise CheckFailed('the SVG is not well-formed XML: %s' % e)
    ctx.expect_equal(root.tag, ns + 'svg', 'root element')
    out = {}
    for g in root.iter(ns + 'g'):
        name = g.get('data-view')
        rect = g.find(ns + 'rect')
        if name is not None and rect is not None:
            out[name] = tuple(float(rect.get(k)) for k in ('x', 'y', 'width', 'height'))
    return out


@check('http/format-svg')
def format_svg(ctx):
    """?format=svg and Accept: image/svg+xml answer the wireframe (validated against the
    spec); its rectangles are the JSON frames; Accept ranking JSON first stays JSON; a
    scene with errors gets the JSON answer's problem and Cache-Status."""
    want = {'superview': (0, 0, 320, 480), 'red': (20, 20, 136, 440), 'green': (164, 20, 136, 440)}
    for target, headers in (('/solve?format=svg', {}), ('/solve?format=SVG', {}),
                            ('/solve', {'Accept': 'image/svg+xml'}),
                            ('/solve', {'Accept': 'application/json;q=0.5, image/svg+xml'})):
        r = ctx.request('POST', target, scenes.readme_scene(), headers)
        what = '%s %r' % (target, headers)
        ctx.expect_status(r, 200, what)
        ctx.expect_equal(r.headers.get('content-type'), 'image/svg+xml; charset=utf-8', what)
        ctx.expect_equal(r.headers.get('vary'), 'Accept', what + ' Vary')
        ctx.expect('cache-status' not in r.headers, what + ': Cache-Status on an SVG answer')
        ctx.expect_equal(_svg_rects(ctx, r), want, what + ' rectangles')
    for target, headers in (('/solve', {'Accept': 'application/json, image/svg+xml'}),
                            ('/solve?format=json', {'Accept': 'image/svg+xml'}),
                            ('/solve', {'Accept': '*/*'})):
        r = ctx.request('POST', target, scenes.readme_scene(), headers)
        ctx.expect_status(r, 200, '%s %r' % (target, headers))
        ctx.expect_equal(r.headers.get('content-type'), 'application/json', '%s %r' % (target, headers))
        ctx.expect_equal(r.headers.get('vary'), 'Accept', 'Vary on JSON')
    # a scene with errors: the same 422 problem details as for JSON, Cache-Status included
    r = ctx.request('POST', '/solve?format=svg', scenes.SYNTAX_ERROR_SCENE)
    ctx.expect_status(r, 422, 'SVG of a syntax error')
    ctx.expect_diagnostic(r.json(), 'vfl_syntax', column=10, constraint=0)
    j = ctx.request('POST', '/solve', scenes.SYNTAX_ERROR_SCENE)
    ctx.expect_equal((r.body, r.headers.get('cache-status')), (j.body, 'layoutd; fwd=miss'), 'SVG 422 as the JSON one')
    ctx.expect_equal(j.headers.get('cache-status'), 'layoutd; fwd=miss', 'JSON 422 Cache-Status')


@check('http/playground')
def playground(ctx):
    r = ctx.request('GET', '/')
    ctx.expect_status(r, 200)
    ctx.expect_equal(r.headers.get('content-type'), 'text/html; charset=utf-8', 'Content-Type')
    ctx.expect(r.body.startswith(b'<!DOCTYPE html>'), 'not an HTML document: %r' % r.body[:60])
    h = ctx.request('HEAD', '/')
    ctx.expect_equal((h.status, h.body, h.headers.get('content-length')),
                     (200, b'', str(len(r.body))), 'HEAD /')


# ---------------------------------------------------------------- query strings

@check('http/query-strings')
def query_strings(ctx):
    """Every route reads its query one way: names and values percent-decoded (RFC 3986
    §2.1), so /solve?format=%73vg draws as ?format=svg does; a malformed escape is a 400
    naming the parameter; a parameter the route does not take is a 400 naming it and the
    route's parameters (a typo is not silently ignored)."""
    scene = {'container': {'width': 100, 'height': 100}, 'views': ['a'], 'constraints': ['H:|[a]|', 'V:|[a]|']}
    r = ctx.request('POST', '/solve?format=%73vg', scene)
    ctx.expect_equal((r.status, r.headers.get('content-type')), (200, 'image/svg+xml; charset=utf-8'), 'format=%73vg')
    cases = [
        ('POST', '/solve?format=%7', scene,
         "The query parameter 'format' has a malformed percent-escape in 'format=%7': "
         "'%' must be followed by two hexadecimal digits (RFC 3986 §2.1; write '%25' for '%' itself)"),
        ('POST', '/import?devcie=iphone-15', b'<document/>',
         "Unknown query parameter 'devcie': POST /import takes solve, device, orientation, intrinsic, format; did you mean 'device'?"),
        ('POST', '/solve?format=svg&sclae=2', scene,
         "Unknown query parameter 'sclae': POST /solve takes format, scale, width; did you mean 'scale'?"),
        ('POST', '/validate?verbose=1', scene, "Unknown query parameter 'verbose': POST /validate takes no query parameters"),
        ('GET', '/groups/x/versions?page=2', None,
         "Unknown query parameter 'page': GET /groups/{name}/versions takes after, limit"),
    ]
    for method, target, body, detail in cases:
        headers = {'Content-Type': 'application/xml'} if isinstance(body, bytes) else None
        r = ctx.request(method, target, body, headers)
        ctx.expect_equal((r.status, r.headers.get('content-type'), r.json().get('type'), r.json().get('detail')),
                         (400, 'application/problem+json', 'urn:layoutd:problem:bad-request', detail), target)
    ctx.expect_status(ctx.request('GET', '/healthz?'), 200, 'an empty query')
