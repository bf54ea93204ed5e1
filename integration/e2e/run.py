#!/usr/bin/env python3
"""End-to-end checks of the layoutd binary against the contract and openapi.yaml.

    python3 integration/e2e/run.py --binary .build/release/layoutd [--only NAME ...] [--list]

Starts the real binary (`layoutd serve`) on a free loopback port with a temporary database,
waits for /healthz, then runs every registered check: the public corpus
(<repo>/../shared/corpus, through ../shared/tools/run_cases.py's comparison), the contract's
HTTP behaviours, groups, the result cache, a restart on the same database, the CLI, and
offline checks of openapi.yaml and the Dockerfile. Every response is validated against
openapi.yaml. Prints one PASS/FAIL line per check and a final line "N passed, M failed";
exits 1 when a check failed (or none ran), 2 on bad usage.

`--only NAME` (repeatable) runs the checks whose name is NAME, starts with NAME + '/', or
matches NAME as a shell pattern (`'cache/*'`). `--offline` runs only the checks that need
neither the binary nor a server (openapi.yaml, the corpus against its schema, hadolint). Nothing is skipped silently: a check that cannot run (no binary, no corpus, no curl)
fails and says why.
"""
import argparse
import fnmatch
import os
import shutil
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # never write __pycache__ into shared/ (read-only in CI)

import harness  # noqa: E402
from harness import REGISTRY, CheckFailed, Context, Server  # noqa: E402


def default_binary():
    for kind in ('release', 'debug'):
        p = os.path.join(REPO, '.build', kind, 'layoutd')
        if os.path.isfile(p):
            return p
    return os.path.join(REPO, '.build', 'debug', 'layoutd')


def selected(name, patterns):
    if not patterns:
        return True
    for p in patterns:
        if name == p or name.startswith(p.rstrip('/') + '/') or fnmatch.fnmatchcase(name, p):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--binary', default=None,
                    help='the layoutd executable (default: .build/release/layoutd, else debug)')
    ap.add_argument('--shared', default=os.path.join(os.path.dirname(REPO), 'shared'),
                    help='the shared/ folder with corpus/ and tools/ (default: <repo>/../shared)')
    ap.add_argument('--spec', default=os.path.join(REPO, 'openapi.yaml'))
    ap.add_argument('--only', action='append', default=[], metavar='NAME')
    ap.add_argument('--offline', action='store_true', help='only the checks that need no server')
    ap.add_argument('--list', action='store_true', help='list the check names and exit')
    ap.add_argument('--timeout', type=float, default=10.0, help='per request, seconds')
    ap.add_argument('--startup-timeout', type=float, default=30.0,
                    help='seconds to wait for /healthz after starting the server')
    ap.add_argument('--keep', action='store_true', help='keep the temporary folder (databases, logs)')
    args = ap.parse_args()
    args.binary = os.path.abspath(args.binary or default_binary())
    args.shared = os.path.abspath(args.shared)

    try:
        from openapi_check import Spec
    except ImportError as e:
        print('missing Python package (%s): run scripts/install-deps.sh '
              'or pip install -r integration/requirements.txt' % e, file=sys.stderr)
        return 2

    import checks_offline  # noqa: F401  (registration order = run order)
    import checks_corpus
    checks_corpus.register(os.path.join(args.shared, 'corpus'),
                           os.path.join(args.shared, 'tools'))
    import checks_http  # noqa: F401
    import checks_cache  # noqa: F401
    import checks_groups  # noqa: F401
    import checks_fonts  # noqa: F401
    import checks_process  # noqa: F401
    import checks_store  # noqa: F401
    import checks_replicas  # noqa: F401
    import checks_replicas_pg  # noqa: F401
    import checks_fuzz  # noqa: F401
    import checks_semantics  # noqa: F401
    import checks_parser  # noqa: F401
    import checks_docs  # noqa: F401
    import checks_explain  # noqa: F401
    import checks_guides  # noqa: F401
    import checks_svg_display  # noqa: F401
    import checks_svgfix  # noqa: F401
    import checks_stacks  # noqa: F401
    import checks_stackfix  # noqa: F401
    import checks_text  # noqa: F401
    import importlib
    for mod in sorted(f[:-3] for f in os.listdir(HERE)           # the hostile suite, one file
                      if f.startswith('checks_hostile') and f.endswith('.py')):  # per area
        importlib.import_module(mod)

    chosen = [(n, fn, needs) for n, fn, needs in REGISTRY
              if selected(n, args.only) and not (args.offline and needs != 'nothing')]
    if args.list:
        for n, _, needs in chosen:
            print('%-50s needs %s' % (n, needs))
        return 0
    if not chosen:
        print('no check matches %r' % (args.only,), file=sys.stderr)
        print('0 passed, 0 failed')
        return 1

    spec = Spec(args.spec)
    workdir = harness.make_workdir()
    ctx = Context(args, spec, REPO, args.shared, workdir)
    shared_server = None
    server_error = None
    passed = failed = 0
    started = time.monotonic()
    try:
        for name, fn, needs in chosen:
            try:
                if needs == 'server':
                    if shared_server is None and server_error is None:
                        try:
                            shared_server = Server(args.binary, os.path.join(workdir, 'shared.db'),
                                                   startup_seconds=args.startup_timeout).start()
                        except CheckFailed as e:
                            server_error = str(e)
                    if server_error is not None:
                        raise CheckFailed('server unavailable: ' + server_error)
                    if shared_server.proc is None or shared_server.proc.poll() is not None:
                        raise CheckFailed('the shared server has exited: ' + shared_server.log_tail())
                    ctx.server = shared_server
                fn(ctx)
            except CheckFailed as e:
                failed += 1
                print('FAIL %s: %s' % (name, e), flush=True)
                continue
            except Exception as e:  # a bug in a check or an unexpected client error
                failed += 1
                tb = traceback.extract_tb(e.__traceback__)[-1]
                print('FAIL %s: %s: %s (at %s:%d)' % (name, type(e).__name__, e,
                                                     os.path.basename(tb.filename), tb.lineno),
                      flush=True)
                continue
            passed += 1
            print('PASS %s' % name, flush=True)
    finally:
        if shared_server is not None:
            shared_server.stop()
        if failed or args.keep:
            print('# logs and databases kept in %s (%.1f s)' % (workdir, time.monotonic() - started))
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print('%d passed, %d failed' % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
