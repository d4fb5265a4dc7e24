"""What the drivers in apptests/postgres/ share: the shop app (apptests/postgres/shop.lua), its processes on one
database, the shop's rows as PostgreSQL holds them, and the hold gate of shop.lua's `hold()` test hook."""
import os
import time

import okitjson
from okitjson import Okit

APP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "postgres", "shop.lua"))
MODEL = "default"


def q(text):
    """A SQL string literal."""
    return "'" + str(text).replace("'", "''") + "'"


class Shop:
    """One database of a cluster and the okit-run processes a test starts on it, each with its own data folder
    under `work`."""

    def __init__(self, okit_run, cluster, work, label):
        self.okit_run, self.cluster = okit_run, cluster
        self.url = cluster.new_database()
        self.work = os.path.join(work, label)
        os.makedirs(self.work, exist_ok=True)

    def start(self, name, unsafe=False, env=None, args=(), folder=None):
        """okit-run shop.lua --json --data WORK/FOLDER (default the name) with OKIT_DATABASE_URL set; returns at
        once (see okitjson)."""
        return Okit(self.okit_run, APP, os.path.join(self.work, folder or name), name, url=self.url, env=env,
                    unsafe=unsafe, args=args)

    def psql(self, sql):
        return self.cluster.psql(sql, self.url)

    def books(self):
        """name → count of the model's books in the database."""
        out = self.psql('SELECT "name", "count" FROM "Book" WHERE okit_model = %s ORDER BY "name"' % q(MODEL))
        result = {}
        for line in filter(None, out.split("\n")):
            name, count = line.rsplit("|", 1)
            result[name] = int(count)
        return result

    def book(self, book_id):
        """(name, count) of one book in the database, or None when there is no such row."""
        out = self.psql('SELECT "name", "count" FROM "Book" WHERE okit_model = %s AND id = %s'
                        % (q(MODEL), q(book_id)))
        if not out:
            return None
        name, count = out.rsplit("|", 1)
        return (name, int(count))

    def wait_book(self, book_id, expected, what, timeout=30):
        """Polls the database until the book's (name, count) is `expected` (None: the row is gone)."""
        return okitjson.poll(lambda: (lambda b: (b == expected, b))(self.book(book_id)), timeout,
                             "%s: the database should hold %r for book %s" % (what, expected, book_id))


class Gate:
    """The folder shop.lua's hold() waits in: it writes `held` once its change is made, and returns when `go`
    appears. `env(field, value)` is what the holding process needs in its environment."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)

    def env(self, field, value):
        return {"SHOP_GATE": self.folder, "SHOP_HOLD_FIELD": field, "SHOP_HOLD_VALUE": str(value)}

    def wait_held(self, process, timeout=60):
        """Until the holding process has made its change and waits (its stderr in the message if it ended)."""
        path = os.path.join(self.folder, "held")
        deadline = time.time() + timeout
        while not os.path.exists(path):
            if process.p.poll() is not None or not process.lines.empty():
                raise okitjson.Ended("okit-run %s should be waiting in hold() but %s; its stderr:\n%s"
                                     % (process.name, "ended" if process.p.poll() is not None else
                                        "answered: %s" % okitjson._short(process.lines.queue[0]), process.stderr))
            if time.time() > deadline:
                raise okitjson.Ended("okit-run %s did not reach hold() within %d s" % (process.name, timeout))
            time.sleep(0.02)

    def release(self):
        with open(os.path.join(self.folder, "go"), "w") as f:
            f.write("go")
