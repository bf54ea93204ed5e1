"""Interface Builder documents over HTTP and the command line (`import/*`): every document
of shared/corpus/ib imports through POST /import (read where it is at test time, never
copied: several are copyleft); ?solve=true on a few hierarchies whose solved frames must be
the frames Interface Builder recorded in the file (read here with Python's own XML parser);
`layoutd lint` on corpus files (exit code and lines); and hostile documents, each a 422
`invalid_document` naming the line (or a 200 whose hierarchy carries the diagnostic), the
server's memory checked after. Every response is validated against openapi.yaml.
"""
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

import hostile
from harness import CheckFailed, check

XML = {'Content-Type': 'application/xml'}


def _files(ctx):
    folder = os.path.join(ctx.corpus, 'ib', 'files')
    if not os.path.isdir(folder):
        raise CheckFailed('no Interface Builder corpus at %s' % folder)
    names = sorted(n for n in os.listdir(folder) if n.endswith(('.xib', '.storyboard')))
    if len(names) < 100:
        raise CheckFailed('expected at least 100 documents in %s, found %d' % (folder, len(names)))
    return folder, names


def _read(ctx, name):
    folder, _ = _files(ctx)
    with open(os.path.join(folder, name), 'rb') as fh:
        return fh.read()


@check('import/corpus-every-document')
def corpus_every_document(ctx):
    folder, names = _files(ctx)
    hierarchies = 0
    for name in names:
        body = _read(ctx, name)
        r = ctx.request('POST', '/import', body, XML)
        ctx.expect_status(r, 200, 'POST /import %s' % name)
        doc = r.json()
        for h in doc['hierarchies']:
            ctx.expect(re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', h['name']) is not None, '%s: name %r' % (name, h['name']))
            ctx.expect('superview' in h['ids'], '%s %s: ids lacks superview' % (name, h['name']))
        hierarchies += len(doc['hierarchies'])
    ctx.expect(hierarchies >= len(names), 'hierarchies %d' % hierarchies)


def _recorded_frames(body):
    """IB id → recorded frame (x, y, width, height) of every element with a frame."""
    frames = {}
    for element in ET.fromstring(body).iter():
        ident = element.get('id')
        rect = next((c for c in element if c.tag == 'rect' and c.get('key') == 'frame'), None)
        if ident and rect is not None:
            frames[ident] = {k: float(rect.get(k, '0')) for k in ('x', 'y', 'width', 'height')}
    return frames


# Hierarchies without misplaced or ambiguous marks whose solved frames reproduce the
# recorded ones: a cell, a launch screen, a storyboard scene with a stack of controls.
SOLVED = (('Automattic__pocket-casts-ios__AddCell.xib', 'addCell'),
          ('home-assistant__iOS__LaunchScreen.storyboard', 'viewController'),
          ('duckduckgo__iOS__DaxOnboarding.storyboard', 'daxDialogViewController'))


@check('import/solve-reproduces-recorded-frames')
def solve_reproduces(ctx):
    for name, hierarchy in SOLVED:
        body = _read(ctx, name)
        recorded = _recorded_frames(body)
        r = ctx.request('POST', '/import?solve=true', body, XML)
        ctx.expect_status(r, 200, name)
        found = [h for h in r.json()['hierarchies'] if h['name'] == hierarchy]
        ctx.expect(len(found) == 1, '%s: no hierarchy %s' % (name, hierarchy))
        h = found[0]
        ctx.expect_equal(h['misplaced'], [], '%s %s misplaced' % (name, hierarchy))
        compared = 0
        for view, ib_id in h['ids'].items():
            if view == 'superview' or ib_id not in recorded or view not in h['frames']:
                continue
            solved = h['frames'][view]
            for key in ('x', 'y', 'width', 'height'):
                ctx.expect(abs(solved[key] - recorded[ib_id][key]) <= 1e-3,
                           '%s %s.%s: solved %s, recorded %s' % (name, view, key, solved[key], recorded[ib_id][key]))
            compared += 1
        ctx.expect(compared >= 2, '%s %s: %d views compared' % (name, hierarchy, compared))


@check('import/device-and-orientation')
def device_and_orientation(ctx):
    body = _read(ctx, 'home-assistant__iOS__LaunchScreen.storyboard')
    r = ctx.request('POST', '/import?device=ipad12_9&orientation=landscape&solve=true', body, XML)
    ctx.expect_status(r, 200, 'device=ipad12_9')
    doc = r.json()
    ctx.expect_equal(doc['document']['device'], {'id': 'ipad12_9', 'orientation': 'landscape',
                                                  'width': 1366, 'height': 1024, 'scale': 2}, 'device')
    h = doc['hierarchies'][0]
    ctx.expect_equal(h['frames']['superview'], {'x': 0, 'y': 0, 'width': 1366, 'height': 1024}, 'container')
    # The table's safe area of a 12.9" iPad (20 points of status bar), not the recorded iPhone's.
    ctx.expect_equal(h['scene']['container']['safeArea'], {'top': 20, 'left': 0, 'bottom': 0, 'right': 0}, 'safe area')
    ctx.expect_equal(h['misplaced'], [], 'misplaced on another device')
    r = ctx.request('POST', '/import?device=nokia3310', body, XML)
    ctx.expect_status(r, 400, 'unknown device')
    ctx.expect('retina6_1' in r.json()['detail'] and 'ipad12_9' in r.json()['detail'], 'the detail lists the ids: %s' % r.json()['detail'])
    r = ctx.request('POST', '/import', body, {'Content-Type': 'application/json'})
    ctx.expect_status(r, 415, 'JSON body')


@check('import/intrinsic-measured')
def intrinsic_measured(ctx):
    # A label of bold system 20 points: measured in Inter 700 at 20 points, which the
    # same scene as a /solve text view measures to the same frame.
    label = ('<label text="Welcome" translatesAutoresizingMaskIntoConstraints="NO" id="l-1">'
             '<rect key="frame" x="16" y="20" width="90" height="24"/>'
             '<fontDescription key="fontDescription" type="boldSystem" pointSize="20"/></label>\n')
    body = _doc(label, '<constraint firstItem="l-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="16" id="c-1"/>\n'
                       '<constraint firstItem="l-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" constant="20" id="c-2"/>\n')
    r = ctx.request('POST', '/import?solve=true&intrinsic=measured', body, XML)
    ctx.expect_status(r, 200, 'intrinsic=measured')
    h = r.json()['hierarchies'][0]
    view = h['scene']['views']['labelWelcome']
    ctx.expect_equal(view['text'], {'string': 'Welcome', 'font': {'family': 'system', 'size': 20, 'weight': 700, 'italic': False}}, 'text')
    ctx.expect('Label labelWelcome is measured: boldSystem 20 as Inter weight 700' in h['notes'], 'notes %r' % h['notes'])
    solved = ctx.request('POST', '/solve', h['scene']).json()
    ctx.expect_equal(h['frames']['labelWelcome'], solved['frames']['labelWelcome'], 'the frame /solve gives')
    ctx.expect(h['frames']['labelWelcome']['width'] != 90, 'measured, not recorded: %r' % h['frames']['labelWelcome'])
    r = ctx.request('POST', '/import?intrinsic=guessed', body, XML)
    ctx.expect_status(r, 400, 'intrinsic=guessed')


@check('import/svg')
def svg(ctx):
    body = _read(ctx, 'Automattic__pocket-casts-ios__AddCell.xib')
    r = ctx.request('POST', '/import?format=svg', body, XML)
    ctx.expect_status(r, 200, 'format=svg')
    text = r.body.decode('utf-8')
    ctx.expect(text.count('class="layoutd-wireframe"') == 1 and '>addCell</text>' in text, 'one drawing titled addCell')
    ET.fromstring(r.body)


@check('import/negotiation')
def negotiation(ctx):
    """POST /import negotiates as /solve: Accept: image/svg+xml draws, format wins over
    Accept, an unacceptable Accept still answers JSON (never 406), 200s carry Vary: Accept;
    curl's default form type (`--data-binary @file.xib`) is read as the document; another
    type is a 415 listing the types, and a form's (curl -F) says to send the file as the body."""
    body = _read(ctx, 'Automattic__pocket-casts-ios__AddCell.xib')
    drawn = ctx.request('POST', '/import', body, dict(XML, Accept='image/svg+xml'))
    ctx.expect_status(drawn, 200, 'Accept: image/svg+xml')
    ctx.expect_equal((drawn.headers.get('content-type'), drawn.headers.get('vary')),
                     ('image/svg+xml; charset=utf-8', 'Accept'), 'the drawing and Vary')
    ctx.expect_equal(drawn.body, ctx.request('POST', '/import?format=svg', body, XML).body, 'the drawing of format=svg')
    for accept in ('text/html', '*/*', 'application/json'):
        r = ctx.request('POST', '/import', body, dict(XML, Accept=accept))
        ctx.expect_status(r, 200, 'Accept: %s' % accept)
        ctx.expect_equal(r.headers.get('content-type'), 'application/json', 'JSON for Accept: %s' % accept)
        s = ctx.request('POST', '/solve', {'views': {}}, {'Accept': accept})
        ctx.expect_equal((s.status, s.headers.get('content-type')), (200, 'application/json'), '/solve for Accept: %s' % accept)
    r = ctx.request('POST', '/import?format=json', body, dict(XML, Accept='image/svg+xml'))
    ctx.expect_equal(r.headers.get('content-type'), 'application/json', 'format=json over Accept')
    path = os.path.join(_files(ctx)[0], 'Automattic__pocket-casts-ios__AddCell.xib')
    curled = ctx.curl(['--data-binary', '@' + path, 'http://127.0.0.1:%d/import' % ctx.port], target='/import')
    ctx.expect_status(curled, 200, "curl --data-binary @file.xib (curl's default Content-Type)")
    ctx.expect_equal(curled.json(), ctx.request('POST', '/import', body, XML).json(), 'the same answer as application/xml')
    r = ctx.request('POST', '/import', body, {'Content-Type': 'text/html'})
    ctx.expect_status(r, 415, 'Content-Type: text/html')
    ctx.expect_equal(r.headers.get('accept-post'), 'application/xml, text/xml, application/octet-stream', 'Accept-Post')
    # curl -F (a form) is told to send the file as the body instead.
    formed = ctx.curl(['-F', 'file=@' + path, 'http://127.0.0.1:%d/import' % ctx.port], target='/import')
    ctx.expect_status(formed, 415, 'curl -F file=@file.xib')
    ctx.expect(formed.json()['detail'].endswith("; send the file itself as the body, not a form (curl -F): "
                                                "curl --data-binary @file.xib -H 'Content-Type: application/xml'"),
               'the 415 of a form says how to send the file: %r' % formed.json()['detail'])


@check('import/names-and-solve-limits', needs='binary')
def names_and_solve_limits(ctx):
    """Labels outside ASCII fold to readable ASCII names (Café → cafe, Größe →
    labelGrosse); a server started with --max-views 1 imports a two-view hierarchy with a
    note naming the limit and flag, and its /solve answers the scene the 422 the note quotes."""
    doc = (IOS_HEAD + '<view id="root-1"><rect key="frame" x="0" y="0" width="200" height="100"/>\n<subviews>\n'
           '<view userLabel="Café" translatesAutoresizingMaskIntoConstraints="NO" id="a-1"><rect key="frame" x="0" y="0" width="200" height="50"/></view>\n'
           '<label text="Größe" translatesAutoresizingMaskIntoConstraints="NO" id="b-1"><rect key="frame" x="0" y="50" width="200" height="50"/></label>\n'
           '</subviews>\n</view>\n</objects>\n</document>\n').encode('utf-8')
    s = ctx.new_server('import-limits', ['--max-views', '1', '--quiet'])
    try:
        r = ctx.request('POST', '/import', doc, XML, server=s)
        ctx.expect_status(r, 200, 'import')
        h = r.json()['hierarchies'][0]
        ctx.expect_equal(h['ids'], {'superview': 'root-1', 'cafe': 'a-1', 'labelGrosse': 'b-1'}, 'ASCII names')
        message = 'The scene has 2 views; at most 1 are allowed (limit maxViews)'
        ctx.expect_equal([n for n in h['notes'] if n.startswith('/solve would')],
                         ['/solve would refuse this scene (422 limit_exceeded): %s: raise it with --max-views' % message], 'the note')
        solved = ctx.request('POST', '/solve', h['scene'], server=s)
        ctx.expect_status(solved, 422, '/solve of the imported scene')
        ctx.expect_equal([(d['code'], d['message']) for d in solved.json()['diagnostics']],
                         [('limit_exceeded', message)], "/solve's diagnostic")
    finally:
        s.stop()


def _lint(ctx, path):
    return subprocess.run([ctx.binary, 'lint', path], capture_output=True, timeout=120)


@check('import/lint-corpus', needs='binary')
def lint_corpus(ctx):
    folder, names = _files(ctx)
    clean = os.path.join(folder, 'home-assistant__iOS__LaunchScreen.storyboard')
    p = _lint(ctx, clean)
    ctx.expect_equal((p.returncode, p.stdout), (0, b''), 'lint of a clean document')
    flagged, first_flagged = 0, None
    for name in names:
        path = os.path.join(folder, name)
        p = _lint(ctx, path)
        ctx.expect(p.returncode in (0, 1), '%s: exit %d %s' % (name, p.returncode, p.stderr[-300:]))
        lines = p.stdout.decode('utf-8').splitlines()
        ctx.expect((p.returncode == 1) == bool(lines), '%s: exit %d with %d lines' % (name, p.returncode, len(lines)))
        for line in lines:
            ctx.expect(re.match(r'^%s:\d+: (warning|error): [A-Za-z_][A-Za-z0-9_]*: [A-Za-z_][A-Za-z0-9_]*: .+' % re.escape(path), line)
                       is not None, '%s: line %r' % (name, line))
        flagged += p.returncode
        if p.returncode == 1 and first_flagged is None:
            first_flagged = path
    ctx.expect(0 < flagged < len(names), '%d of %d documents flagged' % (flagged, len(names)))
    # --json: the same problems as objects (on the first document flagged).
    path = first_flagged
    text = _lint(ctx, path).stdout.decode('utf-8').splitlines()
    p = subprocess.run([ctx.binary, 'lint', '--json', path], capture_output=True, timeout=120)
    ctx.expect_equal(p.returncode, 1, 'lint --json exit')
    problems = json.loads(p.stdout)['problems']
    ctx.expect_equal(['%s:%d: %s: %s: %s: %s' % (q['file'], q['line'], q['severity'], q['hierarchy'], q['view'], q['message'])
                      for q in problems], text, 'lint --json and the text lines')
    p = subprocess.run([ctx.binary, 'lint'], capture_output=True, timeout=30)
    ctx.expect_equal(p.returncode, 2, 'lint without FILE')


IOS_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" '
            'targetRuntime="iOS.CocoaTouch" useAutolayout="YES">\n'
            '<device id="retina6_1" orientation="portrait"/>\n<objects>\n')


