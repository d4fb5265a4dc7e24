"""A throwaway PostgreSQL cluster for test drivers (storage.md "Shared models on PostgreSQL"): Debian's
`postgresql` package (the highest /usr/lib/postgresql/*/bin), initdb into a temporary folder, a free TCP port on
127.0.0.1, trust authentication for the user `okit`. No dependencies beyond the standard library.

    import pgcluster
    cluster = pgcluster.start()                 # fsync=True for a cluster whose durability a test relies on
    url = cluster.new_database()                # postgres://okit@127.0.0.1:PORT/t1_…, one per test
    cluster.psql("SELECT 1", url)               # psql -At: the output, PsqlError with stderr on failure
    cluster.restart()                           # stop (fast) and start again on the same port
    cluster.stop_server(); cluster.start_server()   # the database away for a while, then back
    cluster.kill()                              # SIGKILL the postmaster and every backend (a crash)
    cluster.stop()                              # stop and remove the folder (also done at exit)
    pgcluster.start(ssl=True)                   # TLS on: a test CA (cluster.ca_file) signed the server's
                                                # certificate for localhost and 127.0.0.1

When the driver runs as root the server runs as the `postgres` user (initdb refuses root): the binaries run through
`runuser -u postgres --` and the folder belongs to postgres. Every cluster is stopped and its folder removed at
exit, on SIGTERM, SIGINT and SIGHUP too, and a watchdog (a detached shell) does it if the driver dies by SIGKILL."""
import atexit
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

_clusters = []
_lock = threading.Lock()


class PsqlError(Exception):
    """psql failed: the statement and what psql said on stderr."""


class ClusterError(Exception):
    """The cluster could not be set up, started or stopped (with the server's log)."""


def bin_dir():
    """The bin folder of the highest PostgreSQL version installed, or None."""
    found = []
    for d in glob.glob("/usr/lib/postgresql/*/bin"):
        version = os.path.basename(os.path.dirname(d))
        if os.access(os.path.join(d, "initdb"), os.X_OK) and re.fullmatch(r"\d+(\.\d+)?", version):
            found.append((tuple(int(x) for x in version.split(".")), d))
    return max(found)[1] if found else None


