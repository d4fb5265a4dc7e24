"""Many browsers against `okit-run serve`, over real HTTP(S) with asyncio sockets (Python's standard library only),
for scripts/lib/serve_bench.py and apptests/postgres/deployment_load.py.

- `Viewer`: one browser: its cookies (okit's session, nginx's routing cookie), GETs on a new connection each
  (`Connection: close`), its `/events` stream held open; on each `event: stale` it re-GETs its page as the page
  script does (one fetch at a time, once more if another event came meanwhile).
- `Writer`: a browser on a book's detail screen in edit mode that renames the book with the `set` command the
  page posts (its CSRF token and version from the page, as the form carries them).
- `Round`: one write seen by every viewer: when each one's stale event arrived and when its re-GET answered,
  from the moment the write's POST started (serve pushes the stale events before it writes the POST's answer,
  so timing from the answer would read 0 for most viewers).

serve_viewers.c is the same viewer in C, for many of them at a small part of this client's CPU (serve_viewers.py)."""
import asyncio, math, re, signal, socket, ssl, subprocess, time, urllib.parse

STALE = b"event: stale"


def now():
    return time.perf_counter()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(process, seconds=30):
    """SIGTERM (okit-run serve stores and exits), then SIGKILL when it has not ended within `seconds`."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


def rss_kib(pid):
    """The process's resident memory (VmRSS of /proc/PID/status) in KiB; 0 when it is gone."""
    try:
        return int(re.search(r"VmRSS:\s*(\d+)", open(f"/proc/{pid}/status").read()).group(1))
    except (OSError, AttributeError):
        return 0


def p99(xs):
    s = sorted(xs)
    return s[min(len(s) - 1, math.ceil(len(s) * 0.99) - 1)] if s else 0.0


def median(xs):
    return sorted(xs)[len(xs) // 2] if xs else 0.0


class Target:
    """Where the browsers connect: plain HTTP, or TLS without checking the certificate (a test's own)."""

    def __init__(self, host, port, tls=False):
        self.host, self.port = host, port
        self.ssl = ssl._create_unverified_context() if tls else None

    async def connect(self):
        return await asyncio.open_connection(self.host, self.port, ssl=self.ssl,
                                             server_hostname=self.host if self.ssl else None)


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.text = body.decode("utf-8", errors="replace")

    def header(self, name):
        return next((v for n, v in self.headers if n.lower() == name.lower()), None)

    def data(self, name):
        """A `data-NAME` attribute of the page's <body> (csrf, version, location, events)."""
        m = re.search(r'<body[^>]*\sdata-' + name + r'="([^"]*)"', self.text)
        return m.group(1) if m else None


def _unchunk(body):
    out, i = bytearray(), 0
    while i < len(body):
        j = body.index(b"\r\n", i)
        size = int(body[i:j].split(b";")[0], 16)
        if size == 0:
            break
        out += body[j + 2:j + 2 + size]
        i = j + 2 + size + 2
    return bytes(out)


def _head(raw):
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = [tuple(x.strip() for x in line.split(":", 1)) for line in lines[1:] if ":" in line]
    return status, headers


class Viewer:
    """One browser session (see the module's doc)."""

    def __init__(self, target):
        self.target = target
        self.cookies = {}
        self.stream = None              # the /events connection's writer
        self.reader_task = None
        self.refresh_task = None
        self.reget_path = None          # set: each stale event re-GETs this page
        self.fetching = self.again = False
        self.seen = -1                  # the last Round whose stale event this viewer counted
        self.on_stale = None

    def _request(self, method, path, body=b"", extra=()):
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.target.host}:{self.target.port}",
                "Accept: text/html", "Connection: close", *extra]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        return ("\r\n".join(head) + "\r\n\r\n").encode() + body

    def _take_cookies(self, headers):
        for n, v in headers:
            if n.lower() == "set-cookie":
                name, _, value = v.split(";", 1)[0].partition("=")
                if value:
                    self.cookies[name.strip()] = value.strip()

    async def request(self, method, path, fields=None, quiet=False):
        """One request on a new connection; the answer (status 0 with the error as its text when `quiet` and
        the connection failed)."""
        body = urllib.parse.urlencode(fields or []).encode()
        self.sent, self.sent_ns = now(), time.monotonic_ns()    # the second on the C viewers' clock
        try:
            reader, writer = await self.target.connect()
        except OSError as e:
            if quiet:
                return Answer(0, [], str(e).encode())
            raise
        try:
            writer.write(self._request(method, path, body))
            await writer.drain()
            raw = await reader.read(-1)
        finally:
            writer.close()
        head, _, rest = raw.partition(b"\r\n\r\n")
        if not head:
            return Answer(0, [], b"the connection closed without an answer")
        status, headers = _head(head)
        self._take_cookies(headers)
        if any(n.lower() == "transfer-encoding" and "chunked" in v.lower() for n, v in headers):
            rest = _unchunk(rest)
        return Answer(status, headers, rest)

    async def get(self, path, quiet=False):
        return await self.request("GET", path, quiet=quiet)

    async def post(self, path, fields):
        return await self.request("POST", path, fields)

    async def login(self, token):
        """Logs in on the login page's form (behind a proxy serve asks every browser for the token)."""
        page = await self.get("/login")
        fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text)
        return await self.post("/login", fields + [("token", token)])

    async def open_events(self, on_stale):
        """Opens /events and reads it until closed; `on_stale(viewer, time)` for each `event: stale`."""
        self.on_stale = on_stale
        reader, self.stream = await self.target.connect()
        self.stream.write(self._request("GET", "/events", extra=("Accept: text/event-stream",)))
        await self.stream.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status, headers = _head(head[:-4])
        if status != 200:
            raise RuntimeError(f"/events answered {status}")
        self.reader_task = asyncio.ensure_future(self._read_events(reader))

    async def _read_events(self, reader):
        tail = b""
        while True:
            data = await reader.read(65536)
            if not data:
                return
            buf = tail + data
            for _ in range(buf.count(STALE)):
                t = now()
                if self.on_stale:
                    self.on_stale(self, t)
                if self.reget_path:
                    self.refresh()
            tail = buf[-(len(STALE) - 1):]

    def refresh(self):
        """As the page script's `refresh`: one GET at a time, once more when an event came meanwhile."""
        if self.fetching:
            self.again = True
            return
        self.fetching = True
        self.refresh_task = asyncio.ensure_future(self._refresh())     # held: asyncio keeps only weak references

    async def _refresh(self):
        try:
            while True:
                self.again = False
                try:
                    page = await self.get(self.reget_path, quiet=True)
                except Exception as e:          # a reset connection: counted as a failed re-GET
                    page = Answer(0, [], repr(e).encode())
                if self.page_seen:
                    self.page_seen(self, page, now())
                if not self.again:
                    return
        finally:
            self.fetching = False

    page_seen = None

    def close(self):
        for task in (self.reader_task, self.refresh_task):
            if task:
                task.cancel()
        if self.stream:
            self.stream.close()