def _doc(views, constraints=''):
    return (IOS_HEAD + '<view id="root-1"><rect key="frame" x="0" y="0" width="200" height="100"/>\n'
            '<subviews>\n' + views + '</subviews>\n<constraints>\n' + constraints + '</constraints>\n'
            '</view>\n</objects>\n</document>\n').encode('utf-8')


def _view(ident, y=0):
    return ('<view translatesAutoresizingMaskIntoConstraints="NO" id="%s"><rect key="frame" x="0" y="%d" width="200" height="50"/></view>\n'
            % (ident, y))


HOSTILE_422 = (
    ('not-xml', b'hello, world\n', 1),
    ('macos', b'<?xml version="1.0" encoding="UTF-8"?>\n<document type="com.apple.InterfaceBuilder3.Cocoa.XIB" '
              b'version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa">\n<objects/>\n</document>\n', 2),
    ('billion-laughs', b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
                       + b''.join(b'<!ENTITY lol%d "%s">\n' % (i, b'&lol%d;' % (i - 1) * 10 if i > 1 else b'&lol;' * 10)
                                  for i in range(1, 10))
                       + b']>\n<document>&lol9;</document>\n', None),
    ('external-entity', b'<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<document>&x;</document>\n', None),
    ('deep-nesting', b'<?xml version="1.0"?>\n' + b'<a>' * 100_000 + b'</a>' * 100_000 + b'\n', 2),
    ('malformed-multiplier', _doc(_view('a-1'), '<constraint firstItem="a-1" firstAttribute="width" secondItem="root-1" '
                                                'secondAttribute="width" multiplier="1:x" id="c-1"/>\n'), 10),
)


