"""The viewers of scripts/lib/serve_bench.py: many browser sessions of one server, each holding its `/events`
stream open and GETting its page again after each write, and the storms of GETs that give the client's own floor.
Two clients with one interface (`viewers_for` picks one):

- `NativeViewers` ("c"): scripts/lib/serve_viewers.c, one C thread on epoll, compiled on first use with `cc -O2`
  (or clang — the Swift toolchain carries one at /opt/swift/usr/bin/clang — or gcc) into .build/serve_viewers, and
  again when the .c or its .h is newer. It takes about a quarter of the Python client's CPU per GET (60 µs against
  230 µs, nearly all of it the kernel's work for a new loopback connection and a 42 KB answer), so on the
  benchmark's 2 cores the figures are more the server's and less the client's.
  Set OKIT_SERVE_VIEWERS=python to use the Python client instead.
- `PythonViewers` ("python"): serve_http.py's asyncio `Viewer`s and `Round`, when no C compiler is found.

Both do what serve_http.py's module doc says a viewer does, and time each viewer's stale event and re-GET from the
moment the write's POST started, on CLOCK_MONOTONIC (the C client's clock_gettime, Python's perf_counter and
monotonic_ns)."""
import asyncio, os, shutil, subprocess, time
from serve_http import Viewer, Round, rss_kib

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "serve_viewers.c")
HEADERS = [os.path.join(HERE, h) for h in ("serve_viewers_http.h", "serve_viewers_kept.h")]  # included by the .c
BINARY = os.path.normpath(os.path.join(HERE, "..", "..", ".build", "serve_viewers"))
COMPILERS = ("cc", "clang", "/opt/swift/usr/bin/clang", "gcc")


def native_binary():
    """(path of the compiled C client, None), compiled when missing or older than its source; (None, why) when no
    compiler could build it."""
    if os.path.exists(BINARY) and os.path.getmtime(BINARY) >= max(map(os.path.getmtime, [SOURCE] + HEADERS)):
        return BINARY, None
    os.makedirs(os.path.dirname(BINARY), exist_ok=True)
    partial, problems = f"{BINARY}.{os.getpid()}", []
    for cc in COMPILERS:
        path = shutil.which(cc)
        if not path:
            continue
        done = subprocess.run([path, "-O2", "-Wall", "-Wextra", "-o", partial, SOURCE], capture_output=True, text=True)
        if done.returncode == 0:
            os.replace(partial, BINARY)         # whole or not at all, when two runs compile at once
            return BINARY, None
        problems.append(f"{cc}: {done.stderr.strip()[-300:]}")
    return None, "; ".join(problems) or "no C compiler (cc, clang, gcc)"


async def viewers_for(target, path="/books", keep_alive=False):
    """The C client's viewers of `target` (plain HTTP) when it compiles, else the Python client's (also with
    OKIT_SERVE_VIEWERS=python in the environment, to compare the two). `keep_alive`: each viewer's page GETs go
    over one connection kept open between them, as a browser's do (the C client only)."""
    python = target.ssl or os.environ.get("OKIT_SERVE_VIEWERS") == "python"
    binary, why = (None, "the Python client was asked for") if python else native_binary()
    if binary:
        viewers = NativeViewers(binary, target, path, keep_alive)
        await viewers.start()
        return viewers
    if keep_alive:
        raise RuntimeError(f"kept connections need the C client ({why})")
    return PythonViewers(target, path)


class Viewers:
    """What both clients share: growing in steps of 50 with the server's memory and the time checked between."""
    count = 0

    async def grow(self, count, pid, max_rss_kib, deadline):
        """Adds viewers until there are `count`; returns None, or why it stopped early (a new viewer failed, the
        server's RSS passed `max_rss_kib`, or the `deadline` of time.time() passed)."""
        while self.count < count:
            problem = await self.add(min(count, self.count + 50))
            if problem:
                return f"stopped at {self.count} viewers: {problem}"
            if rss_kib(pid) > max_rss_kib:
                return (f"stopped at {self.count} viewers: the server's RSS {rss_kib(pid) // 1024} MiB passed "
                        f"--max-rss-mib {max_rss_kib // 1024}")
            if time.time() > deadline:
                return f"stopped at {self.count} viewers: the time allowed for connecting them ran out"
        return None


