"""Named constraint groups: CRUD, versions, preconditions, and their effect on scenes."""
import itertools

from harness import check

_n = itertools.count(1)


def _name(stem):
    return '%s-%d' % (stem, next(_n))


@check('groups/crud')
def crud(ctx):
    name = _name('crud')
    path = '/groups/' + name
    body1 = {'constraints': ['H:|-pad-[a]', {'equation': 'a.height == 10', 'id': 'h'}],
             'metrics': {'pad': 4}}
    r = ctx.request('PUT', path, body1)
    ctx.expect_status(r, 201, 'first PUT')
    ctx.expect_equal(r.headers.get('etag'), '"1"', 'ETag of version 1')
    doc = r.json()
    ctx.expect_equal((doc['name'], doc['version'], doc['constraints'], doc['metrics']),
                     (name, 1, body1['constraints'], body1['metrics']), 'created body')

    body2 = {'constraints': ['H:|-[a]']}
    r = ctx.request('PUT', path, body2)
    ctx.expect_status(r, 200, 'second PUT')
    ctx.expect_equal(r.headers.get('etag'), '"2"', 'ETag of version 2')
    ctx.expect_equal((r.json()['version'], r.json()['metrics']), (2, {}), 'replaced body')

    r = ctx.request('GET', path)
    ctx.expect_status(r, 200, 'GET')
    ctx.expect_equal(r.headers.get('etag'), '"2"', 'GET ETag')
    ctx.expect_equal(r.json()['constraints'], body2['constraints'], 'GET constraints')

    # preconditions
    r = ctx.request('PUT', path, {'constraints': ['H:|-1-[a]']}, {'If-Match': '"1"'})
    ctx.expect_status(r, 412, 'stale If-Match')
    ctx.expect_equal(ctx.request('GET', path).json()['version'], 2, 'version after a 412')
    r = ctx.request('PUT', path, {'constraints': ['H:|-1-[a]']}, {'If-None-Match': '*'})
    ctx.expect_status(r, 412, 'If-None-Match: * on an existing group')
    r = ctx.request('PUT', path, {'constraints': ['H:|-3-[a]']}, {'If-Match': '"2"'})
    ctx.expect_status(r, 200, 'matching If-Match')
    ctx.expect_equal(r.headers.get('etag'), '"3"', 'ETag after a matching If-Match')

    # versions
    r = ctx.request('GET', path + '/versions')
    ctx.expect_status(r, 200, 'versions')
    ctx.expect_equal([v['version'] for v in r.json()['versions']], [1, 2, 3], 'version list')
    r = ctx.request('GET', path + '/versions/1')
    ctx.expect_status(r, 200, 'version 1')
    ctx.expect_equal((r.json()['version'], r.json()['constraints'], r.json()['metrics']),
                     (1, body1['constraints'], body1['metrics']), 'version 1 body')
    ctx.expect_status(ctx.request('GET', path + '/versions/99'), 404, 'unknown version')
    for bad in ('0', 'abc', '-1', '1.5'):
        ctx.expect_status(ctx.request('GET', path + '/versions/' + bad), 400, 'version %r' % bad)

    # list
    r = ctx.request('GET', '/groups')
    ctx.expect_status(r, 200, 'list')
    mine = [g for g in r.json()['groups'] if g['name'] == name]
    ctx.expect_equal([g['version'] for g in mine], [3], 'listed version')

    # delete: gone, versions gone, numbers not reused
    r = ctx.request('DELETE', path)
    ctx.expect_status(r, 204, 'DELETE')
    ctx.expect_status(ctx.request('GET', path), 404, 'GET after DELETE')
    ctx.expect_status(ctx.request('GET', path + '/versions'), 404, 'versions after DELETE')
    ctx.expect_status(ctx.request('GET', path + '/versions/1'), 404, 'version 1 after DELETE')
    ctx.expect_status(ctx.request('DELETE', path), 404, 'second DELETE')
    r = ctx.request('PUT', path, {'constraints': ['H:|-[a]']}, {'If-Match': '"3"'})
    ctx.expect_status(r, 412, 'If-Match of a deleted version')
    r = ctx.request('PUT', path, {'constraints': ['H:|-[a]']})
    ctx.expect_status(r, 201, 'PUT after DELETE')
    ctx.expect_equal((r.json()['version'], r.headers.get('etag')), (4, '"4"'),
                     'version after DELETE (never reused)')
    ctx.expect_equal([v['version'] for v in ctx.request('GET', path + '/versions').json()['versions']],
                     [4], 'versions after re-creating')
    ctx.expect_status(ctx.request('DELETE', path), 204, 'cleanup')