@check('import/hostile-documents', needs='binary')
def hostile_documents(ctx):
    server = hostile.start(ctx, 'import')
    try:
        for name, body, line in HOSTILE_422:
            r = ctx.request('POST', '/import?solve=true', body, XML, server=server)
            ctx.expect_status(r, 422, name)
            problem = r.json()
            ctx.expect_equal(problem['type'], 'urn:layoutd:problem:invalid-document', name + ' type')
            diagnostic = problem['diagnostics'][0]
            ctx.expect_equal(diagnostic['code'], 'invalid_document', name + ' code')
            ctx.expect(isinstance(diagnostic.get('line'), int) and diagnostic['line'] >= 1, '%s: no line in %r' % (name, diagnostic))
            if line is not None:
                ctx.expect_equal(diagnostic['line'], line, name + ' line')
            ctx.expect(b'root:' not in r.body, name + ': the answer quotes /etc/passwd')
            if name == 'macos':
                ctx.expect('macOS' in diagnostic['message'], 'the platform is named: %s' % diagnostic['message'])
        # A constraint naming a missing id, and a view arranged twice (its id given twice):
        # 200, the hierarchy carries a warning naming the line.
        missing = _doc(_view('a-1'), '<constraint firstItem="ghost-9" firstAttribute="height" constant="10" id="c-5"/>\n')
        twice = (IOS_HEAD + '<view id="root-1"><rect key="frame" x="0" y="0" width="200" height="100"/>\n<subviews>\n'
                 '<stackView axis="vertical" translatesAutoresizingMaskIntoConstraints="NO" id="s-1">'
                 '<rect key="frame" x="0" y="0" width="200" height="100"/>\n<subviews>\n'
                 + _view('d-1') + _view('d-1', 50) + '</subviews>\n</stackView>\n</subviews>\n</view>\n</objects>\n</document>\n').encode('utf-8')
        for name, body, line in (('missing-id', missing, 10), ('arranged-twice', twice, 10)):
            r = ctx.request('POST', '/import?solve=true', body, XML, server=server)
            ctx.expect_status(r, 200, name)
            found = [d for d in r.json()['hierarchies'][0]['diagnostics'] if d['code'] == 'invalid_document']
            ctx.expect(len(found) == 1 and found[0]['line'] == line, '%s: %r' % (name, found))
        # Encodings libxml2 cannot read: a 422 of one line naming the problem, and nothing of
        # libxml2's in the server's log (one JSON object a line).
        encodings = (
            ('ebcdic', b'<?xml version="1.0" encoding="EBCDIC-US"?>\n<document type="x"/>\n',
             'Line 1: The document declares encoding "EBCDIC-US", which cannot be read here or does not match its bytes: '
             'Interface Builder documents are UTF-8; save it as UTF-8'),
            ('invalid-utf8', b'<?xml version="1.0" encoding="UTF-8"?>\n<document a="\xff\xfe"/>\n',
             'Line 2: The document is not valid UTF-8: bytes 0xFF 0xFE 0x22 0x2F at line 2, column 14; save it as UTF-8'),
        )
        for name, body, message in encodings:
            r = ctx.request('POST', '/import', body, XML, server=server)
            ctx.expect_status(r, 422, name)
            ctx.expect_equal(r.json()['diagnostics'][0]['message'], message, name + ' message')
        with open(server.log_path, 'rb') as fh:
            log = fh.read()
        for words in (b'encoding error', b'parser error', b'not proper UTF-8'):
            ctx.expect(words not in log, 'libxml2 wrote to the log: %r' % log[-600:])
        hostile.expect_bounded(ctx, server, max_hwm=256 << 20)
    finally:
        server.stop()


