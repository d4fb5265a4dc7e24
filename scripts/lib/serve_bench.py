#!/usr/bin/env python3
"""Serving measured from outside the server (issue 39, docs/performance.md "Serving measured from outside"):
`okit-run serve` on the benchmark shop with `WebBench`'s books list, driven over real HTTP by many viewers —
each its own cookie session that fetched the list page once and holds its `/events` stream open — and one
writer session renaming a book the list shows. Prints one JSON line per workload, as `okit-run bench` does:

    {"workload":"serve_viewer_kib","value":212.4,"unit":"KiB","kind":"external"}

and, when a workload cannot run, value 0 and an `error` saying why; the viewer lines also name their `client`:
"c" for serve_viewers.c (compiled on first use with the machine's C compiler, serve_viewers.py) or "python", the
fallback without one (serve_http.py's asyncio viewers). Python 3's standard library and a C compiler, plus `wrk`
and nginx for the two requests-per-second figures (scripts/bench installs them).

Usage: serve_bench.py OKIT_RUN [--books N] [--low 100] [--high 1000] [--viewers 10000] [--rounds 5]
                               [--rps-seconds 5] [--max-rss-mib M] [--work DIR] [--keep-alive]

The viewer and writer helpers (`Target`, `Viewer`, `Writer`, `Round`) are also used by
apptests/postgres/deployment_load.py."""
import argparse, asyncio, json, os, re, resource, shutil, signal, subprocess, tempfile, time
from serve_http import Target, Viewer, Writer, rss_kib, p99, median, free_port, stop_process
from serve_viewers import viewers_for

# The bench shop's schema as a Lua app with WebBench's two screens (Sources/okit-run/Bench/WebBench.swift).
APP = """local okit = require "okit"
okit.entity("Author", { name = "string" })
okit.entity("Book", { name = "string", date = "date", marked = "bool", price = "double", authors = "[Author]" })
okit.entity("Shop", { books = "[Book]", authors = "[Author]" })
local shop = okit.model("Shop")
okit.state { shop }
okit.list("books", {
  type = "Book", dataPath = "books", titlePath = "%Books",
  rowSort = "name", group = "name/initial", search = "#true", searchPath = "name", index = "#true",
  cell = { path = "name" }, segue = "book",
})
okit.detail("book", {
  titlePath = "name",
  sections = { { okit.cell.text { path = "name", textPath = "name" } } },
})
okit.app { id = "bench", version = 1, home = { "books" } }
"""