@check('groups/delete-if-none-match-any')
def delete_if_none_match_any(ctx):
    """RFC 9110 §13.1.2: If-None-Match: * is false for a DELETE of an existing group (412,
    nothing deleted) and true for an absent one (the usual 404)."""
    name = _name('nomatch')
    path = '/groups/' + name
    ctx.expect_status(ctx.request('PUT', path, {'constraints': ['H:|-[a]']}), 201, 'PUT')
    r = ctx.request('DELETE', path, None, {'If-None-Match': '*'})
    ctx.expect_status(r, 412, 'If-None-Match: * on an existing group')
    ctx.expect_equal((r.headers.get('content-type'), r.json()['detail']),
                     ('application/problem+json', "Precondition failed for group '%s': it exists and the current version is 1" % name),
                     '412 answer')
    ctx.expect_equal(ctx.request('GET', path).headers.get('etag'), '"1"', 'group kept')
    ctx.expect_status(ctx.request('DELETE', path), 204, 'DELETE')
    r = ctx.request('DELETE', path, None, {'If-None-Match': '*'})
    ctx.expect_status(r, 404, 'If-None-Match: * on an absent group')
    ctx.expect_equal(r.json()['detail'], "No group named '%s'" % name, '404 detail')


@check('groups/get-if-none-match')
def get_if_none_match(ctx):
    """RFC 9110 §13.1.2: a GET of a group (or of one of its versions) whose If-None-Match
    lists its ETag (weakly compared) or * is 304 Not Modified, no content, the same ETag;
    another tag gets the 200 and the group."""
    name = _name('cond')
    path = '/groups/' + name
    ctx.expect_status(ctx.request('PUT', path, {'constraints': ['H:|-[a]']}), 201, 'PUT')
    ctx.expect_status(ctx.request('PUT', path, {'constraints': ['H:|-1-[a]']}), 200, 'PUT version 2')
    for target, tag in ((path, '"2"'), (path + '/versions/1', '"1"')):
        for header in (tag, 'W/' + tag, '"9", ' + tag, '*'):
            r = ctx.request('GET', target, None, {'If-None-Match': header})
            ctx.expect_equal((r.status, r.body, r.headers.get('etag'), r.headers.get('content-length')),
                             (304, b'', tag, None), 'GET %s If-None-Match: %s' % (target, header))
        r = ctx.request('GET', target, None, {'If-None-Match': '"7"'})
        ctx.expect_equal((r.status, r.headers.get('etag'), r.json()['version']), (200, tag, int(tag.strip('"'))),
                         'GET %s with another tag' % target)
    ctx.expect_status(ctx.request('DELETE', path), 204, 'cleanup')


@check('groups/list-sorted')
def list_sorted(ctx):
    names = [_name('zeta'), _name('Alpha'), _name('mid')]
    for n in names:
        ctx.expect_status(ctx.request('PUT', '/groups/' + n, {'constraints': []}), 201, n)
    listed = [g['name'] for g in ctx.request('GET', '/groups').json()['groups']]
    ctx.expect_equal(listed, sorted(listed), 'GET /groups order')
    ctx.expect(all(n in listed for n in names), 'missing groups in %r' % listed)
    for n in names:
        ctx.expect_status(ctx.request('DELETE', '/groups/' + n), 204, 'cleanup ' + n)


