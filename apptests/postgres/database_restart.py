#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md "The database unreachable…", issue 18): the database goes away under
load and comes back. While it is away every process goes on answering (reads work, changes are taken), its
snapshots say `app.offline = true`, and its stores stay pending; once the database is back (on the same port) the
pending stores land, `app.offline` is false again and the other processes show them. Twice: a clean restart
(pg_ctl stop -m fast, start) and a crash (SIGKILL to the server and every backend, then start: crash recovery).
A (Dune's detail) and W (a writer of Emma's count, the load) change things; B reads.
Usage: database_restart.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks, cells, offline, poll, rows, row_ids, view
from pgshop import Shop

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres database restart")
check = checks.check
cluster = pgcluster.start()


def listed(answer):
    return {t: int(d) for t, d in rows(answer)}


def until_offline(process, value, timeout=30):
    """Polls with `screen` until the process's snapshot says app.offline == value; returns that answer."""
    last = {}

    def look():
        a = last["answer"] = process.screen()
        return offline(a) is value, {"app.offline": offline(a), "screen": view(a)}
    poll(look, timeout, "%s's snapshot says app.offline = %s" % (process.name, str(value).lower()))
    return last["answer"]


def outage(shop, a_proc, b_proc, w_proc, ids, how, base):
    """One outage: `how` takes the database away; changes while it is away land after it is back.
    `base` is the count A starts from (Dune's)."""
    name = "Dune (%s)" % how
    take_away = {"restart": lambda: cluster.stop_server("fast"), "crash": cluster.kill}[how]
    take_away()

    # Away: every process answers, changes are taken, and the snapshots say offline.
    a = a_proc.do({"cmd": "set", "cell": "count", "value": base + 1})
    check(cells(a).get("count") == base + 1, "[%s] A takes a change while the database is away: %r" % (how, cells(a)))
    until_offline(a_proc, True)
    a = a_proc.do({"cmd": "set", "cell": "name", "value": name})
    check(cells(a) == {"name": name, "count": base + 1}, "[%s] A shows its pending changes: %r" % (how, cells(a)))
    for n in range(1, 6):
        w = w_proc.do({"cmd": "set", "cell": "count", "value": base + 10 + n})
        check(cells(w).get("count") == base + 10 + n, "[%s] W takes change %d while away: %r" % (how, n, cells(w)))
    until_offline(w_proc, True)
    b = until_offline(b_proc, True)
    check(listed(b).get("Dune") == base, "[%s] B, reading while the database is away, still shows the last stored "
          "count (A's changes have not landed): %r" % (how, rows(b)))

    # Back on the same port: the pending stores land.
    cluster.start_server()
    until_offline(a_proc, False, timeout=60)
    shop.wait_book(ids["Dune"], (name, base + 1), "[%s] A's pending changes after the database came back" % how, 60)
    until_offline(w_proc, False, timeout=60)
    shop.wait_book(ids["Emma"], ("Emma", base + 15), "[%s] W's last pending change after the database came back" % how, 60)
    b = poll(lambda: (lambda x: (offline(x) is False and listed(x).get(name) == base + 1
                                 and listed(x).get("Emma") == base + 15, rows(x)))(b_proc.screen()),
             60, "[%s] B shows A's and W's changes once they landed" % how)
    return b


def under_load():
    shop = Shop(okit_run, cluster, work, "outage")
    a_proc = shop.start("A")
    ids = row_ids(a_proc.screen())
    b_proc, w_proc = shop.start("B"), shop.start("W")
    b = b_proc.screen()
    check(offline(b) is False, "app.offline is false while the database is there: %r" % offline(b))
    w_proc.screen()
    a_proc.do({"cmd": "tap", "row": "Dune"})
    w_proc.do({"cmd": "tap", "row": "Emma"})
    a_proc.do({"cmd": "set", "cell": "count", "value": 4})
    shop.wait_book(ids["Dune"], ("Dune", 4), "A's change before any outage")
    b = b_proc.screen()
    check(listed(b).get("Dune") == 4, "B sees it: %r" % rows(b))

    outage(shop, a_proc, b_proc, w_proc, ids, "restart", 4)
    a_proc.do({"cmd": "set", "cell": "name", "value": "Dune"})
    shop.wait_book(ids["Dune"], ("Dune", 5), "A's change between the outages")
    poll(lambda: (lambda x: (listed(x).get("Dune") == 5, rows(x)))(b_proc.screen()), 30,
         "B shows A's change between the outages")
    outage(shop, a_proc, b_proc, w_proc, ids, "crash", 5)

    for p in (a_proc, b_proc, w_proc):
        check(p.conflicts() == [], "%s reported no conflict (nobody else changed what it changed): %r"
              % (p.name, p.conflicts()))
    for p in (a_proc, b_proc, w_proc):
        code = p.quit()
        check(code == 0, "%s quits with 0: %d\n%s" % (p.name, code, p.stderr))
    check(shop.books() == {"Dune (crash)": 6, "Emma": 20, "Ulysses": 0}, "the database at the end: %r" % shop.books())


checks.run("the database restarted, then crashed, under load: reads go on, pending stores land after", under_load)
checks.finish()
