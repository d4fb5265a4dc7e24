#!/usr/bin/env python3
"""docs/scale.md's deployment under load (issue 39 item 5): a PostgreSQL cluster, two `okit-run serve` processes
over ONE shared model (a shop of a few hundred books, storage = "postgres"), nginx from Debian in front with the
```nginx block of docs/scale.md (TLS, sticky sessions by nginx's routing cookie), and 2,000 viewers across both
processes — each logged in, its list page fetched once, its Server-Sent Events stream open — with a writer in
each process. After every write, every viewer of both processes gets `event: stale` and its re-GET (as the page
script does) shows the new name; no answer is an error. Loopback only; every wait is bounded (the whole test
well under two minutes); no duration is asserted: it is a behaviour test (scripts/lib/serve_bench.py measures).

Usage: deployment_load.py OKIT_RUN WORKDIR [VIEWERS]"""
import asyncio, collections, os, re, resource, signal, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", ".."))
for lib in (os.path.join(here, "..", "web", "lib"), os.path.join(here, "..", "lib"), os.path.join(root, "scripts", "lib")):
    sys.path.insert(0, lib)
from tap import check, done
import nginx, pgcluster
from serve_http import Target, Viewer, Writer, Round, free_port, stop_process

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
VIEWERS = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
BOOKS = 300
TOKEN = "deployment-load-token-7c41"
DEADLINE = 45          # seconds a write's pushes and re-GETs may take before it counts as a failure (never a
CONNECT_DEADLINE = 90  # measured duration), and connecting all the viewers
os.makedirs(work, exist_ok=True)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

APP = f"""-- The shared shop of apptests/postgres/deployment_load.py: {BOOKS} books kept in PostgreSQL, a list by name.
local okit = require "okit"
okit.entity("Book", {{ name = "string", count = "int" }})
okit.entity("Shop", {{ books = "[Book]" }})
shop = okit.model("Shop", {{
  storage = "postgres",
  seed = function(root)
    for i = 1, {BOOKS} do
      root.books:append(okit.new("Book", {{ id = string.format("b%03d", i), name = string.format("Book %03d", i), count = i }}))
    end
  end,
}})
okit.list("books", {{
  type = "Book", dataPath = "books", titlePath = "%Books", rowSort = "name",
  cell = {{ path = "name", detailPath = "count" }}, segue = "book",
}})
okit.detail("book", {{ titlePath = "name", sections = {{ {{ okit.cell.text {{ path = "%Name", textPath = "name" }} }} }} }})
okit.app {{ home = "books" }}
"""


def make_certificate():
    """A self-signed ECDSA certificate for 127.0.0.1 (thousands of TLS handshakes: an RSA key's would cost seconds
    of the machine's two cores): (cert path, key path)."""
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key,
                    "-out", cert], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


class Serve:
    """`okit-run serve` on the shared shop with the token file and limits for `people` browsers behind nginx
    (every connection comes from nginx's address: --trusted-proxy 127.0.0.1, so only --max-connections caps them)."""

    def __init__(self, name, port, url, people):
        self.name, self.port = name, port
        self.log = open(os.path.join(work, name + ".log"), "w+")
        limit = str(people)
        self.process = subprocess.Popen(
            [okit_run, "serve", os.path.join(work, "shop.lua"), "--port", str(port), "--data", os.path.join(work, name + "-data"),
             "--token-file", os.path.join(work, "token"), "--sessions", limit, "--max-streams", limit,
             "--max-connections", limit, "--trusted-proxy", "127.0.0.1"],
            stdout=self.log, stderr=self.log, env=dict(os.environ, OKIT_DATABASE_URL=url))

    def started(self):
        deadline = time.time() + 120
        while time.time() < deadline:
            self.log.seek(0)
            if re.search(r"serving \S+ at http://", self.log.read()):
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def stop(self):
        stop_process(self.process)
        return self.process.returncode

    def output(self):
        self.log.seek(0)
        return self.log.read()