def available():
    return bin_dir() is not None


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env():
    """The driver's environment without libpq's variables (a PGPASSWORD or PGHOST of the caller must not leak in)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env["PGCONNECT_TIMEOUT"] = "10"
    return env


class Cluster:
    def __init__(self, fsync=False, bin=None, ssl=False):
        self.bin = bin or bin_dir()
        if not self.bin:
            raise ClusterError("no PostgreSQL binaries in /usr/lib/postgresql/*/bin: apt-get install -y postgresql "
                               "(scripts/test installs it)")
        self.fsync = fsync
        self.ssl = ssl
        self.ca_file = None
        self.as_postgres = os.geteuid() == 0
        self.folder = tempfile.mkdtemp(prefix="okit-pg-")
        self.data = os.path.join(self.folder, "data")
        self.sockets = os.path.join(self.folder, "sockets")
        self.log = os.path.join(self.folder, "server.log")
        self.port = None
        self.user = "okit"
        self.database = "okit"
        self._databases = 0
        self._watchdog = None
        self.running = False
        os.makedirs(self.sockets)
        os.chmod(self.folder, 0o700)
        if self.as_postgres:
            import pwd
            pw = pwd.getpwnam("postgres")
            for p in (self.folder, self.sockets):
                os.chown(p, pw.pw_uid, pw.pw_gid)

    # The server ----------------------------------------------------------------------------------------------

    def _server_command(self, args):
        program = [os.path.join(self.bin, args[0])] + args[1:]
        return (["runuser", "-u", "postgres", "--"] + program) if self.as_postgres else program

    def _run_server_tool(self, args, timeout=120):
        r = subprocess.run(self._server_command(args), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout, env=_clean_env(), cwd=self.folder)
        if r.returncode != 0:
            raise ClusterError("%s failed (exit %d):\n%s%s\n--- server log ---\n%s"
                               % (" ".join(args[:1]), r.returncode, r.stdout, r.stderr, self.server_log()))
        return r.stdout

    def server_log(self, last=4000):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-last:]
        except OSError:
            return "(no server log)"

    def _options(self):
        o = ["-p", str(self.port), "-k", self.sockets, "-c", "listen_addresses=127.0.0.1",
             "-c", "max_connections=300", "-c", "shared_buffers=32MB"]
        if self.ssl:
            o += ["-c", "ssl=on", "-c", "ssl_cert_file=" + os.path.join(self.tls, "server.crt"),
                  "-c", "ssl_key_file=" + os.path.join(self.tls, "server.key")]
        if not self.fsync:
            # Safe against a crash of the server (kill()), not of the machine: commits still reach the OS before
            # they return (synchronous_commit stays on; off would lose the last commits in a kill()).
            o += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        return " ".join(o)

    def init(self):
        self._run_server_tool(["initdb", "-D", self.data, "--auth=trust", "-U", self.user, "-E", "UTF8",
                               "--locale=C", "--no-instructions"] + ([] if self.fsync else ["--no-sync"]))
        if self.ssl:
            self._make_certificates()

    @property
    def tls(self):
        return os.path.join(self.folder, "tls")

    def _make_certificates(self):
        """A test certificate authority (`ca_file`, for sslrootcert=) and the server's certificate it signed, for
        localhost and 127.0.0.1; the key is the server's own (mode 0600, owned by the user the server runs as)."""
        os.makedirs(self.tls)
        t = self.tls

        def openssl(*args):
            r = subprocess.run(["openssl"] + list(args), capture_output=True, text=True, cwd=t)
            if r.returncode != 0:
                raise ClusterError("openssl %s failed:\n%s" % (args[0], r.stderr))
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=okit test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
        with open(os.path.join(t, "server.ext"), "w") as f:
            f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.crt", "-days", "2", "-extfile", "server.ext")
        os.chmod(os.path.join(t, "server.key"), 0o600)
        if self.as_postgres:
            import pwd
            pw = pwd.getpwnam("postgres")
            for name in [""] + os.listdir(t):
                os.chown(os.path.join(t, name), pw.pw_uid, pw.pw_gid)
        self.ca_file = os.path.join(t, "ca.crt")

    def start_server(self):
        """Starts the server (on the port it had, else a free one) and waits until it takes connections."""
        first = self.port is None
        for attempt in range(5):
            if first:
                self.port = free_port()
            try:
                self._run_server_tool(["pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60",
                                       "-o", self._options(), "start"])
                self.running = True
                return
            except ClusterError as e:
                if first and "could not bind" in self.server_log() and attempt < 4:
                    continue            # the port was taken meanwhile: another one
                raise e

    def stop_server(self, mode="fast"):
        """pg_ctl stop -m fast|smart|immediate: connected sessions are ended (fast), the folder stays."""
        if self.running:
            self._run_server_tool(["pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop"])
            self.running = False

    def restart(self):
        """Stops the server (fast) and starts it again on the same port."""
        self.stop_server("fast")
        self.start_server()

    def postmaster_pid(self):
        try:
            with open(os.path.join(self.data, "postmaster.pid")) as f:
                return int(f.readline())
        except (OSError, ValueError):
            return None

    def kill(self):
        """A crash: SIGKILL to the postmaster and every process it started; the next start_server recovers."""
        pid = self.postmaster_pid()
        if pid is None:
            return
        children = _children(pid)
        for p in [pid] + children:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.time() + 30
        while time.time() < deadline and any(_alive(p) for p in [pid] + children):
            time.sleep(0.02)
        # Dead, but a zombie until its parent (init) reaps it: the next postmaster would take the pid in
        # postmaster.pid for a live server. Wait for the reaping, then call the file stale.
        deadline = time.time() + 5
        while time.time() < deadline and os.path.exists("/proc/%d" % pid):
            time.sleep(0.02)
        if os.path.exists("/proc/%d" % pid) and not _alive(pid):
            try:
                os.unlink(os.path.join(self.data, "postmaster.pid"))
            except OSError:
                pass
        self.running = False

    def stop(self):
        """Stops the server (immediately: nothing in it is kept) and removes the folder."""
        with _lock:
            if self in _clusters:
                _clusters.remove(self)
        if self.running:
            try:
                self.stop_server("immediate")
            except Exception:
                self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)
        if self._watchdog:                          # last: killed before this, the driver leaves it the rest
            try:
                self._watchdog.kill()
                self._watchdog.wait(timeout=5)
            except Exception:
                pass
            self._watchdog = None

    def _start_watchdog(self):
        """A detached shell that stops the server and removes the folder once this driver is gone (SIGKILL too)."""
        pg_ctl = " ".join(self._server_command(["pg_ctl", "-D", self.data, "-m", "immediate", "stop"]))
        script = ('while kill -0 %d 2>/dev/null; do sleep 1; done; %s >/dev/null 2>&1; rm -rf "%s"'
                  % (os.getpid(), pg_ctl, self.folder))
        self._watchdog = subprocess.Popen(["sh", "-c", script], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, start_new_session=True)

    # Databases and SQL ---------------------------------------------------------------------------------------

    def url_for(self, database=None, password=None):
        auth = self.user + (":" + password if password else "")
        return "postgres://%s@127.0.0.1:%d/%s" % (auth, self.port, database or self.database)

    @property
    def url(self):
        """postgres://okit@127.0.0.1:PORT/okit, the cluster's first database."""
        return self.url_for()

    def new_database(self, name=None):
        """Creates a database of its own for a test and returns its URL."""
        with _lock:
            self._databases += 1
            n = self._databases
        name = name or "t%d_%s" % (n, uuid.uuid4().hex[:8])
        self.psql('CREATE DATABASE "%s"' % name, database="postgres")
        return self.url_for(name)

    def psql_args(self, database=None):
        db = _database_name(database) if database else self.database
        return [os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", db]

    def psql(self, sql, database=None, timeout=60):
        """Runs `sql` (one or more statements) with psql -At and returns its output without the last newline;
        `database` is a name or a URL (default the cluster's first database). PsqlError with stderr on failure."""
        r = subprocess.run(self.psql_args(database), input=sql, capture_output=True, text=True, timeout=timeout,
                           env=_clean_env())
        if r.returncode != 0:
            raise PsqlError("psql failed (exit %d) on:\n  %s\n%s" % (r.returncode, sql.strip(), r.stderr.strip()))
        return r.stdout[:-1] if r.stdout.endswith("\n") else r.stdout

    def session(self, database=None):
        """An interactive psql that stays connected (to hold a transaction or a lock open); see PsqlSession."""
        return PsqlSession(self.psql_args(database))


class PsqlSession:
    """One psql connection kept open: `run(sql)` sends statements and returns their output once psql has run them
    (a marker echoed after them says so), so a lock taken with `run("BEGIN; SELECT … FOR UPDATE")` is held when run
    returns. `close()` ends psql (an open transaction is rolled back by the server)."""

    def __init__(self, args):
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, bufsize=1, env=_clean_env())
        self.n = 0

    def run(self, sql, timeout=60):
        self.n += 1
        marker = "okit-session-done-%d" % self.n
        self.p.stdin.write(sql.rstrip().rstrip(";") + ";\n\\echo " + marker + "\n")
        self.p.stdin.flush()
        out = []
        deadline = time.time() + timeout
        result = {}

        def read():
            for line in self.p.stdout:
                if line.rstrip("\n") == marker:
                    result["done"] = True
                    return
                out.append(line.rstrip("\n"))

        t = threading.Thread(target=read, daemon=True)
        t.start()
        t.join(max(0, deadline - time.time()))
        if not result.get("done"):
            why = "psql ended" if self.p.poll() is not None else "no answer within %ds" % timeout
            raise PsqlError("psql session: %s on:\n  %s\n%s" % (why, sql.strip(), "\n".join(out)))
        errors = [l for l in out if l.startswith(("ERROR:", "FATAL:", "psql:"))]
        if errors:
            raise PsqlError("psql session failed on:\n  %s\n%s" % (sql.strip(), "\n".join(out)))
        return "\n".join(out)

    def close(self):
        if self.p.poll() is None:
            try:
                self.p.stdin.close()
            except OSError:
                pass
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


