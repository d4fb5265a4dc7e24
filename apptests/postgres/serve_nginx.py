#!/usr/bin/env python3
"""docs/scale.md's setup, run: a PostgreSQL cluster, two `okit-run serve` processes over ONE shared model
(apptests/postgres/serve_shop.lua, storage = "postgres"), each with its own data folder, and nginx from Debian in
front of them with the ```nginx block of docs/scale.md (TLS, sticky sessions by nginx's routing cookie, Server-Sent
Events passed as they come, failover). Headless Chromium sessions on each process see each other's changes live,
without a reload; the changes are in PostgreSQL; a process killed with SIGKILL leaves the other serving through
nginx with the data intact, and the killed one comes back and catches up.

Usage: serve_nginx.py OKIT_RUN WORKDIR"""
import os, re, signal, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "web", "lib"))
from tap import check, done
from webdriver import Driver, free_port, open_browser
import nginx
from webclient import Client, insecure_context

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
root = os.path.abspath(os.path.join(here, "..", ".."))
app = os.path.join(here, "serve_shop.lua")
os.makedirs(work, exist_ok=True)
TOKEN = "scale-token-5d2b8e"
DEADLINE = 20          # seconds any wait may take before it counts as a failure (never a measured duration)


# --- The PostgreSQL cluster ----------------------------------------------------------------------------------------
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster


def start_cluster(work):
    """A throwaway PostgreSQL cluster (apptests/lib/pgcluster.py) with an empty database `shop`. Returns (url, stop)."""
    cluster = pgcluster.start()
    return cluster.new_database("shop"), cluster.stop