@check('groups/names')
def names(ctx):
    good = ['a', 'A.b_c-9', '9lives', 'x' * 128]
    for n in good:
        r = ctx.request('PUT', '/groups/' + n, {'constraints': []})
        ctx.expect(r.status in (200, 201), 'valid name %r: status %d' % (n, r.status))
        ctx.expect_equal(r.json()['name'], n, 'stored name')
        ctx.expect_status(ctx.request('DELETE', '/groups/' + n), 204, 'cleanup ' + n)
    for n in ['-x', '.x', '_x', 'x' * 129, 'a%20b', 'a%2Fb', '%C3%A9']:
        ctx.expect_status(ctx.request('PUT', '/groups/' + n, {'constraints': []}), 400, 'name %r' % n)


@check('groups/bad-bodies')
def bad_bodies(ctx):
    name = _name('bad')
    path = '/groups/' + name
    for body in (b'{"constraints": ', b'[]', b'{"constraints": "H:|-[a]"}', b'{"metrics": {}}',
                 b'{"constraints": [], "metrics": {"pad": "x"}}'):
        r = ctx.request('PUT', path, body, {'Content-Type': 'application/json'})
        ctx.expect_status(r, 400, 'body %r' % body)
    r = ctx.request('PUT', path, b'{"constraints": []}', {'Content-Type': 'text/plain'})
    ctx.expect_status(r, 415, 'text/plain')
    # constraints that do not parse: 422, not stored, diagnostics name group:NAME/INDEX
    r = ctx.request('PUT', path, {'constraints': ['H:|-[a]', 'H:|-[a']})
    ctx.expect_status(r, 422, 'unparsable constraints')
    ctx.expect_diagnostic(r.json(), 'vfl_syntax', constraint='group:%s/1' % name)
    ctx.expect_status(ctx.request('GET', path), 404, 'GET after a 422')


@check('groups/in-scenes')
def in_scenes(ctx):
    """A scene includes a group; replacing the group changes the answer at once (no stale
    cache); `name@v` pins a version; a deleted group is unknown_group."""
    name = _name('widths')
    path = '/groups/' + name
    scene = {'container': {'width': 400, 'height': 300}, 'views': ['a'],
             'constraints': ['H:|-[a]', 'V:|-[a(==50)]'], 'groups': [name]}

    def width_of(resp):
        ctx.expect_status(resp, 200, 'solve with group')
        return resp.json()['frames']['a']['width']

    ctx.expect_status(ctx.request('PUT', path, {'constraints': ['a.width == w'],
                                                'metrics': {'w': 100}}), 201, 'PUT v1')
    r = ctx.solve(scene)
    ctx.expect_equal(width_of(r), 100, 'width from group v1')
    ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; fwd=miss; stored', 'first Cache-Status')
    r = ctx.solve(scene)
    ctx.expect_equal(r.headers.get('cache-status'), 'layoutd; hit', 'second Cache-Status')

    ctx.expect_status(ctx.request('PUT', path, {'constraints': ['a.width == 150']}), 200, 'PUT v2')
    r = ctx.solve(scene)
    ctx.expect_equal(width_of(r), 150, 'width right after replacing the group')
    ctx.expect(r.headers.get('cache-status') != 'layoutd; hit', 'a hit computed from group v1')

    pinned = dict(scene, groups=[name + '@1'])
    ctx.expect_equal(width_of(ctx.solve(pinned)), 100, 'width with the group pinned to @1')

    # a group's metrics override the scene's inside that group only
    over = dict(scene, metrics={'w': 7}, constraints=['H:|-w-[a]', 'V:|-[a(==50)]'],
                groups=[name + '@1'])
    f = ctx.solve(over).json()['frames']['a']
    ctx.expect_equal((f['x'], f['width']), (7, 100), 'scene metric w=7 outside, group w=100 inside')

    ctx.expect_status(ctx.request('DELETE', path), 204, 'DELETE')
    r = ctx.solve(scene)
    ctx.expect_status(r, 422, 'solve with a deleted group')
    ctx.expect_diagnostic(r.json(), 'unknown_group')
    r = ctx.solve(pinned)
    ctx.expect_status(r, 422, 'solve with a deleted group pinned')