class Nginx(nginx.Nginx):
    """nginx with docs/scale.md's configuration (its upstreams the two processes, the test's certificate), an
    access log of each request's routing value, upstream and status, and room for thousands of connections (the
    helper's default events block holds 1,024)."""

    def __init__(self, ports, cert, key):
        self.prefix = prefix = os.path.join(work, "nginx")
        self.access = os.path.join(prefix, "access.log")
        os.makedirs(os.path.join(prefix, "tmp"), exist_ok=True)
        self.port = free_port()
        block = (nginx.documented_block("scale.md")
                 .replace("listen 443 ssl;", f"listen 127.0.0.1:{self.port} ssl;")
                 .replace("server_name books.example.org;", "server_name 127.0.0.1;")
                 .replace("/etc/ssl/certs/books.pem", cert).replace("/etc/ssl/private/books.key", key)
                 .replace("server 10.0.0.11:8480", f"server 127.0.0.1:{ports[0]}")
                 .replace("server 10.0.0.12:8480", f"server 127.0.0.1:{ports[1]}"))
        assert f"127.0.0.1:{ports[0]} " in block and f"127.0.0.1:{ports[1]} " in block, block
        tmp = os.path.join(prefix, "tmp")
        temps = "\n".join(f"    {k}_temp_path {tmp}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        conf = "\n".join([
            "daemon off;", "master_process on;", "worker_processes 2;", "worker_rlimit_nofile 20000;",
            "user root;" if os.getuid() == 0 else "", f"pid {prefix}/nginx.pid;", f"error_log {prefix}/error.log;",
            "events { worker_connections 8192; }", "http {",
            "    log_format routed '$okit_route $upstream_addr $status \"$request\"';",
            f"    access_log {self.access} routed;", temps, block, "}", ""])
        with open(os.path.join(prefix, "nginx.conf"), "w") as f:
            f.write(conf)
        self.log = open(os.path.join(prefix, "stderr.log"), "w+")
        self.process = subprocess.Popen([nginx.NGINX, "-p", prefix + "/", "-c", prefix + "/nginx.conf", "-e",
                                         prefix + "/error.log"], stdout=self.log, stderr=self.log)
        if not self.wait_listening():
            raise RuntimeError("nginx did not start:\n" + self.errors())

    def routed(self):
        """(routing value, the upstream that answered last, status, request line) per logged request."""
        out = []
        for line in open(self.access).read().splitlines():
            m = re.match(r'(\S+) (.+?) (\d{3}) "(.*)"$', line)
            if m:
                out.append((m.group(1), m.group(2).split(",")[-1].strip(), int(m.group(3)), m.group(4)))
        return out


async def pinned_writer(target, proxy, upstream, nth):
    """A writer whose routing cookie reaches the process `upstream` (found by probing values on a static file,
    which makes no session), in edit mode on the `nth` book of the list."""
    for k in range(64):
        w = Writer(target)
        w.cookies["okit_route"] = f"writer{nth}probe{k:02d}"
        await w.get("/static/okit.css")
        for _ in range(100):            # nginx logs a request after its answer
            seen = [u for r, u, _, _ in proxy.routed() if r == w.cookies["okit_route"]]
            if seen:
                break
            await asyncio.sleep(0.01)
        if seen and seen[-1] == upstream:
            await w.start(login_token=TOKEN, nth=nth)
            return w
    raise RuntimeError(f"no routing value reached {upstream}")


async def connect_viewers(target, on_stale, count, parallel=16):
    """`count` viewers through nginx: each logs in, GETs /books once and opens /events. Returns (viewers, errors)."""
    gate, viewers, errors = asyncio.Semaphore(parallel), [], []

    async def one():
        async with gate:
            v = Viewer(target)
            try:
                r = await v.login(TOKEN)
                page = await v.get("/books")
                if r.status != 303 or page.status != 200 or "Book " not in page.text:
                    errors.append(f"login {r.status}, /books {page.status}")
                    return
                await v.open_events(on_stale)
                viewers.append(v)
            except Exception as e:
                errors.append(repr(e))
    await asyncio.wait_for(asyncio.gather(*(one() for _ in range(count))), CONNECT_DEADLINE)
    return viewers, errors