class Writer(Viewer):
    """A browser in edit mode on the detail screen of a book the list shows (the first, or the `nth`)."""

    async def start(self, login_token=None, nth=0):
        if login_token:
            r = await self.login(login_token)
            if r.status != 303:
                raise RuntimeError(f"the writer's login answered {r.status}")
        page = await self.get("/books")
        links = list(dict.fromkeys(re.findall(r'href="(/books/book~[^"]+)"', page.text)))
        if page.status != 200 or len(links) <= nth:
            raise RuntimeError(f"the books page answered {page.status} without {nth + 1} book links")
        self.book = links[nth]
        r = await self.command([("command", "edit"), ("on", "true")])
        if r.status != 303:
            raise RuntimeError(f"edit on {self.book} answered {r.status}")

    async def command(self, fields):
        """Posts a command from the book's page with its hidden fields (csrf, v, at), as its forms do."""
        page = await self.get(self.book)
        if page.status != 200:
            raise RuntimeError(f"{self.book} answered {page.status}")
        hidden = [("csrf", page.data("csrf")), ("v", page.data("version")), ("at", self.book)]
        return await self.post("/command", hidden + fields)

    async def rename(self, name):
        return await self.command([("command", "set"), ("cell", "1"), ("value", name)])


class Round:
    """One write and what every viewer saw of it (see the module's doc). Give `on_stale` to the viewers' streams
    and set their `page_seen` to `page_seen`."""

    def __init__(self):
        self.k, self.active = 0, False
        self.arrivals, self.done, self.bad = {}, {}, []

    def on_stale(self, viewer, t):
        if self.active and viewer.seen != self.k:
            viewer.seen = self.k
            self.arrivals[viewer] = t

    def page_seen(self, viewer, page, t):
        if not self.active or viewer.seen != self.k or viewer in self.done:
            return
        if page.status != 200 or self.name not in page.text:
            self.bad.append(f"{page.status}: " + ("without the new name" if page.status == 200 else page.text[:200]))
        self.done[viewer] = t
        if len(self.done) >= self.expected:
            self.finished.set()

    async def run(self, viewers, writer, name, timeout):
        """`writer` renames its book to `name`; waits until every viewer's re-GET answered. The round's clock
        starts when the writer's POST started (its connection opening). Returns None, or what went wrong."""
        self.k += 1
        self.name, self.expected = name, len(viewers)
        self.arrivals, self.done, self.bad = {}, {}, []
        self.finished = asyncio.Event()
        for v in viewers:
            v.page_seen = self.page_seen
        self.active = True
        try:
            answer = await writer.rename(name)
            self.t0, self.answered = writer.sent, now()
            if answer.status != 303:
                return f"the write answered {answer.status}: {answer.text[:200]}"
            try:
                await asyncio.wait_for(self.finished.wait(), timeout)
            except asyncio.TimeoutError:
                return (f"after {timeout} s only {len(self.arrivals)} of {self.expected} viewers had the stale event "
                        f"and {len(self.done)} had their page again")
            if self.bad:
                return f"{len(self.bad)} re-GETs failed, e.g. {self.bad[0]}"
            return None
        finally:
            self.active = False

    def write_ms(self):
        """The write's POST until its answer (the 303), in ms."""
        return (self.answered - self.t0) * 1000

    def push_ms(self):
        """Each viewer's stale event, in ms after the write's POST started."""
        return [(t - self.t0) * 1000 for t in self.arrivals.values()]

    def reget_ms(self):
        """Each viewer's re-GET answered (its whole body read), in ms after the write's POST started."""
        return [(t - self.t0) * 1000 for t in self.done.values()]
