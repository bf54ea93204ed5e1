"""Moving groups between stores (`cli/groups-export-import`): `layoutd groups export` and
`layoutd groups import` between two databases."""
import json
import os
import subprocess

from harness import CheckFailed, check


def _groups_cli(ctx, args, stdin=None):
    if not os.path.exists(ctx.binary):
        raise CheckFailed('no binary at %s' % ctx.binary)
    env = {k: v for k, v in os.environ.items() if not k.startswith('LAYOUTD_')}
    return subprocess.run([ctx.binary, 'groups'] + args, input=stdin, capture_output=True,
                          timeout=60, cwd=ctx.workdir, env=env)


@check('cli/groups-export-import', needs='binary')
def groups_export_import(ctx):
    """Groups written through one server's API, exported from its database and imported
    into a new one, are served by a server on the new database with the same versions,
    ETags and bodies; the same import again changes nothing (exit 0, every group
    unchanged); over a group changed since it is refused (exit 1, naming the line), with or
    without --replace (the numbers were used); bad usage is exit 2."""
    source = os.path.join(ctx.workdir, 'export-source.db')
    target = os.path.join(ctx.workdir, 'export-target.db')
    s = ctx.new_server('export-source', db_path=source)
    try:
        for width, status in ((10, 201), (20, 200), (30, 200)):
            r = ctx.request('PUT', '/groups/row', {'constraints': ['a.width == %d' % width]}, server=s)
            ctx.expect_status(r, status, 'PUT row')
        ctx.expect_status(ctx.request('PUT', '/groups/Card', {'constraints': ['b.height == 5']}, server=s), 201, 'PUT Card')
        before = {name: ctx.request('GET', '/groups/' + name, server=s) for name in ('row', 'Card')}
        exported = _groups_cli(ctx, ['export', '--db', source])
    finally:
        s.stop()
    ctx.expect_equal(exported.returncode, 0, 'export exit status (stderr %r)' % exported.stderr[-300:])
    lines = [json.loads(line) for line in exported.stdout.decode().splitlines()]
    ctx.expect_equal([(l['name'], l['version']) for l in lines],
                     [('Card', 1), ('row', 1), ('row', 2), ('row', 3)], 'exported name@version lines')
    imported = _groups_cli(ctx, ['import', '--db', target], exported.stdout)
    ctx.expect_equal(imported.returncode, 0, 'import exit status (stderr %r)' % imported.stderr[-300:])
    ctx.expect(b'2 groups, 4 versions read (2 imported, 0 unchanged); 0 high-water marks read' in imported.stderr,
               'import summary: %r' % imported.stderr)
    rerun = _groups_cli(ctx, ['import', '--db', target], exported.stdout)
    ctx.expect_equal(rerun.returncode, 0, 'exit status of the same import again (stderr %r)' % rerun.stderr[-300:])
    ctx.expect(b'2 groups, 4 versions read (0 imported, 2 unchanged); 0 high-water marks read' in rerun.stderr,
               'second import summary: %r' % rerun.stderr)
    again = _groups_cli(ctx, ['export', '--db', target])
    ctx.expect(again.stdout == exported.stdout, 'export of the imported database differs')
    t = ctx.new_server('export-target', db_path=target)
    try:
        for name, answer in before.items():
            after = ctx.request('GET', '/groups/' + name, server=t)
            ctx.expect_status(after, 200, 'GET %s from the imported database' % name)
            ctx.expect_equal(after.headers.get('etag'), answer.headers.get('etag'), 'ETag of %s' % name)
            ctx.expect(after.body == answer.body, 'body of %s differs:\n%r\n%r' % (name, after.body, answer.body))
        r = ctx.request('PUT', '/groups/row', {'constraints': []}, {'If-Match': '"3"'}, server=t)
        ctx.expect_status(r, 200, 'PUT with the exported ETag')
        ctx.expect_equal(r.headers.get('etag'), '"4"', 'next version after the import')
    finally:
        t.stop()
    refused = _groups_cli(ctx, ['import', '--db', target], exported.stdout)
    ctx.expect_equal(refused.returncode, 1, 'exit status of an import over a changed group')
    ctx.expect(b"line 2: the group 'row' exists in the target with other versions (its current version there is 4), "
               b"and the export's start at 1, numbers the target has used; --replace cannot help" in refused.stderr,
               'changed group message: %r' % refused.stderr)
    ctx.expect(b'before line 2, 0 imported and 1 unchanged; they stay' in refused.stderr, 'what stays: %r' % refused.stderr)
    replaced = _groups_cli(ctx, ['import', '--db', target, '--replace'], exported.stdout)
    ctx.expect_equal(replaced.returncode, 1, 'exit status of an import over a changed group with --replace')
    ctx.expect(b"version numbers are never reused: 'row' has had versions up to 4 in this store" in replaced.stderr
               and b"leave 'row' out of the import" in replaced.stderr, '--replace message: %r' % replaced.stderr)
    bad = _groups_cli(ctx, ['import', '--db', target], b'{"name": "x"}\n')
    ctx.expect_equal(bad.returncode, 1, 'exit status for a bad line')
    ctx.expect(b'line 1: not a group version of an export' in bad.stderr, 'bad line message: %r' % bad.stderr)
    ctx.expect_equal(_groups_cli(ctx, ['export']).returncode, 2, 'exit status without --db')
    ctx.expect_equal(_groups_cli(ctx, ['copy', '--db', target]).returncode, 2, 'exit status of an unknown action')
