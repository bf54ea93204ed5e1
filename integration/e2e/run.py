#!/usr/bin/env python3
"""End-to-end checks of the layoutd binary against the contract and openapi.yaml.

    python3 integration/e2e/run.py --binary .build/release/layoutd [--only NAME ...] [--list] [--io-threads N]

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
import importlib
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # never write __pycache__ into shared/ (read-only in CI)

import harness  # noqa: E402
from harness import REGISTRY, Context, Server  # noqa: E402


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


# Every check module, in run order: `checks_<area>.py`, one file per area of the service
# (the hostile suite one file per attacked area). The one registration rule: run.py
# imports each module named here, which registers its checks with `@check`; a module whose
# checks are made from data (the corpus) also defines `register(args)`, called after the
# import. A `checks_*.py` file missing from this list stops the run (exit 2), so no file's
# checks are silently left out. Checks run in list order (within a module, in the order
# they are defined); the checks on the shared server share its database and caches, so
# each uses names and scenes of its own.
CHECK_MODULES = [
    'checks_offline',
    'checks_corpus',
    'checks_http',
    'checks_cache',
    'checks_groups',
    'checks_fonts',
    'checks_process',
    'checks_store',
    'checks_groups_transfer',
    'checks_replicas',
    'checks_fuzz',
    'checks_semantics',
    'checks_parser',
    'checks_docs',
    'checks_explain',
    'checks_guides',
    'checks_svg',
    'checks_stacks',
    'checks_text',
    'checks_import',
    'checks_hostile_answers',
    'checks_hostile_budget',
    'checks_hostile_diagnostics',
    'checks_hostile_exposure',
    'checks_hostile_fuzz',
    'checks_hostile_http',
    'checks_hostile_names',
    'checks_hostile_store',
]


def load_check_modules(args):
    """Imports every module of CHECK_MODULES (registering its checks) and calls its
    `register(args)` when it has one. Raises ValueError when a `checks_*.py` of this
    folder is not listed, or a listed one is missing."""
    on_disk = sorted(f[:-3] for f in os.listdir(HERE) if f.startswith('checks_') and f.endswith('.py'))
    unlisted = [m for m in on_disk if m not in CHECK_MODULES]
    absent = [m for m in CHECK_MODULES if m not in on_disk]
    if unlisted or absent:
        raise ValueError('run.py: CHECK_MODULES and the checks_*.py files differ: not listed %r, '
                         'no such file %r' % (unlisted, absent))
    for name in CHECK_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, 'register'):
            module.register(args)


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
    ap.add_argument('--io-threads', type=int, default=None, metavar='N',
                    help='start every server with N event loops (LAYOUTD_IO_THREADS); default: its own default')
    args = ap.parse_args()
    if args.io_threads is not None:
        harness.SERVER_ENV['LAYOUTD_IO_THREADS'] = str(args.io_threads)
    args.binary = os.path.abspath(args.binary or default_binary())
    args.shared = os.path.abspath(args.shared)

    try:
        from openapi_check import Spec
    except ImportError as e:
        print('missing Python package (%s): run scripts/install-deps.sh '
              'or pip install -r integration/requirements.txt' % e, file=sys.stderr)
        return 2

    try:
        load_check_modules(args)
    except ValueError as e:
        print(str(e), file=sys.stderr)
        return 2

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
    started = time.monotonic()
    passed, failed = harness.run_checks(
        chosen, ctx, lambda: Server(args.binary, os.path.join(workdir, 'shared.db'),
                                    startup_seconds=args.startup_timeout).start())
    if failed or args.keep:
        print('# logs and databases kept in %s (%.1f s)' % (workdir, time.monotonic() - started))
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print('%d passed, %d failed' % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
