"""Helpers of the hostile suite (checks_hostile_*.py): each attack runs against
a server of its own, started as production would run it (default limits, `--workers 2`)
under an address-space limit, and is judged on the answer's status and byte count, the
server's peak resident memory (VmHWM), the database's size on disk, and whether /healthz
still answers afterwards.

    server = start(ctx, 'answers')            # prlimit --as=2 GiB, --workers 2
    try:
        ...attack...
        expect_bounded(ctx, server, max_hwm=HWM_BOUND)
    finally:
        server.stop()
"""
import os

from harness import CheckFailed

AS_LIMIT = 2 << 30                      # bytes of address space the server may map
HWM_BOUND = 1536 << 20                  # the bound every attack is judged on: resident memory under 1.5 GiB
DB_BOUND = 512 << 20                    # and the database under 512 MiB with every limit at its default
RESPONSE_BOUND = 64 << 20               # --max-response-bytes' default


def start(ctx, name, extra_args=(), db_path=None):
    """A server of the check's own under `prlimit --as=AS_LIMIT` with two solver
    threads; stop it in a finally."""
    return ctx.new_server('hostile-' + name, ['--workers', '2'] + list(extra_args),
                          db_path=db_path,
                          wrapper=['prlimit', '--as=%d' % AS_LIMIT, '--'])


def status_field(server, field):
    """A `kB` field of /proc/PID/status (VmHWM, VmRSS), in bytes."""
    with open('/proc/%d/status' % server.proc.pid) as fh:
        for line in fh:
            if line.startswith(field + ':'):
                return int(line.split()[1]) * 1024
    raise CheckFailed('no %s in /proc/%d/status' % (field, server.proc.pid))


def db_bytes(path):
    """The database's bytes on disk: the file and its -wal and -shm companions."""
    return sum(os.path.getsize(p) for p in (path, path + '-wal', path + '-shm')
               if os.path.exists(p))


def expect_bounded(ctx, server, max_hwm=HWM_BOUND, max_db=DB_BOUND):
    """The server is still up (/healthz 200), its peak resident memory is under `max_hwm`
    and its database under `max_db`."""
    ctx.expect(server.proc is not None and server.proc.poll() is None,
               'the server exited: %s' % server.log_tail())
    r = ctx.request('GET', '/healthz', server=server)
    ctx.expect_status(r, 200, 'GET /healthz after the attack')
    hwm = status_field(server, 'VmHWM')
    ctx.expect(hwm < max_hwm, 'peak resident memory %d bytes, bound %d' % (hwm, max_hwm))
    size = db_bytes(server.db_path)
    ctx.expect(size < max_db, 'database %d bytes on disk, bound %d' % (size, max_db))