@check('groups/if-match-weak-never-matches')
def if_match_weak(ctx):
    """If-Match uses the strong comparison (RFC 9110 §13.1.1): W/"1" never matches "1"."""
    name = _name('weak')
    path = '/groups/' + name
    ctx.expect_status(ctx.request('PUT', path, {'constraints': ['a.width == 1']}), 201, 'PUT v1')
    r = ctx.request('PUT', path, {'constraints': ['a.width == 2']}, {'If-Match': 'W/"1"'})
    ctx.expect_status(r, 412, 'If-Match: W/"1"')
    ctx.expect_equal(r.json()['type'], 'urn:layoutd:problem:precondition-failed', 'type')
    g = ctx.request('GET', path)
    ctx.expect_equal((g.json()['version'], g.json()['constraints'], g.headers.get('etag')),
                     (1, ['a.width == 1'], '"1"'), 'group after the 412')
    ctx.expect_equal([v['version'] for v in ctx.request('GET', path + '/versions').json()['versions']],
                     [1], 'versions after the 412')
    r = ctx.request('PUT', path, {'constraints': ['a.width == 2']}, {'If-Match': '"1"'})
    ctx.expect_status(r, 200, 'the strong tag of the current version')
    ctx.expect_equal(r.headers.get('etag'), '"2"', 'ETag after the matching If-Match')
    # A list matches when any member does (RFC 9110 §13.1.1).
    r = ctx.request('PUT', path, {'constraints': ['a.width == 3']}, {'If-Match': '"7", W/"2", "2"'})
    ctx.expect_status(r, 200, 'If-Match list with the current version')
    ctx.expect_equal(r.headers.get('etag'), '"3"', 'ETag after the list match')
    r = ctx.request('PUT', path, {'constraints': ['a.width == 4']}, {'If-Match': '"1", "2"'})
    ctx.expect_status(r, 412, 'If-Match list without the current version')
    ctx.expect_status(ctx.request('DELETE', path), 204, 'cleanup')


@check('groups/version-paths')
def version_paths(ctx):
    """A version that is not a canonical positive integer is 400; one naming nothing, 404."""
    name = _name('vpath')
    path = '/groups/' + name
    ctx.expect_status(ctx.request('PUT', path, {'constraints': []}), 201, 'PUT v1')
    for bad in ('01', '+1', '1.0', '0'):
        r = ctx.request('GET', path + '/versions/' + bad)
        ctx.expect_status(r, 400, 'version %r' % bad)
    for missing in ('2', '99999999999999999999'):
        ctx.expect_status(ctx.request('GET', path + '/versions/' + missing), 404, 'version %s' % missing)
    ctx.expect_status(ctx.request('GET', path + '/versions/1'), 200, 'version 1')
    ctx.expect_status(ctx.request('DELETE', path), 204, 'cleanup')


