#!/usr/bin/env python3
"""`okit-run serve` behind nginx from Debian as a TLS reverse proxy (web.md "TLS with nginx in front", spec web.md
"Security"): nginx runs the documented `server` block with a self-signed certificate the test makes. Without
`--token-file` serve refuses proxied requests (403); with it everyone logs in through the proxy, the session cookie
is `Secure; HttpOnly; SameSite=Strict`, a wrong token is refused, the books answer through TLS, Server-Sent Events
pass the proxy as they come, and headless Chromium logs in through the proxy with the form.

Usage: proxy_tls.py OKIT_RUN WORKDIR"""
import os, re, socket, ssl, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server, free_port, open_browser
import nginx
from webclient import Client

okit_run, work = sys.argv[1], os.path.abspath(sys.argv[2])
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
app = os.path.join(root, "examples/bookshop/app.lua")
os.makedirs(work, exist_ok=True)
TOKEN = "proxy-token-7c1e9a"




def make_certificate():
    return nginx.make_certificate(work)


class Nginx(nginx.Nginx):
    """docs/web.md's server block in front of `upstream`, its folder under WORKDIR."""

    def __init__(self, name, upstream_port, cert, key):
        block = nginx.documented_block("web.md")

        def server(port):
            text = (block.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
                    .replace("server_name books.example.org;", "server_name 127.0.0.1;")
                    .replace("/etc/ssl/certs/books.pem", cert).replace("/etc/ssl/private/books.key", key)
                    .replace("http://127.0.0.1:8480", f"http://127.0.0.1:{upstream_port}"))
            assert f"127.0.0.1:{port} ssl" in text and f":{upstream_port}" in text and cert in text, text
            return text
        super().__init__(os.path.join(work, name), server, free_port)


def port_of(server):
    return int(server.url.rsplit(":", 1)[1])


def login(client):
    """The login form through the proxy with the right token; returns the page after it (followed)."""
    form = client.get("/login").forms()[0]
    return client.post(form.action, form.post_fields(token=TOKEN), follow=True)