def write_shop(n, path):
    """The benchmark shop of ../shared/bench/gen_shop.py (same generator, seed 42), written compact to `path`."""
    import random, uuid
    rnd = random.Random(42)
    words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
             "quebec romeo sierra tango").split()

    def uid():
        return str(uuid.UUID(int=rnd.getrandbits(128), version=4)).upper()
    authors = [{"id": uid(), "name": f"{rnd.choice(words).title()} {rnd.choice(words).title()}"}
               for _ in range(max(10, n // 10))]
    books = []
    for _ in range(n):
        books.append({"id": uid(), "name": " ".join(rnd.choice(words) for _ in range(3)).title(),
                      "date": 600000000 + rnd.randrange(100000000), "marked": rnd.random() < 0.2,
                      "price": round(rnd.uniform(1, 80), 2),
                      "authors": [{"id": uid(), "name": a["name"]} for a in rnd.sample(authors, rnd.randint(1, 3))]})
    with open(path, "w") as f:
        json.dump({"id": uid(), "books": books, "authors": authors}, f, separators=(",", ":"))


def emit(workload, value, unit, error=None, **extra):
    line = {"workload": workload, "value": round(value, 3) if error is None else 0, "unit": unit, "kind": "external"}
    line.update({k: round(v, 3) if isinstance(v, float) else v for k, v in extra.items()})
    if error is not None:
        line["error"] = error
    print(json.dumps(line, separators=(",", ":")), flush=True)


class Server:
    """`okit-run serve app.lua --port 0 --data DIR` with the limits sized for `people` browsers; `port` once it
    printed its "serving … at" line."""

    def __init__(self, okit_run, work, people, log_name="serve.log"):
        self.log = open(os.path.join(work, log_name), "w+")
        limit = str(people + 256)
        self.process = subprocess.Popen(
            [okit_run, "serve", os.path.join(work, "app.lua"), "--port", "0", "--data", os.path.join(work, "data"),
             "--sessions", limit, "--max-connections", limit, "--max-client-connections", limit,
             "--max-streams", limit], stdout=self.log, stderr=self.log)
        deadline = time.time() + 300
        while time.time() < deadline:
            self.log.seek(0)
            m = re.search(r"serving \S+ at http://127\.0\.0\.1:(\d+)/", self.log.read())
            if m:
                self.port = int(m.group(1))
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("okit-run serve did not start: " + self.output()[-500:])

    def output(self):
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        stop_process(self.process)


async def settled_rss(pid):
    """The server's RSS once the connections settled (a moment after the last one opened)."""
    await asyncio.sleep(1.0)
    return rss_kib(pid)


async def viewer_workloads(args, server, work):
    """serve_viewer_kib, serve_push_p99_H, serve_reget_p99_H and (with --viewers) serve_viewers_V_mib."""
    pool = await viewers_for(Target("127.0.0.1", server.port), keep_alive=args.keep_alive)
    pid, max_rss, c = server.process.pid, args.max_rss_mib * 1024, {"client": pool.client}
    deadline = time.time() + args.setup_seconds
    low, high = args.low, args.high
    names = (f"serve_push_p99_{high}{kept(args)}", f"serve_reget_p99_{high}{kept(args)}")
    try:
        stop = await pool.grow(low, pid, max_rss, deadline)
        rss_low = await settled_rss(pid)
        stop = stop or await pool.grow(high, pid, max_rss, deadline)
        rss_high = await settled_rss(pid)
        if stop:
            slope = (rss_high - rss_low) / max(1, pool.count - low)
            emit("serve_viewer_kib", 0, "KiB", error=f"{stop} (slope so far {slope:.1f} KiB per viewer)", **c)
            for w in names:
                emit(w, 0, "ms", error=f"not run: {stop}", **c)
        else:
            emit("serve_viewer_kib", (rss_high - rss_low) / (high - low), "KiB",
                 rss_low_mib=rss_low / 1024, rss_high_mib=rss_high / 1024, viewers=[low, high], **c)
            await push_and_reget(Target("127.0.0.1", server.port), pool, args.rounds, names)
        if args.viewers and args.viewers > high:
            if stop:
                emit(f"serve_viewers_{args.viewers}_mib", 0, "MiB", error=f"not run: {stop}", **c)
                return
            stop = await pool.grow(args.viewers, pid, max_rss, time.time() + args.setup_seconds)
            rss = await settled_rss(pid)
            emit(f"serve_viewers_{args.viewers}_mib", rss / 1024, "MiB", error=stop, **c)
    finally:
        await pool.close()


async def push_and_reget(target, pool, rounds, names):
    """Writes `rounds` + 1 renames (the first a warm-up); after each, every viewer re-GETs /books when its stale
    event arrives, as the page script does. Emits the p99 of stale arrival and of re-GET completion, both from
    the moment the write's POST started."""
    writer, c = Writer(target), {"client": pool.client}
    try:
        await writer.start()
        push, reget, write = [], [], []
        for k in range(rounds + 1):
            problem, pushed, got, wrote = await pool.write(writer, f"Alpha Alpha Alpha push {k}", timeout=60)
            if problem:
                for w in names:
                    emit(w, 0, "ms", error=f"write {k}: {problem}", **c)
                return
            if k > 0:
                push += pushed
                reget += got
                write.append(wrote)
        emit(names[0], p99(push), "ms", median=median(push), samples=len(push), write_median=median(write), **c)
        emit(names[1], p99(reget), "ms", median=median(reget), samples=len(reget), last=max(reget), **c)
    except Exception as e:            # a refused command or a dead server: say so in both lines
        for w in names:
            emit(w, 0, "ms", error=f"{type(e).__name__}: {e}", **c)
    finally:
        writer.close()


async def first_page(target):
    """serve_first_page: one viewer opens the list (not timed, as when others already look at it), then 20 new
    sessions' first GET of /books, each on a new connection: the median in ms."""
    warm = Viewer(target)
    await warm.get("/books")
    times = []
    for _ in range(20):
        t = time.perf_counter()
        page = await Viewer(target).get("/books")
        if page.status != 200:
            raise RuntimeError(f"a new session's /books answered {page.status}")
        times.append((time.perf_counter() - t) * 1000)
    return median(times), warm


def wrk(url, cookie, seconds):
    """Requests/sec of `wrk -t2 -c50 -dNs` with the session cookie; raises when an answer was no 2xx/3xx."""
    if not shutil.which("wrk"):
        raise RuntimeError("wrk is missing: apt-get install -y wrk (scripts/bench installs it)")
    out = subprocess.run(["wrk", "-t2", "-c50", f"-d{seconds}s", "-H", f"Cookie: okit_session={cookie}", url],
                         capture_output=True, text=True).stdout
    if "Non-2xx or 3xx responses" in out:
        raise RuntimeError("wrk got error answers: " + out.strip().splitlines()[-1])
    m = re.search(r"^Requests/sec:\s*([0-9.]+)", out, re.M)
    if not m:
        raise RuntimeError("wrk printed no Requests/sec: " + out[-300:])
    return float(m.group(1))


class StaticNginx:
    """nginx from Debian serving `page` as the static file /books on a free loopback port (WebBench's
    configuration — worker_processes 2, access_log off, sendfile on — with room for 4,096 connections a worker
    and a listen backlog of 4,096, for the re-GET floor's thousand at once). A context manager."""

    def __init__(self, page, work):
        if not os.access("/usr/sbin/nginx", os.X_OK):
            raise RuntimeError("nginx is missing at /usr/sbin/nginx: apt-get install -y nginx (scripts/bench installs it)")
        self.page, self.prefix = page, os.path.join(work, "nginx")

    def __enter__(self):
        p = self.prefix
        for d in ("www", "tmp", "logs"):
            os.makedirs(os.path.join(p, d), exist_ok=True)
        with open(os.path.join(p, "www", "books"), "wb") as f:
            f.write(self.page)
        self.port = free_port()
        temps = "\n".join(f"    {k}_temp_path {p}/tmp/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        conf = (f"daemon off;\nmaster_process on;\nworker_processes 2;\n{'user root;' if os.getuid() == 0 else ''}\n"
                f"pid {p}/nginx.pid;\nerror_log {p}/logs/error.log;\nevents {{ worker_connections 4096; }}\nhttp {{\n"
                f"    access_log off;\n    sendfile on;\n    default_type \"text/html; charset=utf-8\";\n{temps}\n"
                f"    server {{ listen 127.0.0.1:{self.port} backlog=4096; root {p}/www; }}\n}}\n")
        with open(os.path.join(p, "nginx.conf"), "w") as f:
            f.write(conf)
        self.process = subprocess.Popen(["/usr/sbin/nginx", "-p", p + "/", "-c", p + "/nginx.conf", "-e",
                                         p + "/logs/error.log"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while asyncio.run(Viewer(Target("127.0.0.1", self.port)).get("/books", quiet=True)).status != 200:
            if self.process.poll() is not None or time.time() > deadline:
                self.__exit__()
                raise RuntimeError("nginx did not start: " + open(p + "/logs/error.log").read()[-300:])
            time.sleep(0.05)
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait()


def nginx_rps(page, work, seconds):
    """nginx_static_rps_external: `page` served by StaticNginx under the same wrk."""
    with StaticNginx(page, work) as nginx:
        return wrk(f"http://127.0.0.1:{nginx.port}/books", "bench", seconds)


def kept(args):
    """The suffix of the push, re-GET and floor figures measured with kept connections (`--keep-alive`)."""
    return "_kept" if args.keep_alive else ""


def reget_floor(page, work, count, rounds, keep_alive=False):
    """serve_reget_floor_H: what the viewers' client itself takes for the re-GETs — `count` GETs at once of the same
    page served by nginx as a static file, `rounds` times after a warm-up; (99th percentile, median, client)."""
    async def storms(port):
        pool = await viewers_for(Target("127.0.0.1", port), keep_alive=keep_alive)
        try:
            times = []
            for k in range(rounds + 1):
                got = await pool.storm(count)
                if k > 0:
                    times += got
            return times, pool.client
        finally:
            await pool.close()
    with StaticNginx(page, work) as nginx:
        times, client = asyncio.run(storms(nginx.port))
    return p99(times), median(times), client


def page_and_rps(args, work):
    """serve_first_page, serve_rps_external, nginx_static_rps_external and the re-GETs' floor, on a fresh server."""
    server = Server(args.okit_run, work, 64, "serve-rps.log")
    try:
        target = Target("127.0.0.1", server.port)
        try:
            ms, warm = asyncio.run(first_page(target))
            emit("serve_first_page", ms, "ms")
        except Exception as e:
            emit("serve_first_page", 0, "ms", error=str(e))
            return
        page = asyncio.run(warm.get("/books"))
        try:
            emit("serve_rps_external", wrk(f"http://127.0.0.1:{server.port}/books", warm.cookies["okit_session"],
                                           args.rps_seconds), "1/s")
        except Exception as e:
            emit("serve_rps_external", 0, "1/s", error=str(e))
        try:
            emit("nginx_static_rps_external", nginx_rps(page.body, work, args.rps_seconds), "1/s")
        except Exception as e:
            emit("nginx_static_rps_external", 0, "1/s", error=str(e))
        try:
            floor, middle, client = reget_floor(page.body, work, args.high, args.rounds, args.keep_alive)
            emit(f"serve_reget_floor_{args.high}{kept(args)}", floor, "ms", median=middle, client=client)
        except Exception as e:
            emit(f"serve_reget_floor_{args.high}{kept(args)}", 0, "ms", error=str(e))
    finally:
        server.stop()


def options():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("okit_run", help="the okit-run binary (a release build for figures)")
    ap.add_argument("--books", type=int, default=100000)
    ap.add_argument("--low", type=int, default=100, help="viewers at the slope's first RSS reading")
    ap.add_argument("--high", type=int, default=1000, help="viewers at its second, and for the push and re-GETs")
    ap.add_argument("--viewers", type=int, default=0, help="also grow to this many and print serve_viewers_V_mib")
    ap.add_argument("--rounds", type=int, default=5, help="timed writes (after one warm-up)")
    ap.add_argument("--rps-seconds", type=int, default=5)
    ap.add_argument("--setup-seconds", type=int, default=600, help="time allowed for connecting the viewers")
    ap.add_argument("--max-rss-mib", type=int, default=0, help="stop adding viewers past this (default: half of "
                    "the memory available at start)")
    ap.add_argument("--work", help="a folder for the shop, the app and the logs (default: a temporary one)")
    ap.add_argument("--keep-alive", action="store_true", help="each viewer's page GETs over one connection kept "
                    "open between them, as a browser's (and the floor's storm over connections opened before it); "
                    "the push, re-GET and floor figures are named …_kept")
    args = ap.parse_args()
    if not args.max_rss_mib:
        avail = int(re.search(r"MemAvailable:\s*(\d+)", open("/proc/meminfo").read()).group(1))
        args.max_rss_mib = avail // 2048
    return args


def main():
    args = options()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = args.work or tempfile.mkdtemp(prefix="okit-serve-bench-")
    os.makedirs(os.path.join(work, "data", "okit", "data"), exist_ok=True)
    try:
        write_shop(args.books, os.path.join(work, "data", "okit", "data", "default.json"))
        with open(os.path.join(work, "app.lua"), "w") as f:
            f.write(APP)
        try:
            server = Server(args.okit_run, work, max(args.high, args.viewers) + 64)
        except Exception as e:          # nothing to measure: every line says why
            for w, unit in (("serve_viewer_kib", "KiB"), (f"serve_push_p99_{args.high}{kept(args)}", "ms"),
                            (f"serve_reget_p99_{args.high}{kept(args)}", "ms"), ("serve_first_page", "ms"),
                            ("serve_rps_external", "1/s"), ("nginx_static_rps_external", "1/s"),
                            (f"serve_reget_floor_{args.high}{kept(args)}", "ms")):
                emit(w, 0, unit, error=str(e))
            return
        try:
            asyncio.run(viewer_workloads(args, server, work))
        finally:
            server.stop()
        page_and_rps(args, work)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
