#!/usr/bin/env python3
"""The third round of attacks on a real `okit-run serve` of the bookshop (issue 34; web.md "Limits of the server"):
DNS rebinding (another Host, also from a real Chromium whose resolver maps an attacker's name to 127.0.0.1), the
standard `Forwarded` header, anonymous requests that would fill `--sessions`, anonymous 100 MiB uploads that
would be buffered before their checks, slowloris (half-sent requests), and session fixation at login. Each attack is
performed over real sockets, then the server is checked to still serve a new visitor.

Usage: attacks.py OKIT_RUN WORKDIR"""
import os, re, socket, subprocess, sys, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done

from webdriver import Server, Driver, open_browser
from webclient import Client, raw

okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
app = os.path.join(root, "examples/bookshop/app.lua")
os.makedirs(work, exist_ok=True)
servers = []


def serve(name, *extra):
    s = Server(okit_run, app, os.path.join(work, name), extra=list(extra))
    servers.append(s)
    return s, int(s.url.rsplit(":", 1)[1])


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def status_of(answer):
    m = re.match(rb"HTTP/1\.[01] (\d{3})", answer or b"")
    return int(m.group(1)) if m else None


def new_visitor_served(base, what):
    try:
        r = Client(base, timeout=10).get("/books")
        return check(r.status == 200 and "<h1" in r.text, f"a new visitor still gets the books list {what} ({r.status})")
    except OSError as e:
        return check(False, f"a new visitor still gets the books list {what} ({e})")


