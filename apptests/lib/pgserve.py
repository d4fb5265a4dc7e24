"""`okit-run serve` over a shared PostgreSQL model for the drivers in apptests/postgres/ (apptests/postgres/
serve_shop.lua by default), and a visitor that edits a book's fields through the detail page's forms, as a browser
without scripts does. No dependencies beyond the standard library and apptests/web/lib/webclient.py."""
import html
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "lib"))
from webclient import Client  # noqa: E402

import pgcluster  # noqa: E402

SHOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "postgres", "serve_shop.lua"))


class Serve:
    """`okit-run serve APP --port PORT --data DATA` with OKIT_DATABASE_URL; its output goes to `<work>/<name>.log`.
    `start()` returns once it serves (its log in the error when it does not)."""

    def __init__(self, okit_run, url, work, name, app=SHOP, env=None):
        self.okit_run, self.url_db, self.name, self.app = okit_run, url, name, app
        self.data = os.path.join(work, name + "-data")
        self.log_path = os.path.join(work, name + ".log")
        self.env = dict(env or {})
        self.process = None
        self.port = pgcluster.free_port()

    def start(self, timeout=60):
        env = {k: v for k, v in os.environ.items() if not k.startswith("OKIT_")}
        env.update(self.env)
        env["OKIT_DATABASE_URL"] = self.url_db
        self.log = open(self.log_path, "a+")
        self.mark = self.log.tell()
        self.process = subprocess.Popen([self.okit_run, "serve", self.app, "--port", str(self.port), "--data", self.data],
                                        stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL, env=env)
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = re.search(r"serving \S+ at (http://[^ ]+/)", self.output())
            if m:
                self.base = m.group(1).rstrip("/")
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("okit-run serve (%s) did not start; its output:\n%s" % (self.name, self.output()))

    def output(self):
        """What the process printed since its last start."""
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            f.seek(self.mark)
            return f.read()

    def stop(self, sig=signal.SIGTERM, timeout=60):
        """Sends `sig` and waits; returns the exit code (None when it had to be killed)."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def visitor(self):
        return Visitor(self.base)

    @property
    def pending(self):
        """The shared model's pending file in this process's data folder (storage.md "Offline")."""
        return os.path.join(self.data, "okit", "pending", "default.postgres.json")

    @property
    def refused(self):
        return os.path.join(self.data, "okit", "refused.jsonl")


class Visitor(Client):
    """One browser session: opens a book's detail page, switches it to editing, saves a field's form."""

    def set_field(self, book, cell, value):
        """Saves `value` in the detail page's cell `cell` (its label: Name, Count) of book `book`; returns the page
        the post leads to, its text unescaped (`page.plain`)."""
        page = self.get("/books/book~" + book)
        if 'aria-pressed="false">Edit' in page.text:
            page = self.submit(page.form("edit"))
        page = self.submit(page.form("set", cell=cell), value=value)
        page.plain = html.unescape(page.text)
        return page

    def add_book(self, name):
        page = super().add_book(name)
        page.plain = html.unescape(page.text)
        return page
