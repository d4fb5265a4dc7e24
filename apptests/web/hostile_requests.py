#!/usr/bin/env python3
"""Hostile requests against a real `okit-run serve` of the bookshop (web.md "Security", spec web.md "Tests and
figures"): bad requests of every kind answer 4xx with a short page and the server keeps serving; XSS in model text
is escaped; every page carries the security headers; a cross-site form post changes nothing; the session cap; and
SIGTERM stores what was added.

Usage: hostile_requests.py OKIT_RUN WORKDIR"""
import json, os, re, signal, socket, sys, threading, time, urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, check_fixed, done

from webdriver import Server
from webclient import Client, raw

okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
app = os.path.join(root, "examples/bookshop/app.lua")
os.makedirs(work, exist_ok=True)




SECURITY = {"Content-Security-Policy": "default-src 'self'", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin"}

def secure_headers(answer):
    csp = answer.header("Content-Security-Policy") or ""
    return (csp.split(";")[0].strip() == "default-src 'self'"
            and answer.header("X-Content-Type-Options") == "nosniff"
            and answer.header("Referrer-Policy") == "same-origin")

def short_page(answer):
    return answer.text.lstrip().lower().startswith("<!doctype html") and len(answer.body) < 4000 and "<h1>" in answer.text

def book_names(page):
    return [n for n in re.findall(r'<span class="okit-text">([^<]*)</span>', page.text)]

data = os.path.join(work, "data")
server = Server(okit_run, app, data)
host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
base = server.url
a = Client(base)                    # the visitor whose data the attacks aim at
b = Client(base)                    # another visitor
code = None

def still_serving(after):
    """A normal GET still answers the books list (with a fresh client, so a broken session cannot hide it)."""
    try:
        r = Client(base).get("/books")
        check(r.status == 200 and "<h1" in r.text and "Book Shop" in r.text, f"the server still serves after {after}")
    except OSError as e:
        check(False, f"the server still serves after {after} ({e})")

try:
    home = a.get("/books")
    check(home.status == 200 and a.cookie, "a first visit gets the books list and a session cookie")
    b.get("/books")
    before = book_names(a.get("/books"))

    # Every page answer carries the security headers: pages, redirects, short error pages, static files, events.
    answers = {"a page": a.get("/books"), "the redirect of /": a.get("/", follow=False),
               "a 404 page": a.get("/no-such-screen"), "the theme stylesheet": a.get("/theme.css"),
               "the script": a.get("/static/okit.js"), "the stylesheet": a.get("/static/okit.css")}
    for what, r in answers.items():
        check(secure_headers(r), f"{what} ({r.status}) carries CSP default-src 'self', nosniff, Referrer-Policy same-origin")

    # An unknown screen.
    r = a.get("/no-such-screen")
    check(r.status == 404 and short_page(r), f"an unknown screen path answers 404 with a short page ({r.status})")
    r = a.get("/books/nobook~XYZ/more~1/x")
    check(400 <= r.status < 500 or r.status == 200, f"a nonsense deep path answers 4xx or the nearest screen ({r.status})")
    still_serving("unknown paths")

    # POST /command without csrf, and with the csrf of another session.
    page = a.get("/books")
    add = page.form("add")
    r = a.post("/command", [(n, v) for n, v in add.fields if n != "csrf"], follow=False)
    check(r.status == 403 and short_page(r), f"a POST /command with no csrf answers 403 ({r.status})")
    other = b.get("/books").data("csrf")
    r = a.post("/command", add.post_fields(csrf=other), follow=False)
    check(r.status == 403 and short_page(r), f"a POST /command with another session's csrf answers 403 ({r.status})")
    r = a.post("/command", add.post_fields(csrf=""), follow=False)
    check(r.status == 403, f"a POST /command with an empty csrf answers 403 ({r.status})")
    r = Client(base).post("/command", add.fields, follow=False)
    check(r.status == 403, f"a POST /command with no session cookie answers 403 ({r.status})")
    check(a.get("/books").form("add") and "dialog open" not in a.get("/books").text, "none of them opened the add prompt")
    still_serving("refused posts")

    # A form that names no command; commands that are not web commands.
    page = a.get("/books")
    r = a.post("/command", [(n, v) for n, v in page.form("add").fields if n != "command"], follow=False)
    check(r.status == 400 and short_page(r), f"a form with no command answers 400 ({r.status})")
    r = a.post("/command", page.form("add").post_fields(command=""), follow=False)
    check(r.status == 400, f"a form with an empty command answers 400 ({r.status})")
    for name in ("quit", "relaunch", "store", "advance", "background", "foreground", "open", "present"):
        r = a.post("/command", page.form("add").post_fields(command=name), follow=False)
        check(r.status == 400 and short_page(r), f"`{name}` is not a web command: 400 ({r.status})")
    r = a.post("/command", page.form("add").post_fields(command="no-such-command"), follow=True)
    check(r.status == 200 or 400 <= r.status < 500, f"an unknown command answers 4xx or the page with its error ({r.status})")
    check(server.process.poll() is None, "quit and relaunch did not stop the server")
    still_serving("refused commands")

    # Bodies: over 1 MiB, another content type, non-UTF-8 bytes.
    page = a.get("/books")
    big = urllib.parse.urlencode(page.form("add").fields) + "&text=" + "x" * (1024 * 1024 + 10)
    try:
        r = a.post("/command", big, follow=False)
        check(r.status == 413 and short_page(r), f"a form body over 1 MiB answers 413 ({r.status})")
    except OSError as e:            # the server may close the connection before reading it all
        check(False, f"a form body over 1 MiB answers 413 (the connection failed: {e})")
    for ctype in ("text/plain", "application/json", "multipart/form-data; boundary=x"):
        r = a.post("/command", urllib.parse.urlencode(page.form("add").fields), follow=False,
                   headers={"Content-Type": ctype})
        check(r.status == 415 and short_page(r), f"a POST of {ctype} answers 415 ({r.status})")
    check(book_names(a.get("/books")) == before, "none of those bodies changed the books")
    still_serving("bad bodies")

    prompt = a.submit(a.get("/books").form("add"))
    respond = prompt.form("respond")
    body = urllib.parse.urlencode(respond.post_fields(action="1")).encode() + b"&fields=Bytes%FF%FE\xff\xc3(end"
    r = a.post("/command", body, follow=False)
    check(r.status == 400 and short_page(r), f"non-UTF-8 bytes in a form are malformed fields: 400, not a crash ({r.status})")
    check(not any(n.startswith("Bytes") for n in book_names(a.get("/books"))), "and nothing was added")
    r = a.post("/command", urllib.parse.urlencode(respond.post_fields(action="1")) + "&fields=50%zz", follow=False)
    check(r.status == 400 and short_page(r), f"a % without two hex digits is malformed too: 400 ({r.status})")
    still_serving("non-UTF-8 bytes")

    # Cookies: malformed, of no session.
    for bad in ("../../etc", "", "x" * 5000, "%00%ff", "\"quoted\""):
        c = Client(base)
        r = c.request("GET", "/books", headers={"Cookie": "okit_session=" + bad + ";"})
        fresh = c.cookie and c.cookie != bad
        check(r.status == 200 and fresh, f"a cookie of no session ({bad[:12]!r}) simply starts a new session ({r.status})")
    r = Client(base).request("GET", "/books", headers={"Cookie": "okit_session=" + a.cookie + "; okit_session=../../etc"})
    check(r.status in (200, 303), f"two okit_session cookies answer a page ({r.status})")
    still_serving("malformed cookies")

    # Cookie tossing (web.md "Sessions"): of several session cookies, a junk one does not hide the live one, and
    # two live ones give neither session the request (an attacker's session never gets a victim's searches).
    c = Client(base)
    r = c.request("GET", "/books", headers={"Cookie": "okit_session=junk; okit_session=" + a.cookie})
    check(r.status == 200 and not r.all("Set-Cookie"), f"a junk session cookie before a live one: the live one's page, no new session ({r.status})")
    r = Client(base).request("GET", "/books?text=Secret", headers={"Cookie": f"okit_session={b.cookie}; okit_session={a.cookie}"})
    check(r.status == 200 and any(v.startswith("okit_session=") for v in r.all("Set-Cookie")),
          f"two live session cookies: neither session is used, the request gets a new one ({r.status} {r.all('Set-Cookie')})")

    # URLs name only places the app's segues reach, at most 32 screens deep (web.md "URLs name where the person is").
    deep = "/books" + "/dates" * 8000
    r = Client(base).request("GET", deep)
    check(r.status == 303 and r.header("Location") == "/books" and len(r.body) < 4000,
          f"a URL of 8,000 screens lands on the nearest real one at once ({r.status} {r.header('Location')}, {len(r.body)} bytes)")
    r = Client(base).request("HEAD", deep)
    check(r.status == 303, f"and so does its HEAD ({r.status})")
    for path, lands in (("/books/dates", "/books"), ("/authors/dates/book/bookAuthors/leadAuthor/settings/menu/backups", "/authors")):
        c = Client(base)
        r = c.get(path, follow=False)
        check(r.status == 303 and r.header("Location") == lands, f"{path[:40]} names no place the segues reach: to {lands} ({r.status} {r.header('Location')})")
        page = c.get(lands)
        check("That screen no longer exists; this is the nearest one that does." in page.text, "with the notice of a screen that does not exist")
    book = re.search(r'href="(/books/book~[^"]+)"', a.get("/books").text).group(1)
    dates = re.search(r'href="(/books/book~[^"/]+/dates~[^"]+)"', a.get(book).text).group(1)
    r = a.get(dates, follow=False)
    check(r.status == 200 and "Release Dates" in r.text, f"a book's release dates, on that book, are a place its detail opens ({r.status})")
    r = a.get(book + "/dates", follow=False)
    check(r.status == 303 and r.header("Location") == book, f"but not without the book they belong to ({r.status})")
    still_serving("deep and unreachable URLs")

    # A row address that does not exist: the page shows the error, nothing changes.
    page = a.get("/books")
    names = book_names(page)
    for row in ("NO-SUCH-ROW", "999999", "-1", "../../etc/passwd"):
        r = a.submit(page.form("accessory"), follow=False, row=row)
        after = a.get("/books")
        err = re.search(r'role="alert"[^>]*>([^<]*)', after.text)
        check(r.status in (200, 303) and err is not None and book_names(after) == names,
              f"row {row!r} that does not exist: {r.status}, the page shows the error ({err.group(1)[:60] if err else None}), nothing changes")
        page = after
    still_serving("rows that do not exist")

    # A request with X-Forwarded-For and no --token-file.
    r = Client(base, headers={"X-Forwarded-For": "203.0.113.7"}).get("/books", follow=False)
    check(r.status == 403 and short_page(r), f"a request with X-Forwarded-For and no token answers 403 ({r.status})")
    r = a.get("/books", headers={"X-Forwarded-For": "203.0.113.7"}, follow=False)
    check(r.status == 403, f"even with a session cookie ({r.status})")

    # Raw sockets: a huge path, a huge header, a half-sent request, garbage, a request line only.
    for what, data_ in (("a path of 100 kB", b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                        ("a header of 200 kB", b"GET /books HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n"),
                        ("10 000 headers", b"GET /books HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(10_000)) + b"\r\n"),
                        ("garbage", b"\x00\xff\x16\x03\x01 GARBAGE\r\n\r\n"),
                        ("a TLS hello on the plain port", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64)):
        try:
            out = raw(host, port, data_, timeout=10)
            status = out.split(b"\r\n", 1)[0].decode(errors="replace") if out else repr(out)
        except OSError as e:
            out, status = None, f"connection error {e}"
        said = out.split(b"\r\n\r\n", 1)[1].decode(errors="replace").strip() if out and b"\r\n\r\n" in out else ""
        if what == "a path of 100 kB":
            # Not the framework's empty 400: the status says what is wrong and the body says what to do.
            check(status.startswith("HTTP/1.1 431") and "too long" in said,
                  f"{what} answers 431 with a sentence saying so ({status[:40]}: {said[:80]!r})")
        elif what == "garbage":
            check(status.startswith("HTTP/1.1 400") and "(" not in said and "parser" not in said,
                  f"{what} answers 400 in plain words, naming no parser ({status[:40]}: {said[:80]!r})")
        else:
            # A client still sending when the server stops reading may see the connection reset instead.
            check(out is None or (re.match(r"HTTP/1\.1 4\d\d", status) is not None and len(said) > 20),
                  f"{what}: a 4xx that says why, or the connection closed ({status[:40]}: {said[:60]!r})")
        still_serving(what)
    # A transfer coding that is not chunked (RFC 9112 §6.3): 400 and the connection closes, before any session check.
    out = raw(host, port, b"POST /command HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: xchunked\r\n"
                          b"Content-Type: application/x-www-form-urlencoded\r\n\r\n5\r\nhello\r\n0\r\n\r\n", timeout=10) or b""
    check(out.startswith(b"HTTP/1.1 400") and b"Transfer-Encoding" in out, f"Transfer-Encoding: xchunked answers 400 ({out[:60]!r})")
    out = raw(host, port, b"GET /books HTTP/1.x\r\nHost: 127.0.0.1\r\n\r\n", timeout=10) or b""
    said = out.split(b"\r\n\r\n", 1)[-1]
    check(out.startswith(b"HTTP/1.1 400") and b"(" not in said and b"parser" not in said,
          f"a wrong HTTP version answers 400 in plain words, naming no parser ({said[:90]!r})")
    still_serving("a transfer coding that is not chunked")

    # A good request with garbage right behind it on the same connection: the good one's answer comes whole.
    out = raw(host, port, b"GET /static/okit.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE\x00\r\n\r\n", timeout=10) or b""
    head, _, rest = out.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    check(head.startswith(b"HTTP/1.1 200") and length is not None and len(rest) >= int(length.group(1)),
          f"a good request followed by garbage is answered whole first ({head[:30]!r}, {len(rest)} bytes after the head)")
    still_serving("a good request then garbage")
    for n in range(3):
        with socket.create_connection((host, port), timeout=5) as s:
            s.sendall(b"GET /boo")                        # half a request line, then gone
    with socket.create_connection((host, port), timeout=5) as s:
        s.sendall(b"POST /command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\ncsrf=")   # half a body
    still_serving("half-sent requests")

    # 200 connections at once opening /events (with a's cookie) and closing.
    opened, errors = [], []

    def stream():
        try:
            with socket.create_connection((host, port), timeout=10) as s:
                s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: okit_session={a.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
                got = b""
                while b"okit live updates" not in got:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    got += chunk
                if b"200" in got.split(b"\r\n", 1)[0]:
                    opened.append(1)
        except OSError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=stream) for _ in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    check(len(opened) == 200, f"200 parallel /events streams opened and closed ({len(opened)} opened, {len(errors)} errors {errors[:2]})")
    still_serving("200 parallel event streams")

    # After all that, a live update still reaches a stream: a fresh visitor's /events sees another's change.
    def stale_seen(watcher, writer, name):
        """Opens watcher's /events, lets writer add a book; whether `event: stale` arrived within 10 s."""
        with socket.create_connection((host, port), timeout=10) as s:
            s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: okit_session={watcher.cookie}\r\n\r\n".encode())
            got = b""
            while b"okit live updates" not in got:
                chunk = s.recv(4096)
                if not chunk:
                    return False
                got += chunk
            writer.add_book(name)
            deadline = time.time() + 10
            while b"event: stale" not in got and time.time() < deadline:
                try:
                    chunk = s.recv(4096)
                except socket.timeout:
                    break
                if not chunk:
                    break
                got += chunk
            return b"event: stale" in got

    c, d = Client(base), Client(base)
    c.get("/books"), d.get("/books")
    check(stale_seen(c, d, "Streamed Survivor"), "after the flood a new stream still gets `event: stale` for another session's change")
    # A session whose screen was snapshotted afresh while the screen's own caches were current (a failed command,
    # a tab left and come back to) must still be told when its screen goes stale, and a reload must show the change.
    STALE_BUG = ("the list screen's caches (ListScreen.refresh, rowSnapshot, currentHeader) return a current cached "
                 "subscription without reading its value, so a fresh ScreenWatch subscription records nothing")
    c.get("/books")
    c.submit(c.get("/books").form("accessory"), row="NO-SUCH-ROW")
    c.get("/books")
    check_fixed(stale_seen(c, d, "Streamed After Error"),
                   "a session whose last command failed still gets `event: stale` for another session's change", STALE_BUG)
    check_fixed("Streamed After Error" in book_names(c.get("/books")), "and its reload shows the new book", STALE_BUG)
    e = Client(base)
    e.get("/books"), e.get("/authors"), e.get("/books")
    check_fixed(stale_seen(e, d, "Streamed After Tabs"),
                   "a session that went to another tab and back gets `event: stale` for another session's change", STALE_BUG)
    check_fixed("Streamed After Tabs" in book_names(e.get("/books")), "and its reload shows the new book", STALE_BUG)

    # XSS through the forms: the names are text on the page, never markup.
    hostile = ["<img src=x onerror=alert(1)>", "\"><script>alert(1)</script>"]
    for name in hostile:
        a.add_book(name)
    page = a.get("/books")
    check("<img src=x" not in page.text and "<script>alert" not in page.text, "no injected <img> or <script> element in the list's source")
    check("&lt;img src=x onerror=alert(1)&gt;" in page.text, "the <img> name is present as &lt;img… text")
    check("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page.text or "\"&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page.text,
          "the \"><script> name is present as escaped text")
    check(all(n in book_names(page) for n in ["&lt;img src=x onerror=alert(1)&gt;"]), "the hostile names are rows of the list")
    link = re.search(r'href="(/books/book~[^"]+)"[^>]*>\s*<span class="okit-text">&lt;img', page.text)
    if check(link is not None, "the hostile book's row links to its detail"):
        detail = a.get(link.group(1))
        check(detail.status == 200 and "<img src=x" not in detail.text and "&lt;img src=x" in detail.text,
              "its detail page escapes the name too (in text and in the input's value)")
        check(secure_headers(detail), "the detail page carries the security headers")
    search = a.get("/books?text=" + urllib.parse.quote("\"><script>alert(1)</script>"))
    check(search.status == 200 and "<script>alert" not in search.text, "a hostile search text is escaped in the search field's value")
    check(secure_headers(page), "the list page carries the security headers")

    # CSRF: a cross-site form post carries the victim's cookie (no SameSite help assumed) but no csrf field.
    names = book_names(a.get("/books"))
    stored = open(os.path.join(data, "okit/data/default.json"), "rb").read()
    forged = [("command", "add"), ("at", "/books"), ("v", a.get("/books").data("version"))]
    r = a.post("/command", forged, follow=False, headers={"Origin": "https://evil.example", "Referer": "https://evil.example/x"})
    check(r.status == 403, f"a cross-site form post without the csrf field answers 403 ({r.status})")
    r = a.post("/command", forged + [("csrf", "0" * 32)], follow=False, headers={"Origin": "https://evil.example"})
    check(r.status == 403, f"a cross-site form post with a guessed csrf answers 403 ({r.status})")
    prompt = a.get("/books")
    check("dialog open" not in prompt.text and book_names(prompt) == names, "the forged posts opened no prompt and changed no books")
    check(open(os.path.join(data, "okit/data/default.json"), "rb").read() == stored, "the stored model file is unchanged")
    still_serving("forged posts")

    a.add_book("Plain Survivor")
finally:
    if server.process.poll() is None:
        started = time.time()
        code = server.stop(signal.SIGTERM)
        took = time.time() - started
    else:
        code, took = server.process.returncode, 0

check(code == 143 and took < 20, f"SIGTERM: the server exits 143 within 20 s (got {code} after {took:.1f} s)")
try:
    text = json.dumps(json.load(open(os.path.join(data, "okit/data/default.json"))), ensure_ascii=False)
except (OSError, ValueError) as e:
    text = f"({e})"
check(all(n in text for n in ["Plain Survivor", "Streamed Survivor", "Streamed After Error", "Streamed After Tabs", "<img src=x onerror=alert(1)>", "\"><script>alert(1)</script>"]),
      "the data folder holds the books added")

# The session cap: --sessions 2, with both sessions in use (each came back with its cookie) the third cookie-less
# visitor gets 503 (and the first two keep working).
capped = Server(okit_run, app, os.path.join(work, "capped"), extra=["--sessions", "2"])
try:
    one, two, three = Client(capped.url), Client(capped.url), Client(capped.url)
    s1, s2 = one.get("/books").status, two.get("/books").status
    one.get("/books"), two.get("/books")
    three = three.get("/books")
    third_cookie = three.all("Set-Cookie")
    check(s1 == 200 and s2 == 200, f"--sessions 2: the first two visitors get pages ({s1}, {s2})")
    check(three.status == 503 and short_page(three) and secure_headers(three), f"the third cookie-less visitor gets a short 503 page ({three.status})")
    check(not third_cookie, "and no session cookie")
    check(one.get("/books").status == 200, "the first visitor still gets pages")
    check(one.add_book("Capped").status == 200 and "Capped" in book_names(two.get("/books")), "and the two sessions still work together")
finally:
    capped_code = capped.stop()
check(capped_code == 143, f"the capped server exits 143 at SIGTERM (got {capped_code})")

done(lambda: print(server.output()[-2000:]))