try:
    server, port = serve("main")
    base = server.url

    # --- DNS rebinding: only the names the server was started for are answered, before any session exists.
    req = lambda host: f"GET /books HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    evil = raw("127.0.0.1", port, req(f"rebind.attacker.example:{port}"))
    check(status_of(evil) in (400, 421) and b"Set-Cookie" not in evil,
          f"a request whose Host is another name answers 421 and makes no session ({status_of(evil)})")
    check(b"Book Shop" not in evil, "and shows nothing of the app")
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        check(status_of(raw("127.0.0.1", port, req(host))) == 200, f"Host {host} is answered")
    no_host = raw("127.0.0.1", port, b"GET /books HTTP/1.0\r\n\r\n")
    check(status_of(no_host) in (400, 421), f"a request without a Host header is refused ({status_of(no_host)})")
    post = raw("127.0.0.1", port, f"POST /command HTTP/1.1\r\nHost: rebind.attacker.example\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               f"Content-Length: 11\r\nConnection: close\r\n\r\ncommand=add".encode())
    check(status_of(post) in (400, 421), f"a POST for another Host is refused too ({status_of(post)})")

    # The same attack from a real browser: Chromium resolves the attacker's name to 127.0.0.1 (as a rebinding DNS
    # server would make it) and loads the page.
    driver = Driver()
    try:
        browser = open_browser(driver, args=["--host-resolver-rules=MAP rebind.attacker.test 127.0.0.1"])
        browser.get(f"http://rebind.attacker.test:{port}/books")
        source = browser.source()
        check("Book Shop" not in source and "does not answer for the name" in source,
              "Chromium on a rebound name gets the refusal, not the app")
        browser.get(f"http://127.0.0.1:{port}/books")
        check("Book Shop" in browser.source(), "and the same Chromium on 127.0.0.1 gets the app")
    finally:
        driver.quit()

    # --- The standard Forwarded header counts as proxied (a token-less server refuses it, like X-Forwarded-For).
    fwd = raw("127.0.0.1", port, f"GET /books HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nForwarded: for=203.0.113.7;proto=https\r\n"
              f"Connection: close\r\n\r\n".encode())
    check(status_of(fwd) == 403 and b"Set-Cookie" not in fwd, f"a request with only Forwarded: is treated as proxied: 403 ({status_of(fwd)})")

    with open(os.path.join(work, "token"), "w") as f:
        f.write("s3cret-token-9\n")

    # --- Session exhaustion: 120 cookie-less requests (pages, 404s, the login page, static files) against --sessions 100.
    capped, cport = serve("capped", "--sessions", "100", "--token-file", os.path.join(work, "token"))
    paths = ["/books", "/no-such-screen", "/login", "/static/okit.css", "/favicon.ico", "/authors"]
    statuses = [Client(capped.url).get(paths[i % len(paths)], follow=False).status for i in range(120)]
    check(statuses.count(503) == 0, f"120 anonymous requests are answered, none with 503 ({sorted(set(statuses))})")
    fresh = Client(capped.url)
    check(fresh.get("/books").status == 200 and fresh.cookie, "a new visitor after them gets a page and a session")
    check(Client(capped.url).get("/login").status == 200, "the owner reaches the login page")
    check(fresh.get("/books").status == 200, "and the new visitor's session keeps working")

    # --- Uploads: four anonymous 100 MiB uploads at once are refused before their bodies are read.
    before = rss_kib(server.process.pid)
    size = 100 << 20
    results = []

    def upload(i):
        head = (f"POST /backups HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\n"
                f"Content-Length: {size}\r\n\r\n").encode()
        chunk = b"--XyZ\r\nContent-Disposition: form-data; name=\"backup\"; filename=\"x.okbackup\"\r\n\r\n" + b"\0" * (1 << 20)
        got = b""
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                s.sendall(head)
                sent = 0
                s.settimeout(0.001)
                while sent < size:
                    part = chunk[: min(len(chunk), size - sent)]
                    try:
                        s.settimeout(30)
                        s.sendall(part)
                    except (BrokenPipeError, ConnectionResetError):
                        break
                    sent += len(part)
                    s.settimeout(0)
                    try:
                        got += s.recv(65536)
                    except (BlockingIOError, socket.timeout):
                        pass
                    if b"\r\n\r\n" in got:
                        break
                s.settimeout(30)
                try:
                    while b"\r\n\r\n" not in got:
                        b = s.recv(65536)
                        if not b:
                            break
                        got += b
                except (ConnectionResetError, socket.timeout):
                    pass
        except OSError:
            pass
        results.append(status_of(got))

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    grown = (rss_kib(server.process.pid) - before) >> 10
    check(all(r == 403 for r in results), f"each anonymous upload is refused with 403 ({results})")
    check(grown < 64, f"the server did not buffer them (it grew by {grown} MiB, four bodies would be 400)")
    leftovers = os.path.join(work, "main", "okit", "backup", ".uploads")
    check(not os.path.isdir(leftovers) or not os.listdir(leftovers), "and nothing of them is left on disk")
    new_visitor_served(base, "after the uploads")

    # --- Slowloris: 300 half-sent requests against a 2-second header timeout.
    slow, sport = serve("slow", "--header-timeout", "2", "--idle-timeout", "4")
    held = []
    for i in range(300):
        try:
            s = socket.create_connection(("127.0.0.1", sport), timeout=5)
            s.sendall(f"GET /books HTTP/1.1\r\nHost: 127.0.0.1:{sport}\r\nX-Slow-{i}: ".encode())
            held.append(s)
        except OSError:
            break
    check(len(held) >= 100, f"{len(held)} half-sent requests were opened")
    new_visitor_served(slow.url, "while 300 half-sent requests are held")
    time.sleep(3.5)
    closed = 0
    for s in held:
        s.settimeout(2)
        try:
            closed += s.recv(1024) == b""
        except (ConnectionResetError, BrokenPipeError):
            closed += 1
        except socket.timeout:
            pass
        s.close()
    check(closed == len(held), f"the server closed every half-sent request after the header timeout ({closed} of {len(held)})")
    idle = socket.create_connection(("127.0.0.1", sport), timeout=10)
    idle.sendall(f"GET /static/okit.css HTTP/1.1\r\nHost: 127.0.0.1:{sport}\r\n\r\n".encode())
    first = idle.recv(65536)
    time.sleep(5)
    try:
        rest = b""
        while True:
            b = idle.recv(65536)
            if not b:
                break
            rest += b
        gone = True
    except (ConnectionResetError, socket.timeout):
        gone = False
    check(status_of(first) == 200 and gone, "a keep-alive connection left idle is closed after the idle timeout")
    new_visitor_served(slow.url, "after the slowloris")

    # --- One address, many people (a proxy): without --trusted-proxy an address holds at most
    # --max-client-connections (the one idle the longest makes room); a trusted proxy's connections count only in
    # --max-connections, so a deployment behind nginx is not capped at 4 people's requests.
    def idle_connections(port, count):
        held = []
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(f"GET /static/okit.css HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            s.recv(65536)
            held.append(s)
            time.sleep(0.02)
        time.sleep(0.5)
        open_now = 0
        for s in held:
            s.settimeout(0.3)
            try:
                open_now += s.recv(1024) != b""
            except socket.timeout:
                open_now += 1
            except (ConnectionResetError, BrokenPipeError):
                pass
            s.close()
        return open_now
    one, oport = serve("one-address", "--max-client-connections", "4")
    n = idle_connections(oport, 12)
    check(n == 4, f"one address holds at most --max-client-connections 4 connections ({n} of 12 stayed open)")
    proxied, pport = serve("proxied", "--max-client-connections", "4", "--trusted-proxy", "127.0.0.1")
    n = idle_connections(pport, 12)
    check(n == 12, f"a --trusted-proxy address is not capped per client ({n} of 12 stayed open)")
    bad = subprocess.run([okit_run, "serve", app, "--trusted-proxy", "nginx.local"], capture_output=True, text=True, timeout=60)
    check(bad.returncode != 0 and "--trusted-proxy nginx.local is not an IP address" in bad.stderr,
          f"--trusted-proxy with a name is refused with a clear message ({bad.returncode}: {bad.stderr.strip()[-160:]})")

    # --- Session fixation: logging in issues a new session id and drops the old one.
    token_file = os.path.join(work, "token")
    guarded, gport = serve("guarded", "--token-file", token_file)
    v = Client(guarded.url)
    v.get("/books")
    old = v.cookie
    login = v.get("/login")
    form = login.forms()[0]
    r = v.post("/login", form.post_fields(token="s3cret-token-9"), follow=False)
    check(r.status == 303 and v.cookie and v.cookie != old, f"logging in sets a new session id ({r.status})")
    attacker = Client(guarded.url)
    attacker.cookie = old
    attacker.get("/books")
    check(attacker.cookie != old, "the pre-login id no longer names a session (it gets a new one)")
finally:
    codes = [s.stop() for s in servers]
check(all(c == 143 for c in codes), f"every server stops at SIGTERM with 143 ({codes})")
done(lambda: [print(s.output()[-1500:]) for s in servers])
