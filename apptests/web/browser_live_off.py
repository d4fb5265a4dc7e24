#!/usr/bin/env python3
"""A page whose live updates the server refused says so and tries again (web.md "A page says when its live updates
are off"): `okit-run serve --max-streams 1` on the bookshop in German, one stream held by a raw connection. A
browser opening the book list gets 503 on /events: its page shows "Live-Aktualisierungen sind aus: …". The held
stream closes (its browser goes): the page's next try opens its stream within seconds, the notice goes, and a book
another person adds then shows on the page without a reload.

Usage: browser_live_off.py OKIT_RUN WORKDIR"""
import os, re, socket, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from tap import check, done
from webdriver import Driver, Server

okit_run, work = sys.argv[1], sys.argv[2]
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
os.makedirs(work, exist_ok=True)
server = Server(okit_run, os.path.join(root, "examples/bookshop/app.lua"), os.path.join(work, "data"),
                extra=("--lang", "de", "--max-streams", "1"), env={"OKIT_PASSPHRASE": "correct horse"})
driver = Driver()
port = int(server.url.rsplit(":", 1)[1])


def exchange(text):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(text.encode())
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out.decode("utf-8", "replace")


def notice(b):
    found = b.all("p.okit-live-off")
    return found[0].text() if found else None


try:
    # Someone else's tab holds the one stream.
    head = exchange(f"GET /books HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
    cookie = re.search(r"okit_session=([^;\r\n]+)", head).group(1)
    held = socket.create_connection(("127.0.0.1", port))
    held.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: okit_session={cookie}\r\n\r\n".encode())
    check(b"200 OK" in held.recv(4096), "the other tab's stream is open")

    a = driver.browser()
    a.get(server.url + "/books")
    a.wait(lambda: notice(a) is not None, "the notice that live updates are off")
    check(notice(a).startswith("Live-Aktualisierungen sind aus"), f"it says so in the page's language ({notice(a)!r})")

    held.close()
    a.wait(lambda: notice(a) is None, "the notice going once the stream opens", timeout=20)
    check(True, "the page tried again and its live updates are on")

    b = driver.browser()
    b.get(server.url + "/books")
    b.find("form button.okit-add").click()
    field = b.find("dialog input[name=fields]")
    field.type("Live wieder da")
    b.find("dialog button.okit-default").click()
    a.wait(lambda: "Live wieder da" in a.find("main").text(), "the other person's book on the page, pushed")
    check(True, "a book added elsewhere shows without a reload")
finally:
    driver.quit()
    server.stop()

done(on_failure=lambda: print(server.output()))