async def load(proxy, ports):
    target = Target("127.0.0.1", proxy.port, tls=True)
    upstreams = [f"127.0.0.1:{p}" for p in ports]
    writers = [await pinned_writer(target, proxy, upstreams[i], i) for i in (0, 1)]
    check(True, "a writer logged in on each process, in edit mode on a book of its own")
    round_ = Round()
    t = time.time()
    viewers, errors = await connect_viewers(target, round_.on_stale, VIEWERS)
    print(f"# connecting them took {time.time() - t:.1f} s (not asserted)")
    check(len(viewers) == VIEWERS and not errors,
          f"{len(viewers)} of {VIEWERS} viewers logged in through nginx, fetched the list and opened /events {errors[:3]}")
    where = {r: u for r, u, _, req in proxy.routed() if req.startswith("GET /books")}    # /events is logged when it ends
    per_process = collections.Counter(where.get(v.cookies.get("okit_route")) for v in viewers)
    check(all(per_process[u] >= VIEWERS // 5 for u in upstreams),
          f"nginx spread them over both processes ({dict(per_process)})")
    for v in viewers:
        v.reget_path = "/books"
    try:
        for i, w in enumerate(writers):
            name = f"Aaa renamed on {'ab'[i]}"
            t = time.time()
            problem = await round_.run(viewers, w, name, timeout=DEADLINE)
            print(f"# the write and the re-GETs took {time.time() - t:.1f} s (not asserted)")
            seen = collections.Counter(where.get(v.cookies.get("okit_route")) for v in round_.done)
            check(problem is None, f"the writer on process {'ab'[i]} renames its book to {name!r}: every viewer of "
                  f"both processes got the stale event and its re-GET shows the new name ({dict(seen)}) {problem or ''}")
    finally:
        for v in viewers + writers:
            v.close()


cluster = pgcluster.start()
url = cluster.new_database("shop")
with open(os.path.join(work, "token"), "w") as f:
    f.write(TOKEN + "\n")
os.chmod(os.path.join(work, "token"), 0o600)
with open(os.path.join(work, "shop.lua"), "w") as f:
    f.write(APP)
cert, key = make_certificate()
serves, proxy, codes = [], None, []
try:
    ports = (free_port(), free_port())
    serves = [Serve(n, p, url, VIEWERS + 256) for n, p in zip("ab", ports)]
    check(all(s.started() for s in serves), "two okit-run serve processes start over one empty PostgreSQL database")
    proxy = Nginx(ports, cert, key)
    started = time.time()
    try:
        asyncio.run(load(proxy, ports))
    except Exception as e:              # a refused login or command, a phase past its deadline: a failure, logs shown
        check(False, f"the load ran to its end ({type(e).__name__}: {e})")
    statuses = collections.Counter(s for _, _, s, _ in proxy.routed())
    check(all(s < 400 for s in statuses), f"no error answer through nginx ({dict(statuses)})")
    names = cluster.psql("SELECT name FROM \"Book\" WHERE okit_model = 'default' AND name LIKE 'Aaa%' ORDER BY name", url)
    check(names.split("\n") == ["Aaa renamed on a", "Aaa renamed on b"], f"PostgreSQL holds both last names ({names!r})")
    check(cluster.psql("SELECT count(*) FROM \"Book\" WHERE okit_model = 'default'", url) == str(BOOKS),
          f"and the {BOOKS} books once")
    print(f"# {VIEWERS} viewers and 2 writes in {time.time() - started:.1f} s (not asserted)")
finally:
    if proxy:
        proxy.stop()
    codes = [s.stop() for s in serves]
    cluster.stop()
check(codes == [143, 143], f"SIGTERM: both serve processes exit 143 ({codes})")


def show_logs():
    if proxy:
        print(proxy.errors()[-1500:])
    for s in serves:
        print(f"--- {s.name}:\n" + s.output()[-2500:])


done(show_logs)
