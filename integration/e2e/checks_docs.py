"""The user documents against the binary: the README's curl session, run as written
against a fresh server (every command's output must be the answer the README shows under
it), and docs/operations.md naming every flag `serve --help` lists."""
import os
import re
import subprocess

from harness import CheckFailed, Server, check

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, 'README.md')
OPERATIONS = os.path.join(REPO, 'docs', 'operations.md')


def session_commands(text):
    """The `sh` block under "## A session with curl" as (command, shown answer) pairs; the
    answer is the comment lines right under the command (None when there are none)."""
    start = text.index('## A session with curl')
    block = text.index('```sh\n', start) + len('```sh\n')
    end = text.index('```', block)
    pairs = []
    command, answer, continued = None, [], False

    def finish():
        if command is not None:
            pairs.append((command, '\n'.join(answer) if answer else None))

    for line in text[block:end].split('\n'):
        if continued:
            command += '\n' + line
            continued = line.endswith('\\')
        elif not line.strip():
            finish()
            command, answer = None, []
        elif line.startswith('#'):
            if command is not None:
                answer.append(line[1:])
        else:
            finish()
            command, answer, continued = line, [], line.endswith('\\')
    finish()
    return pairs


def _flat(text):
    """Lines stripped and joined: the shown answers wrap long JSON over comment lines."""
    flat = ''.join(line.strip() for line in text.split('\n'))
    return re.sub(r'"updatedAt":"[^"]*"', '"updatedAt":"…"', flat)


def matches(shown, output):
    """Whether `output` is the answer `shown`: equal, or where the README shortened it with
    `…`, every part between the ellipses found in order."""
    shown, output = _flat(shown), _flat(output)
    parts = [p.strip() for p in shown.split('…')]
    if len(parts) == 1:
        return shown == output
    at = 0
    for part in parts:
        found = output.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


@check('docs/readme-curl-session', needs='binary')
def readme_curl_session(ctx):
    with open(README, encoding='utf-8') as fh:
        pairs = session_commands(fh.read())
    ctx.expect(len(pairs) >= 8, 'the README session has %d commands' % len(pairs))
    shown_answers = sum(1 for _, shown in pairs if shown is not None)
    ctx.expect(shown_answers >= 8, 'only %d README commands show their answer' % shown_answers)
    server = Server(ctx.binary, os.path.join(ctx.workdir, 'readme.db'), ['--quiet'],
                    startup_seconds=ctx.args.startup_timeout).start()
    try:
        for command, shown in pairs:
            run = command.replace('localhost:8080', 'localhost:%d' % server.port)
            p = subprocess.run(['bash', '-c', run], cwd=ctx.workdir, capture_output=True,
                               timeout=ctx.timeout + 5)
            ctx.expect(p.returncode == 0, '%s\nexited %d: %s' % (command, p.returncode,
                                                                 p.stderr.decode('utf-8', 'replace')))
            if shown is None:
                continue
            output = p.stdout.decode('utf-8', 'replace')
            if not matches(shown, output):
                raise CheckFailed('%s\nanswered:\n%s\nthe README shows:\n%s' % (command, output, shown))
    finally:
        server.stop()


@check('docs/operations-lists-every-flag', needs='binary')
def operations_lists_every_flag(ctx):
    """Every option of `layoutd serve --help` has a row in docs/operations.md: its flag and
    its environment variable, each in backquotes."""
    p = subprocess.run([ctx.binary, 'serve', '--help'], capture_output=True, timeout=ctx.timeout)
    ctx.expect(p.returncode == 0, 'serve --help exited %d' % p.returncode)
    text = p.stdout.decode('utf-8', 'replace')
    flags = sorted(set(re.findall(r'^\s+(--[a-z][a-z-]*)', text, re.M)) - {'--help'})
    ctx.expect(len(flags) >= 30, 'serve --help lists only %d flags' % len(flags))
    with open(OPERATIONS, encoding='utf-8') as fh:
        doc = fh.read()
    missing = [f for f in flags if '`%s' % f not in doc]
    missing += ['LAYOUTD_' + f[2:].upper().replace('-', '_') for f in flags
                if '`LAYOUTD_%s`' % f[2:].upper().replace('-', '_') not in doc]
    if missing:
        raise CheckFailed('docs/operations.md does not name: %s' % ', '.join(missing))