cert, key = make_certificate()
trusting = ssl.create_default_context(cafile=cert)          # trusts the test's own certificate, and checks the name
servers, proxies = [], []
try:
    # 1. Without --token-file serve refuses what comes through the proxy.
    open_server = Server(okit_run, app, os.path.join(work, "open-data"))
    servers.append(open_server)
    p1 = Nginx("nginx-open", port_of(open_server), cert, key)
    proxies.append(p1)
    c = Client(p1.url, context=trusting)
    r = c.get("/", follow=False)
    check(r.status == 403 and "<h1>" in r.text, f"without --token-file a request through the proxy answers 403 ({r.status})")
    r = c.get("/books", follow=False)
    check(r.status == 403, f"so does any page ({r.status})")
    check(Client(open_server.url).get("/books").status == 200, "the same server answers 200 on loopback without the proxy")

    # 2. With --token-file everyone logs in through the proxy.
    token_file = os.path.join(work, "token")
    with open(token_file, "w") as f:
        f.write(TOKEN + "\n")
    os.chmod(token_file, 0o600)
    server = Server(okit_run, app, os.path.join(work, "data"), extra=["--token-file", token_file])
    servers.append(server)
    proxy = Nginx("nginx", port_of(server), cert, key)
    proxies.append(proxy)
    a = Client(proxy.url, context=trusting)
    r = a.get("/", follow=False)
    check(r.status in (302, 303) and r.header("Location") in ("/login", proxy.url + "/login"),
          f"the first visit through the proxy redirects to /login ({r.status} {r.header('Location')})")
    check(not any("okit_session=" in v for v in a.set_cookies), "and makes no session before the login")
    r = a.get("/books", follow=False)
    check(r.status in (302, 303) and r.header("Location") == "/login", f"every page redirects to /login before logging in ({r.status})")
    r = a.get("/events", follow=False)
    check(r.status in (302, 303, 401, 403), f"so does the events stream ({r.status})")

    page = a.get("/login")
    check(page.status == 200 and re.search(r'<input type="password"[^>]*name="token"', page.text) is not None,
          "the login page is a form with a password field for the token")
    form = page.forms()[0]
    check(form.method == "post" and form.value("csrf"), "the login form posts, with its signed csrf")
    r = a.post(form.action, form.post_fields(token="not-the-token"), follow=False)
    check(r.status == 403 and re.search(r'name="token"', r.text) is not None and 'role="alert"' in r.text,
          f"a wrong token answers 403 with the login form again and an error ({r.status})")
    r = a.post(form.action, [("token", TOKEN)], follow=False)
    check(r.status == 403 and a.get("/books", follow=False).status in (302, 303), f"the right token without the csrf is refused ({r.status})")
    r = a.get("/books", follow=False)
    check(r.status in (302, 303), "still not logged in after the wrong tokens")
    check(not any("okit_session=" in v for v in a.set_cookies), "no session was made by the login page or the refused logins")
    books = login(a)
    cookie = next((v for v in a.set_cookies if v.startswith("__Host-okit_session=")), "")
    attrs = [x.strip().lower() for x in cookie.split(";")[1:]]
    check("secure" in attrs, f"the session cookie the login sets carries Secure behind TLS (X-Forwarded-Proto https): {cookie!r}")
    check("httponly" in attrs and "samesite=strict" in attrs, "and HttpOnly; SameSite=Strict")
    check(re.fullmatch(r"__Host-okit_session=[0-9a-f]{32}", cookie.split(";")[0]) is not None,
          f"it is __Host-okit_session behind TLS (no other site of the domain can set one beside it), 128 random bits: {cookie!r}")
    check("path=/" in attrs and not any(x.startswith("domain=") for x in attrs), "with Path=/ and no Domain, as __Host- needs")
    # Cookie tossing: a plain okit_session another site of the domain set beside it is not read behind TLS.
    tossed = Client(proxy.url, context=a.context)
    r = tossed.request("GET", "/books", headers={"Cookie": "okit_session=" + cookie.split(";")[0].split("=", 1)[1]})
    check(r.status in (302, 303) and r.header("Location") == "/login",
          f"a plain okit_session cookie (set by another site of the domain) names no session behind TLS ({r.status})")
    check(books.status == 200 and "<h1" in books.text and "Book Shop" in books.text,
          f"after logging in with the form the books page answers 200 through TLS ({books.status})")
    check(books.data("location") == "/books", "and it is the books list")
    csp = (books.header("Content-Security-Policy") or "").split(";")[0]
    check(csp == "default-src 'self'" and books.header("X-Content-Type-Options") == "nosniff"
          and books.header("Referrer-Policy") == "same-origin", "the security headers pass the proxy")
    check(a.get("/theme.css").status == 200 and a.get("/static/okit.js").status == 200, "the stylesheet and script answer through the proxy")

    # The session's commands work through the proxy.
    r = a.add_book("Through the Proxy")
    check(r.status == 200 and "Through the Proxy" in r.text, "a book added through the proxy shows on the page")
    r = a.post("/command", [("command", "add"), ("at", "/books"), ("v", r.data("version"))], follow=False)
    check(r.status == 403, f"a post without the csrf through the proxy answers 403 ({r.status})")

    # A second visitor must log in too; its session is its own.
    b = Client(proxy.url, context=ssl._create_unverified_context())
    check(b.get("/books", follow=False).status in (302, 303), "a second visitor is sent to /login too")
    check(login(b).status == 200, "and logs in")
    check(b.cookie != a.cookie, "with a session of its own")

    # Server-Sent Events through nginx: a's /events sees b's change within a few seconds.
    a.get("/books")
    raw = socket.create_connection(("127.0.0.1", proxy.port), timeout=10)
    s = trusting.wrap_socket(raw, server_hostname="127.0.0.1")
    try:
        s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{proxy.port}\r\nCookie: {a.cookie_name}={a.cookie}\r\n"
                  "Accept: text/event-stream\r\n\r\n".encode())
        got = b""
        deadline = time.time() + 10
        while b"okit live updates" not in got and time.time() < deadline:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        head = got.split(b"\r\n\r\n", 1)[0].decode(errors="replace")
        check(head.startswith("HTTP/1.1 200") and "text/event-stream" in head,
              f"/events answers a stream through the proxy ({head.splitlines()[0] if head else 'nothing'})")
        check(b"okit live updates" in got, "its first lines arrive at once (proxy_buffering off)")
        started = time.time()
        b.add_book("Seen Live")
        while b"event: stale" not in got and time.time() - started < 5:
            try:
                chunk = s.recv(4096)
            except socket.timeout:
                break
            if not chunk:
                break
            got += chunk
        took = time.time() - started
        check(b"event: stale" in got, f"another session's change arrives as `event: stale` through nginx within 5 s ({took:.2f} s)")
    finally:
        s.close()
    check("Seen Live" in [m for m in re.findall(r'<span class="okit-text">([^<]*)</span>', a.get("/books").text)],
          "and the page fetched then shows the new book")

    # Headless Chromium through the proxy: the login form, then the books list.
    driver = Driver()
    try:
        browser = open_browser(driver, args=["--ignore-certificate-errors"])
        browser.get(proxy.url + "/")
        browser.wait(lambda: browser.url().endswith("/login"), "the login page")
        check(browser.find("h1").text() == "Log in", "Chromium through the proxy lands on the login page")
        browser.find("input[type=password][name=token]").type(TOKEN)
        browser.find("form[action='/login'] button[type=submit]").click()
        browser.wait(lambda: browser.find("h1").text().startswith("Book Shop"), "the books list after logging in")
        check(browser.url() == proxy.url + "/books", f"after logging in Chromium shows the books list at {browser.url()}")
        check("Seen Live" in browser.texts("main .okit-row .okit-text"), "with the books added through the proxy")
        cookies = {c["name"]: c for c in browser._("GET", "/cookie")}
        sc = cookies.get("__Host-okit_session", {})
        check(sc.get("secure") is True and sc.get("httpOnly") is True and sc.get("sameSite") == "Strict",
              f"the browser holds the session cookie as Secure, HttpOnly, SameSite=Strict ({ {k: sc.get(k) for k in ('secure', 'httpOnly', 'sameSite')} })")
        # The live update reaches the browser through nginx too.
        browser.script("window.okitMarker = 7")
        a.add_book("Pushed To Chromium")
        browser.wait(lambda: "Pushed To Chromium" in browser.texts("main .okit-row .okit-text"), "the live update in Chromium", timeout=15)
        check(browser.script("return window.okitMarker") == 7, "Chromium shows another session's book pushed live through nginx, without a reload")
        browser.close()
    finally:
        driver.quit()
finally:
    for p in proxies:
        p.stop()
    codes = [srv.stop() for srv in servers]

check(all(code == 143 for code in codes), f"SIGTERM: both servers exit 143 ({codes})")
try:
    stored = open(os.path.join(work, "data/okit/data/default.json")).read()
except OSError as e:
    stored = str(e)
check("Through the Proxy" in stored and "Seen Live" in stored, "the books added through the proxy are stored")
def show_logs():
    for p in proxies:
        print(p.errors()[-1500:])
    for srv in servers:
        print(srv.output()[-1500:])


done(show_logs)