def _database_name(database):
    if "://" in database:
        return database.rsplit("/", 1)[1].split("?", 1)[0]
    return database


def _children(pid):
    """The pids whose parent is `pid` (read from /proc)."""
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as f:
                text = f.read()
            ppid = int(text.rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                out.append(int(stat.split("/")[2]))
        except (OSError, ValueError, IndexError):
            pass
    return out


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def start(fsync=False, ssl=False):
    """initdb, start on a free port, create the database `okit`: a running Cluster, stopped at exit. `ssl`: TLS on,
    with a certificate of a test authority (`cluster.ca_file`)."""
    c = Cluster(fsync=fsync, ssl=ssl)
    with _lock:
        _clusters.append(c)
    try:
        c.init()
        c.start_server()
        c._start_watchdog()
        c.psql('CREATE DATABASE "%s"' % c.database, database="postgres")
    except BaseException:
        c.stop()
        raise
    return c


def stop_all():
    for c in list(_clusters):
        try:
            c.stop()
        except Exception as e:                     # at exit: say so, go on with the others
            print("pgcluster: could not stop the cluster in %s: %s" % (c.folder, e), file=sys.stderr)


def _on_signal(signum, frame):
    stop_all()
    sys.exit(128 + signum)


atexit.register(stop_all)
for _s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    if signal.getsignal(_s) in (signal.SIG_DFL, signal.default_int_handler):
        signal.signal(_s, _on_signal)
