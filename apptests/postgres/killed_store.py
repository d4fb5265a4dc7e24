#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md, issue 18): a process killed (SIGKILL) during a store leaves nothing
half-written. B adds 500 books, then one command (the list's Restock button) adds 1 to every book's count: one
store that updates 503 rows in one transaction. The test holds a row lock on one book in the middle (a psql
session's SELECT … FOR UPDATE), so B's store waits on it mid-way with some rows already updated; B is killed
then, the lock released, and the database must hold every count as before (the transaction rolled back) — or,
had the commit gone through, every count + 1: never a mix. B started again on its data folder agrees with the
database, and a Restock that is not interrupted changes all 503 rows (the test is not vacuous).
The cluster keeps fsync on. Usage: killed_store.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks, Ended, poll, rows
from pgshop import Shop

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres killed store")
check = checks.check
cluster = pgcluster.start(fsync=True)
ALL = {"cmd": "screen", "limit": 1000}


def counts(shop):
    """id → count of every book in the database."""
    out = shop.psql("SELECT id, \"count\" FROM \"Book\" WHERE okit_model = 'default'")
    return {i: int(c) for i, c in (l.rsplit("|", 1) for l in out.split("\n") if l)}


def deltas(before, after):
    """How the counts moved per book: {delta: number of books} (a book added or lost shows as None)."""
    out = {}
    for i in set(before) | set(after):
        d = after[i] - before[i] if i in before and i in after else None
        out[d] = out.get(d, 0) + 1
    return out


def others(shop):
    """Client backends on the test's database other than psql's own (not autovacuum's workers)."""
    return int(shop.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                         "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"))


def killed_mid_store():
    shop = Shop(okit_run, cluster, work, "killed")
    b_proc = shop.start("B")
    b_proc.screen()
    b = b_proc.do({"cmd": "button", "id": "addMany"})
    check(b["snapshot"]["screen"]["rowCount"] == 503, "B lists 503 books: %r" % b["snapshot"]["screen"]["rowCount"])
    poll(lambda: (lambda c: (len(c) == 503, len(c)))(counts(shop)), 30, "the 500 new books in the database")
    before = counts(shop)

    # A row in the middle of the list is locked: B's one transaction waits on it with rows before it written.
    locker = shop.cluster.session(shop.url)
    locked = locker.run("BEGIN; SELECT id FROM \"Book\" WHERE okit_model = 'default' AND \"name\" = 'Bulk 250' FOR UPDATE")
    check(locked.strip() in before, "the test locked Bulk 250's row: %r" % locked)
    b_proc.write({"cmd": "button", "id": "restock"})

    def waiting():
        if not b_proc.lines.empty():
            raise Ended("B answered Restock without waiting for the row the test locked (its store did not update "
                        "that row in the transaction?): %s" % b_proc.lines.queue[0][:300])
        n = int(shop.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                          "AND wait_event_type = 'Lock'"))
        return n > 0, "%d backends waiting on a lock" % n
    poll(waiting, 60, "B's store waits on the locked row")
    b_proc.kill()
    locker.close()                                     # the lock goes; B's backend finds its client gone
    poll(lambda: (lambda n: (n == 0, "%d backends" % n))(others(shop)), 30,
         "the killed process's backends end (its transaction rolled back)")
    after = counts(shop)
    moved = deltas(before, after)
    check(moved in ({0: 503}, {1: 503}), "every count as before or every count + 1, never a mix: %r "
          "({delta: books})" % moved)
    check(moved == {0: 503}, "the killed store was rolled back (every count as before): %r" % moved)

    # B again, on its data folder: it agrees with the database.
    b_proc = shop.start("B (started again)", folder="B")
    b = b_proc.do(ALL)
    now = counts(shop)
    moved = deltas(before, now)
    check(moved in ({0: 503}, {1: 503}), "after B started again, still all or nothing: %r" % moved)
    db_listed = sorted(shop.books().items())
    shown = sorted((t, int(d)) for t, d in rows(b))
    check(shown == db_listed, "B's list is the database's books and counts (%d rows shown, %d in the database%s)"
          % (len(shown), len(db_listed), "" if shown == db_listed else
             "; first difference: %r" % next(((x, y) for x, y in zip(shown, db_listed) if x != y), None)))

    # A Restock that nothing interrupts changes every row.
    b_proc.do({"cmd": "button", "id": "restock"})
    poll(lambda: (lambda m: (m == {1: 503}, m))(deltas(now, counts(shop))), 30,
         "an uninterrupted Restock stores every count + 1 ({delta: books})")
    code = b_proc.quit()
    check(code == 0, "B quits with 0: %d\n%s" % (code, b_proc.stderr))


checks.run("B killed while its store of 503 rows waits mid-way: all or nothing", killed_mid_store)
checks.finish()