def psql(url, sql):
    m = re.match(r"postgres://([^@]+)@([^:]+):(\d+)/(.+)", url)
    r = subprocess.run(["psql", "-h", m.group(2), "-p", m.group(3), "-U", m.group(1), "-d", m.group(4), "-qAtc", sql],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "psql failed: " + r.stderr.strip()
    return r.stdout.strip()


# --- okit-run serve ------------------------------------------------------------------------------------------------

class Serve:
    """`okit-run serve serve_shop.lua --port PORT --data DIR --token-file F` with OKIT_DATABASE_URL; `started()`
    waits for its "serving" line."""

    def __init__(self, name, port, url, token_file):
        self.name, self.port, self.url_db, self.token_file = name, port, url, token_file
        self.data = os.path.join(work, name + "-data")
        self.log = open(os.path.join(work, name + ".log"), "a+")
        self.start()

    def start(self):
        e = dict(os.environ, OKIT_DATABASE_URL=self.url_db)
        self.log.write(f"--- started {time.strftime('%H:%M:%S')}\n")
        self.log.flush()
        self.mark = self.log.tell()
        self.process = subprocess.Popen([okit_run, "serve", app, "--port", str(self.port), "--data", self.data,
                                         "--token-file", self.token_file], stdout=self.log, stderr=self.log, env=e)

    def started(self):
        deadline = time.time() + 60
        while time.time() < deadline:
            self.log.seek(self.mark)
            m = re.search(r"serving \S+ at (http://[^ ]+/)", self.log.read())
            if m:
                self.url = m.group(1).rstrip("/")
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is not None:
            return self.process.returncode
        self.process.send_signal(sig)
        try:
            return self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def output(self):
        self.log.seek(0)
        return self.log.read()


# --- nginx with docs/scale.md's configuration ----------------------------------------------------------------------

def make_certificate():
    return nginx.make_certificate(work)


class Nginx(nginx.Nginx):
    """nginx in the foreground on a free loopback port with the documented configuration: its two upstream servers
    become the two serve processes, its certificate the test's own. The test's own `http` block around it adds an
    access log of each request's routing value and upstream (so the test can tell which process answered)."""

    def __init__(self, ports, cert, key):
        prefix = os.path.join(work, "nginx")
        block = nginx.documented_block("scale.md")
        self.access = os.path.join(prefix, "access.log")

        def server(port):
            config = (block.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
                      .replace("server_name books.example.org;", "server_name 127.0.0.1;")
                      .replace("/etc/ssl/certs/books.pem", cert).replace("/etc/ssl/private/books.key", key)
                      .replace("server 10.0.0.11:8480", f"server 127.0.0.1:{ports[0]}")
                      .replace("server 10.0.0.12:8480", f"server 127.0.0.1:{ports[1]}"))
            assert f"127.0.0.1:{ports[0]} " in config and f"127.0.0.1:{ports[1]} " in config and cert in config, config
            return config
        super().__init__(prefix, server, free_port, http_lines=(
            "    log_format routed '$okit_route $upstream_addr $status \"$request\"';",
            f"    access_log {self.access} routed;"))

    def routed(self):
        """(routing value, the upstream that answered last, status, request line) per logged request."""
        out = []
        try:
            lines = open(self.access).read().splitlines()
        except OSError:
            return out
        for line in lines:
            m = re.match(r'(\S+) (.+?) (\d{3}) "(.*)"$', line)
            if m:
                out.append((m.group(1), m.group(2).split(",")[-1].strip(), int(m.group(3)), m.group(4)))
        return out

    def upstreams_of(self, route):
        return [u for r, u, _, _ in self.routed() if r == route]


class Visitor(Client):
    """A plain HTTP client through nginx that keeps nginx's routing cookie as well as okit's session cookie."""

    def __init__(self, base, route=None):
        super().__init__(base, context=insecure_context())
        self.route = route

    def request(self, method, path, body=None, headers=None, follow=False):
        cookies = [f"okit_route={self.route}"] if self.route else []
        if self.cookie:
            cookies.append(self.cookie_name + "=" + self.cookie)     # __Host-okit_session behind nginx's TLS
        if self.login_cookie:
            cookies.append(self.login_cookie)                         # the login form's token is tied to it
        h = dict(headers or {})
        if cookies:
            h["Cookie"] = "; ".join(cookies)
        saved, self.cookie = self.cookie, None        # the base class would set Cookie itself
        try:
            answer = super().request(method, path, body=body, headers=h, follow=False)
        finally:
            if self.cookie is None:
                self.cookie = saved
        for v in answer.all("Set-Cookie"):
            if v.startswith("okit_route="):
                self.route = v.split(";", 1)[0].split("=", 1)[1]
        if follow and answer.status in (301, 302, 303) and answer.header("Location"):
            return self.request("GET", answer.header("Location"), follow=True)
        return answer

    def login(self):
        form = self.get("/login").forms()[0]
        return self.post(form.action, form.post_fields(token=TOKEN), follow=True)


# --- Browser helpers -----------------------------------------------------------------------------------------------

def rows(b):
    return b.texts("main .okit-row .okit-text")


def seen(b, condition, timeout=DEADLINE):
    """Polls the page until `condition()` holds; False after the deadline (no duration is asserted)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if condition():
                return True
        except (AssertionError, RuntimeError):
            pass
        time.sleep(0.1)
    return False


def pin_route(b, base, route):
    """Gives the browser nginx's routing cookie `route` (as nginx would have on its first visit): it then reaches
    the process that value hashes to. A first request to a static file sets the origin without a session."""
    b.get(base + "/static/okit.css")
    b._("POST", "/cookie", {"cookie": {"name": "okit_route", "value": route, "path": "/", "secure": True,
                                       "httpOnly": True, "sameSite": "Strict"}})


def browser_login(b, base):
    b.get(base + "/")
    if not seen(b, lambda: b.url().endswith("/login")):
        return False
    b.find("input[type=password][name=token]").type(TOKEN)
    b.find("form[action='/login'] button[type=submit]").click()
    return seen(b, lambda: b.find("h1").text() == "Books")


def add_book(b, name):
    b.find("button[aria-label=Add]").click()
    b.find("dialog[open] input[name=fields]").type(name)
    b.find("dialog[open] button[name=action]").click()
    return seen(b, lambda: name in rows(b))


def rename(b, base, old, new):
    """Opens `old`'s detail screen, turns on edit mode and types the new name; then the list again."""
    link = next((a for a in b.all("main a[href*='/book~']") if a.text().startswith(old)), None)
    if link is None:
        return False
    link.click()
    if not seen(b, lambda: "/book~" in b.url() and b.find("h1").text() == old):
        return False
    b.find("button.okit-edit").click()
    field = b.find("main input[type=text][name=value]:not([disabled])", timeout=10)
    # Emptied as a person selects the text: WebDriver's clear sends a change event, which saves the empty name.
    b.script("document.querySelector('main input[type=text][name=value]:not([disabled])').value = ''")
    field.type(new + "\ue007")
    ok = seen(b, lambda: b.find("h1").text() == new)
    b.get(base + "/books")
    return ok and seen(b, lambda: new in rows(b))


# --- The test ------------------------------------------------------------------------------------------------------

url, stop_cluster = start_cluster(work)
token_file = os.path.join(work, "token")
with open(token_file, "w") as f:
    f.write(TOKEN + "\n")
os.chmod(token_file, 0o600)
cert, key = make_certificate()
serves, proxy, driver = [], None, None


def port_pair():
    a = free_port()
    b = free_port()
    while b == a:
        b = free_port()
    return a, b


try:
    # Two serve processes started at the same time on an empty database: the seed runs once.
    pa, pb = port_pair()
    A = Serve("a", pa, url, token_file)
    B = Serve("b", pb, url, token_file)
    serves += [A, B]
    check(A.started() and B.started(), "two okit-run serve processes start at once over one empty PostgreSQL database")
    check(psql(url, "SELECT name FROM \"Book\" WHERE okit_model = 'default' ORDER BY name") == "Dune\nEmma",
          "the seed ran once: the database holds the two seeded books once")
    check(psql(url, "SELECT model, type FROM okit_models") == "default|Shop", "and one okit_models row for the shop")

    proxy = Nginx((pa, pb), cert, key)
    upstream = {f"127.0.0.1:{pa}": "a", f"127.0.0.1:{pb}": "b"}

    # nginx's routing cookie: given on the first visit, then kept; every request of that visitor to one process.
    v = Visitor(proxy.url)
    r = v.get("/", follow=False)
    route_cookie = next((c for c in r.all("Set-Cookie") if c.startswith("okit_route=")), "")
    attrs = [x.strip().lower() for x in route_cookie.split(";")[1:]]
    check(r.status in (302, 303) and r.header("Location") == "/login",
          f"through nginx the first visit is sent to /login ({r.status} {r.header('Location')})")
    check(re.fullmatch(r"okit_route=[0-9a-f]{32}", route_cookie.split(";")[0]) is not None
          and {"httponly", "secure", "samesite=strict"} <= set(attrs),
          f"nginx gives the browser a routing cookie of its own: {route_cookie!r}")
    page = v.login()
    check(page.status == 200 and "<h1" in page.text and "Dune" in page.text, f"the visitor logs in through nginx ({page.status})")
    for _ in range(5):
        v.get("/books")
    again = v.get("/books")
    check(not any(c.startswith("okit_route=") for c in again.all("Set-Cookie")), "a browser that has the cookie gets no new one")
    used = set(proxy.upstreams_of(v.route))
    check(len(used) == 1 and used <= set(upstream), f"every request of that visitor reached the same process ({used})")

    # Which routing values reach which process (the hash over the two upstreams): static files make no session.
    probe = {}
    for k in range(64):
        value = f"probe{k:02d}"
        Visitor(proxy.url, route=value).get("/static/okit.css")
        got = proxy.upstreams_of(value)
        if got:
            probe.setdefault(upstream.get(got[-1]), value)
        if "a" in probe and "b" in probe:
            break
    check("a" in probe and "b" in probe, f"routing cookies spread browsers over both processes ({probe})")
    route_a, route_b = probe.get("a", "probe00"), probe.get("b", "probe01")

    # Two headless Chromium sessions through nginx, one pinned to each process (by the routing value nginx
    # would have given), both logged in, both on the books list.
    driver = Driver()
    s1 = open_browser(driver, args=["--ignore-certificate-errors"])
    s2 = open_browser(driver, args=["--ignore-certificate-errors"])
    pin_route(s1, proxy.url, route_a)
    pin_route(s2, proxy.url, route_b)
    check(browser_login(s1, proxy.url) and browser_login(s2, proxy.url), "each browser logs in through nginx")
    check(set(proxy.upstreams_of(route_a)) == {f"127.0.0.1:{pa}"} and set(proxy.upstreams_of(route_b)) == {f"127.0.0.1:{pb}"},
          "browser 1's requests all reach process a, browser 2's all process b")
    check(sorted(rows(s1)) == ["Dune", "Emma"] and sorted(rows(s2)) == ["Dune", "Emma"], "both show the seeded books")
    s1.script("window.okitMarker = 1")

    # A book added on process b appears in browser 1's open page (process a) without a reload.
    check(add_book(s2, "Added On B"), "browser 2 adds a book (process b)")
    s2.script("window.okitMarker = 2")
    check(seen(s1, lambda: "Added On B" in rows(s1)), "browser 1 (process a) shows it without a click")
    check(s1.script("return window.okitMarker") == 1, "without a reload: pushed over its event stream through nginx")
    check(psql(url, "SELECT count(*) FROM \"Book\" WHERE okit_model = 'default' AND name = 'Added On B'") == "1",
          "the book is in PostgreSQL")

    # A book renamed on process a appears in browser 2's open list (process b) without a reload.
    check(rename(s1, proxy.url, "Dune", "Dune Messiah"), "browser 1 renames Dune in its detail screen (process a)")
    check(seen(s2, lambda: "Dune Messiah" in rows(s2) and "Dune" not in rows(s2)), "browser 2 (process b) shows the new name without a click")
    check(s2.script("return window.okitMarker") == 2, "without a reload")
    check(psql(url, "SELECT name FROM \"Book\" WHERE okit_model = 'default' AND id = 'dune'") == "Dune Messiah",
          "the new name is in PostgreSQL")

    # Process a dies (SIGKILL). Everything goes on through nginx on process b; nothing is lost.
    books_before = psql(url, "SELECT id, name, count FROM \"Book\" WHERE okit_model = 'default' ORDER BY id")
    A.stop(signal.SIGKILL)
    check(A.process.returncode == -signal.SIGKILL, "process a is killed with SIGKILL")
    w = Visitor(proxy.url, route=route_a)
    r = w.get("/login")
    check(r.status == 200 and 'name="token"' in r.text, f"a visitor whose cookie pointed at process a gets the login page from process b ({r.status})")
    # nginx writes a request's log line after its answer: wait for it.
    deadline = time.time() + DEADLINE
    while time.time() < deadline and (proxy.upstreams_of(route_a) or [""])[-1] != f"127.0.0.1:{pb}":
        time.sleep(0.05)
    check((proxy.upstreams_of(route_a) or [""])[-1] == f"127.0.0.1:{pb}",
          f"nginx failed over to process b (the last upstreams of that cookie: {proxy.upstreams_of(route_a)[-3:]})")
    check(any(u == f"127.0.0.1:{pa}" and "/events" in req for r, u, _, req in proxy.routed() if r == route_a),
          "browser 1's live-update stream had gone through nginx to process a (it ended with the process)")
    page = w.login()
    check(page.status == 200 and "Dune Messiah" in page.text and "Added On B" in page.text and "Emma" in page.text,
          "after logging in there, every book is there (the data is intact)")
    s1.refresh()
    check(seen(s1, lambda: s1.url().endswith("/login")), "browser 1 reloads: its session was process a's, so it logs in again on process b")
    check(browser_login(s1, proxy.url), "browser 1 logs in through nginx (now on process b)")
    check(sorted(rows(s1)) == ["Added On B", "Dune Messiah", "Emma"], f"and sees every book ({sorted(rows(s1))})")
    check(s2.script("return window.okitMarker") == 2 and sorted(rows(s2)) == ["Added On B", "Dune Messiah", "Emma"],
          "browser 2 (process b) noticed nothing")
    s1.script("window.okitMarker = 12")
    check(add_book(s2, "After The Kill"), "browser 2 adds another book")
    s2.script("window.okitMarker = 22")
    check(seen(s1, lambda: "After The Kill" in rows(s1)) and s1.script("return window.okitMarker") == 12,
          "browser 1, now on process b too, shows it without a reload")
    check(psql(url, "SELECT id, name, count FROM \"Book\" WHERE okit_model = 'default' AND name <> 'After The Kill' ORDER BY id") == books_before,
          "PostgreSQL holds every book stored before the kill, unchanged")

    # Process a comes back on its port with its data folder: it loads the shared model and catches up.
    A.start()
    check(A.started(), "process a starts again")
    direct = Client(A.url)
    listing = direct.get("/books")
    check(listing.status == 200 and all(n in listing.text for n in ("After The Kill", "Dune Messiah", "Added On B", "Emma")),
          "it shows every book, the ones stored while it was dead too")
    r = direct.add_book("Back On A")
    check(r.status == 200 and "Back On A" in r.text, "a book added on process a again")
    check(seen(s2, lambda: "Back On A" in rows(s2)) and s2.script("return window.okitMarker") == 22,
          "browser 2 (process b) shows it without a reload")
    check(psql(url, "SELECT count(*) FROM \"Book\" WHERE okit_model = 'default'") == "5", "PostgreSQL holds the five books")
finally:
    if driver:
        try:
            driver.quit()
        except Exception:
            pass
    if proxy:
        proxy.stop()
    codes = [s.stop() for s in serves]
    stop_cluster()

check(codes == [143, 143], f"SIGTERM: both serve processes exit 143 ({codes})")
if proxy and "route_b" in globals():
    check(any(u == f"127.0.0.1:{pb}" and "/events" in req for r, u, _, req in proxy.routed() if r == route_b),
          "browser 2's live-update stream went through nginx to process b")


def show_logs():
    if proxy:
        print(proxy.errors()[-1500:])
    for s in serves:
        print(f"--- {s.name}:\n" + s.output()[-2500:])


done(show_logs)