class PythonViewers(Viewers):
    """serve_http.py's coroutines: the fallback without a C compiler."""
    client = "python"

    def __init__(self, target, path):
        self.target, self.path = target, path
        self.viewers, self.round = [], Round()

    @property
    def count(self):
        return len(self.viewers)

    async def add(self, count, parallel=8):
        gate, problem = asyncio.Semaphore(parallel), []

        async def one():
            async with gate:
                if problem:
                    return
                v = Viewer(self.target)
                try:
                    page = await v.get(self.path)
                    if page.status != 200:
                        problem.append(f"a new one's {self.path} answered {page.status}")
                        return
                    await v.open_events(self.round.on_stale)
                    self.viewers.append(v)
                except Exception as e:      # refused, reset, or /events not a stream: the lines say so
                    problem.append(f"a new one failed: {type(e).__name__}: {e}")
        await asyncio.gather(*(one() for _ in range(count - self.count)))
        return problem[0] if problem else None

    async def write(self, writer, name, timeout):
        """`writer` renames its book to `name`; every viewer re-GETs its page on its stale event. (None or what went
        wrong, stale arrivals in ms, re-GETs answered in ms, the write's POST until its answer in ms)."""
        for v in self.viewers:
            v.reget_path = self.path
        problem = await self.round.run(self.viewers, writer, name, timeout)
        if problem:
            return problem, [], [], 0.0
        return None, self.round.push_ms(), self.round.reget_ms(), self.round.write_ms()

    async def storm(self, count):
        """`count` new sessions' GETs of the page started at once; each one's answer in ms after the start."""
        t0 = time.perf_counter()

        async def one():
            page = await Viewer(self.target).get(self.path)
            if page.status != 200:
                raise RuntimeError(f"{self.path} answered {page.status}")
            return (time.perf_counter() - t0) * 1000
        return await asyncio.gather(*(one() for _ in range(count)))

    async def close(self):
        for v in self.viewers:
            v.close()


class NativeViewers(Viewers):
    """One serve_viewers process holding the viewers (its commands and answers: the .c's opening comment)."""
    client = "c"

    def __init__(self, binary, target, path, keep_alive=False):
        self.binary, self.target, self.path, self.keep_alive = binary, target, path, keep_alive
        self.k = 0

    async def start(self):
        host, port = self.target.host, self.target.port
        self.process = await asyncio.create_subprocess_exec(
            self.binary, host, str(port), f"{host}:{port}", self.path, *(["keep-alive"] if self.keep_alive else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, limit=1 << 20)

    async def say(self, line):
        self.process.stdin.write((line + "\n").encode())
        await self.process.stdin.drain()

    async def answer(self, timeout=None):
        """The next line it prints, split in words."""
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"serve_viewers ended (exit status {await self.process.wait()})")
        return line.decode().rstrip("\n").split(" ")

    async def add(self, count):
        await self.say(f"grow {count}")
        words = await self.answer()
        self.count = int(words[1])
        return " ".join(words[2:]) or None

    async def write(self, writer, name, timeout):
        """As PythonViewers.write, the viewers' times taken by the C client and the write's start by `writer`."""
        self.k += 1
        await self.say(f"round {self.k} {int(timeout * 1000)} {name}")
        await self.answer()                     # `armed`: the stale events from now on are this write's
        try:
            answer = await writer.rename(name)
        except BaseException:
            await self.say(f"end {self.k}")
            await self.round_result(30)
            raise
        t0, answered = writer.sent_ns, time.monotonic_ns()
        if answer.status != 303:
            await self.say(f"end {self.k}")
            await self.round_result(30)
            return f"the write answered {answer.status}: {answer.text[:200]}", [], [], 0.0
        arrivals, done, bad = await self.round_result(timeout + 30)
        if len(done) < self.count:
            return (f"after {timeout} s only {len(arrivals)} of {self.count} viewers had the stale event "
                    f"and {len(done)} had their page again"), [], [], 0.0
        if bad:
            return bad, [], [], 0.0
        ms = lambda ts: [(t - t0) / 1e6 for t in ts]
        return None, ms(arrivals), ms(done), (answered - t0) / 1e6

    async def round_result(self, timeout):
        """The round's stale arrivals and re-GET answers (ns), and None or what its bad answers were."""
        arrivals, done, bad = [], [], None
        while True:
            words = await self.answer(timeout)
            if words[0] == "v":
                arrivals.append(int(words[1]))
                if words[2] != "0":
                    done.append(int(words[2]))
            elif words[0] == "bad":
                bad = " ".join(words[1:])
            elif words[0] == "end":
                count = int(words[4])
                return arrivals, done, (f"{count} re-GETs failed, e.g. {bad}" if count else None)

    async def storm(self, count):
        await self.say(f"storm {count}")
        times, statuses = [], []
        while True:
            words = await self.answer(120)
            if words[0] == "stormed":
                break
            times.append(int(words[1]))
            statuses.append(words[2])
        failed = next((s for s in statuses if s != "200"), None)
        if failed:
            raise RuntimeError(f"{self.path} answered {failed}" if failed != "0" else f"a GET of {self.path} got no answer")
        return [(t - int(words[1])) / 1e6 for t in times]

    async def close(self):
        try:
            await self.say("quit")
            await asyncio.wait_for(self.process.wait(), 30)
        except (OSError, asyncio.TimeoutError):
            self.process.kill()
            await self.process.wait()