@check('groups/versions-paged-and-pruned', needs='binary')
def versions_paged_and_pruned(ctx):
    """--max-group-versions 3: five PUTs keep versions 3-5; the list pages with `next` and a
    Link rel="next" header; bad paging parameters are 400; a pruned version is 404 saying so
    (a never-written one says it has no such version); a scene pinning a pruned version is
    422 unknown_group saying it was pruned."""
    s = ctx.new_server('versions-pruned', ['--max-group-versions', '3', '--quiet'])
    try:
        name = _name('pruned')
        path = '/groups/' + name
        for version in range(1, 6):
            r = ctx.request('PUT', path, {'constraints': ['a.width == %d' % (100 + version)]}, server=s)
            ctx.expect_status(r, 201 if version == 1 else 200, 'PUT v%d' % version)
            ctx.expect_equal(r.json()['version'], version, 'version of PUT %d' % version)

        r = ctx.request('GET', path + '/versions', server=s)
        ctx.expect_status(r, 200, 'versions')
        ctx.expect_equal([v['version'] for v in r.json()['versions']], [3, 4, 5], 'kept versions')
        ctx.expect('next' not in r.json() and r.headers.get('link') is None, 'one page: no next: %r' % r)

        r = ctx.request('GET', path + '/versions?limit=2', server=s)
        ctx.expect_status(r, 200, 'first page')
        doc = r.json()
        ctx.expect_equal([v['version'] for v in doc['versions']], [3, 4], 'first page')
        following = '%s/versions?after=4&limit=2' % path
        ctx.expect_equal(doc.get('next'), following, 'next of the first page')
        ctx.expect_equal(r.headers.get('link'), '<%s>; rel="next"' % following, 'Link of the first page')
        r = ctx.request('GET', doc['next'], server=s)
        ctx.expect_status(r, 200, 'second page')
        ctx.expect_equal(r.json(), {'versions': [{'version': 5, 'updatedAt': r.json()['versions'][0]['updatedAt']}]},
                         'second page')
        ctx.expect_equal(r.headers.get('link'), None, 'Link of the last page')
        r = ctx.request('GET', path + '/versions?after=5', server=s)
        ctx.expect_equal((r.status, r.json()), (200, {'versions': []}), 'a page after the last version')

        for query in ['limit=0', 'limit=1001', 'limit=01', 'limit=x', 'after=-1', 'after=01', 'after=']:
            r = ctx.request('GET', '%s/versions?%s' % (path, query), server=s)
            ctx.expect_status(r, 400, 'versions?' + query)
            ctx.expect_equal(r.json().get('type'), 'urn:layoutd:problem:bad-request', 'versions?' + query)
        ctx.expect_status(ctx.request('GET', path + '/versions?limit=1000', server=s), 200, 'limit=1000')
        # A parameter given twice is an error, not "first wins".
        for query, parameter in [('limit=5&limit=abc', 'limit'), ('after=1&after=2', 'after'), ('limit=2&after=1&limit', 'limit')]:
            r = ctx.request('GET', '%s/versions?%s' % (path, query), server=s)
            ctx.expect_status(r, 400, 'versions?' + query)
            ctx.expect_equal(r.json().get('detail'), "'%s' is given 2 times: give it at most once" % parameter,
                             'the detail of versions?' + query)

        r = ctx.request('GET', path + '/versions/2', server=s)
        ctx.expect_status(r, 404, 'a pruned version')
        ctx.expect_equal(r.json()['detail'],
                         "Group '%s' version 2 was pruned: only the last 3 versions of a group are kept "
                         "(--max-group-versions); the oldest kept is 3" % name, 'detail of a pruned version')
        r = ctx.request('GET', path + '/versions/9', server=s)
        ctx.expect_status(r, 404, 'a version never written')
        ctx.expect_equal(r.json()['detail'], "Group '%s' has no version 9" % name, 'detail of an unknown version')
        ctx.expect_equal(ctx.request('GET', path + '/versions/3', server=s).json()['constraints'],
                         ['a.width == 103'], 'the oldest kept version')

        scene = {'container': {'width': 400, 'height': 300}, 'views': ['a'],
                 'constraints': ['H:|-[a]', 'V:|-[a(==50)]'], 'groups': [name + '@1']}
        r = ctx.solve(scene, server=s)
        ctx.expect_status(r, 422, 'a scene pinning a pruned version')
        d = ctx.expect_diagnostic(r.json(), 'unknown_group')
        ctx.expect_equal((d.get('path'), d.get('message')),
                         ('$.groups[0]', "Group '%s' version 1 was pruned: only the last 3 versions of a group "
                                         "are kept (--max-group-versions); the oldest kept is 3 (included as '%s@1')"
                          % (name, name)), 'the pruned diagnostic')
        r = ctx.solve(dict(scene, groups=[name + '@4']), server=s)
        ctx.expect_status(r, 200, 'a scene pinning a kept version')
        ctx.expect_equal(r.json()['frames']['a']['width'], 104, 'width from version 4')

        # After a DELETE and a new PUT, the old life's versions are not "pruned".
        ctx.expect_status(ctx.request('DELETE', path, server=s), 204, 'DELETE')
        r = ctx.request('PUT', path, {'constraints': []}, server=s)
        ctx.expect_equal((r.status, r.json()['version']), (201, 6), 'PUT after DELETE')
        r = ctx.request('GET', path + '/versions/4', server=s)
        ctx.expect_equal((r.status, r.json()['detail']), (404, "Group '%s' has no version 4" % name),
                         'a version from before the DELETE')
    finally:
        s.stop()