@check('import/lint-documents', needs='binary')
def lint_documents(ctx):
    """`layoutd lint` on small faulty documents: the exact lines (each at its element's
    line, without a second `Line N:`), the exit code, --json on a document that cannot be
    imported, FILE `-` and a directory, and the LAYOUTD_ variables read as the options."""
    import tempfile
    pinned = _view('a-1')
    pins = ('<constraint firstItem="a-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" id="p-1"/>\n'
            '<constraint firstItem="a-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" id="p-2"/>\n'
            '<constraint firstItem="a-1" firstAttribute="width" constant="200" id="p-3"/>\n'
            '<constraint firstItem="a-1" firstAttribute="height" constant="50" id="p-4"/>\n')
    twice = (IOS_HEAD + '<view id="root-1"><rect key="frame" x="0" y="0" width="200" height="100"/>\n<subviews>\n'
             '<stackView axis="vertical" translatesAutoresizingMaskIntoConstraints="NO" id="s-1">'
             '<rect key="frame" x="0" y="0" width="200" height="100"/>\n<subviews>\n'
             + _view('d-1') + _view('d-1', 50) + '</subviews>\n</stackView>\n</subviews>\n</view>\n</objects>\n</document>\n').encode('utf-8')
    with tempfile.TemporaryDirectory() as folder:
        def write(name, body):
            path = os.path.join(folder, name)
            with open(path, 'wb') as fh:
                fh.write(body)
            return path

        def lint(*args, stdin=None, env=None):
            p = subprocess.run([ctx.binary, 'lint', *args], input=stdin, capture_output=True, timeout=120,
                               env=None if env is None else {**os.environ, **env})
            return p.returncode, p.stdout.decode('utf-8').splitlines(), p.stderr.decode('utf-8')

        missing = write('missing.xib', _doc(pinned, pins + '<constraint firstItem="ghost-9" firstAttribute="height" constant="10" id="c-7"/>\n'))
        code, lines, _ = lint(missing)
        ctx.expect_equal((code, lines), (1, [
            missing + ':14: warning: view: superview: Constraint c-7 names ghost-9, which no element of the document has; it is left out',
        ]), 'a constraint naming a missing id')
        path = write('twice.xib', twice)
        code, lines, _ = lint(path)
        ctx.expect_equal(code, 1, 'one id on two elements: exit')
        ctx.expect_equal([line for line in lines if ': warning: ' in line], [
            path + ':10: warning: view: view: The id d-1 is given to another element too (line 9): the second is a view of its own',
        ], 'one id on two elements')
        bogus = write('attrbad.xib', _doc(pinned, pins + '<constraint firstItem="a-1" firstAttribute="bogus" constant="10" id="c-7"/>\n'))
        code, lines, _ = lint(bogus)
        ctx.expect_equal((code, lines), (1, [bogus + ":14: error: view: view: Unknown attribute 'bogus'"]), 'an error of the generated scene')
        # A document that cannot be imported: its line once, line 1 for an empty one; --json keeps its shape.
        text = write('text.xib', b'hello, world\n')
        code, lines, _ = lint(text)
        ctx.expect_equal(code, 1, 'not XML: exit')
        ctx.expect(len(lines) == 1 and lines[0].startswith(text + ':1: error: ') and 'Line ' not in lines[0], 'not XML: %r' % lines)
        empty = write('empty.xib', b'')
        ctx.expect_equal(lint(empty)[:2], (1, [empty + ':1: error: The document is empty']), 'an empty document')
        p = subprocess.run([ctx.binary, 'lint', '--json', empty], capture_output=True, timeout=30)
        ctx.expect_equal((p.returncode, json.loads(p.stdout)), (1, {'problems': [
            {'file': empty, 'line': 1, 'severity': 'error', 'hierarchy': None, 'view': None, 'message': 'The document is empty'}]}),
            'lint --json of an empty document')
        # FILE -: standard input, named <stdin>; a directory says so (exit 2).
        code, lines, _ = lint('-', stdin=open(bogus, 'rb').read())
        ctx.expect_equal((code, lines), (1, ["<stdin>:14: error: view: view: Unknown attribute 'bogus'"]), 'lint -')
        code, lines, err = lint(folder)
        ctx.expect_equal((code, lines), (2, []), 'lint of a directory')
        ctx.expect("cannot read '%s': it is a directory" % folder in err, 'lint of a directory: %r' % err)
        # The environment: LAYOUTD_JSON prints JSON; a bad LAYOUTD_DEVICE is a usage error naming the variable.
        code, lines, _ = lint(bogus, env={'LAYOUTD_JSON': '1'})
        ctx.expect_equal((code, json.loads('\n'.join(lines))['problems'][0]['line']), (1, 14), 'LAYOUTD_JSON')
        code, lines, err = lint(bogus, env={'LAYOUTD_DEVICE': 'toaster'})
        ctx.expect_equal((code, lines), (2, []), 'LAYOUTD_DEVICE toaster')
        ctx.expect("LAYOUTD_DEVICE 'toaster' is not allowed" in err, 'LAYOUTD_DEVICE toaster: %r' % err)
        code, lines, err = lint('--device', 'retina6_1&solve=maybe', bogus)
        ctx.expect_equal((code, lines), (2, []), 'a --device value with & adds no parameter')
        ctx.expect("--device 'retina6_1&solve=maybe' is not allowed" in err, '--device with &: %r' % err)
        code, lines, _ = lint(missing, env={'LAYOUTD_SOLVE': '1'})
        ctx.expect_equal(code, 1, 'LAYOUTD_SOLVE is import\'s: lint ignores it')
