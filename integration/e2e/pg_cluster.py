"""The PostgreSQL cluster the replica checks share: `scripts/pg-test-cluster.sh --control`
as a child process (Debian's `postgresql`; `initdb` into a temporary folder, a free
loopback port), started on first use by `cluster(ctx)`, stopped and removed when the run
ends. Each check creates a database of its own (`Cluster.create_database`). The cluster is
always the run's own, also when LAYOUTD_TEST_PG_URL is set, because
`replicas-pg/database-down` stops and starts it.
"""
import atexit
import glob
import os
import select
import shutil
import signal
import subprocess
import time

from harness import CheckFailed


class Cluster:
    """`scripts/pg-test-cluster.sh --control` as a child: `url` is the superuser URL of its
    `postgres` database; `stop()` and `start()` take the server away and bring it back on
    the same port; closing its standard input (at exit) stops and removes it."""

    def __init__(self, repo, workdir):
        script = os.path.join(repo, 'scripts', 'pg-test-cluster.sh')
        self.log_path = os.path.join(workdir, 'pg-test-cluster.log')
        self.log = open(self.log_path, 'ab')
        self.proc = subprocess.Popen([script, '--control'], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log)
        self.buffer = b''
        self.running = False
        line = self._readline(120)
        if not line.startswith('LAYOUTD_TEST_PG_URL='):
            self.close()
            raise CheckFailed('pg-test-cluster.sh --control did not start a cluster (%r): %s'
                              % (line, self._log_tail()))
        self.url = line.split('=', 1)[1]
        self.running = True
        self.databases = 0

    def _log_tail(self):
        try:
            with open(self.log_path, 'rb') as fh:
                return fh.read()[-800:].decode('utf-8', 'replace').strip() or '(empty log)'
        except OSError:
            return '(no log)'

    def _readline(self, seconds):
        deadline = time.monotonic() + seconds
        fd = self.proc.stdout.fileno()
        while b'\n' not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CheckFailed('pg-test-cluster.sh answered nothing within %ds' % seconds)
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                data = os.read(fd, 4096)
                if not data:
                    return self.buffer.decode().strip()
                self.buffer += data
        line, self.buffer = self.buffer.split(b'\n', 1)
        return line.decode().strip()

    def _command(self, command, answer):
        if self.proc.poll() is not None:
            raise CheckFailed('pg-test-cluster.sh has exited: %s' % self._log_tail())
        self.proc.stdin.write(command.encode() + b'\n')
        self.proc.stdin.flush()
        got = self._readline(90)
        if got != answer:
            raise CheckFailed('pg-test-cluster.sh %s answered %r: %s' % (command, got, self._log_tail()))

    def stop(self):
        """`pg_ctl stop -m fast`: connections are closed, new ones refused."""
        self._command('stop', 'stopped')
        self.running = False

    def start(self):
        self._command('start', 'started')
        self.running = True

    def ensure_running(self):
        self.thaw()
        if not self.running:
            self.start()

    def freeze(self):
        """`kill -STOP` the postmaster and every process it started: the kernel still accepts
        connections and data, nothing answers (a frozen VM, a partition, a stalled failover).
        `thaw()` resumes them."""
        p = subprocess.run([psql(), '-X', '-q', '-A', '-t', '-d', self.url, '-c', 'SHOW data_directory'],
                           capture_output=True, timeout=60)
        if p.returncode != 0:
            raise CheckFailed('SHOW data_directory failed: %s' % p.stderr.decode('utf-8', 'replace'))
        with open(os.path.join(p.stdout.decode().strip(), 'postmaster.pid')) as fh:
            postmaster = int(fh.readline())
        children = []
        for stat in glob.glob('/proc/[0-9]*/stat'):
            try:
                with open(stat) as fh:
                    fields = fh.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(stat.split('/')[2]))
        self.frozen = [postmaster] + sorted(children)
        for pid in self.frozen:
            os.kill(pid, signal.SIGSTOP)

    def thaw(self):
        """`kill -CONT` what `freeze()` stopped."""
        for pid in getattr(self, 'frozen', []):
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
        self.frozen = []

    def database_url(self, name):
        """The URL of `name` on this cluster (the superuser's URL with another path)."""
        base, _, _ = self.url.rpartition('/')
        return base + '/' + name

    def create_database(self, prefix):
        """A new empty database; returns its URL."""
        self.ensure_running()
        self.databases += 1
        name = '%s_%d' % (prefix, self.databases)
        p = subprocess.run([psql(), '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', self.url,
                            '-c', 'CREATE DATABASE "%s"' % name],
                           capture_output=True, timeout=60)
        if p.returncode != 0:
            raise CheckFailed('CREATE DATABASE %s failed: %s' % (name, p.stderr.decode('utf-8', 'replace')))
        return self.database_url(name)

    def close(self):
        self.thaw()
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


_cluster = None
_cluster_error = None


def psql():
    found = sorted(glob.glob('/usr/lib/postgresql/*/bin/psql'),
                   key=lambda p: [int(x) if x.isdigit() else x for x in p.split('/')])
    path = found[-1] if found else shutil.which('psql')
    if not path:
        raise CheckFailed('psql not found (Debian postgresql; scripts/install-deps.sh installs it)')
    return path


def cluster(ctx):
    """The suite's cluster, started on first use (a failure to start fails every check that
    needs it, with the same message)."""
    global _cluster, _cluster_error
    if _cluster_error is not None:
        raise CheckFailed(_cluster_error)
    if _cluster is None:
        try:
            _cluster = Cluster(ctx.repo, ctx.workdir)
        except CheckFailed as e:
            _cluster_error = 'no PostgreSQL cluster: %s' % e
            raise CheckFailed(_cluster_error)
        atexit.register(_cluster.close)
    return _cluster
