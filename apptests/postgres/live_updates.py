#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md, issue 18): several okit-run processes on one database hold one live
model. Three processes that start at once on an empty database seed it once; then a book added, renamed, recounted
and deleted in process A shows in B's and C's next answers (a `screen` command is enough: before each command a
process applies the changes the others announced), and the database holds each change as soon as A answered.
Usage: live_updates.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks, cells, poll, row_ids, rows, screen_of, view
from pgshop import Shop

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres live updates")
check = checks.check
cluster = pgcluster.start()
SEEDED = {"Dune": 3, "Emma": 1, "Ulysses": 0}


def listed(answer):
    """name → count as the list screen shows them."""
    return {t: int(d) for t, d in rows(answer)}


def seen_next(process, predicate, what):
    """The change must show in `process`'s next answer; when it does not, polls on to say whether it came late or
    never, and fails either way."""
    a = process.screen()
    if predicate(a):
        return a
    first = view(a)
    try:
        poll(lambda: (lambda b: (predicate(b), view(b)))(process.screen()), 15, what)
        check(False, "%s: not in %s's next answer (it showed %r) but only in a later one" % (what, process.name, first))
    except AssertionError:
        check(False, "%s: %s never showed it (its next answer showed %r)" % (what, process.name, first))
    return a


def seed_once():
    shop = Shop(okit_run, cluster, work, "seed")
    processes = [shop.start(n) for n in ("A", "B", "C")]           # at once, on an empty database
    for p in processes:
        p.write({"cmd": "screen"})
    answers = [p.answer() for p in processes]
    for p, a in zip(processes, answers):
        check(a["ok"] and listed(a) == SEEDED, "%s lists the seeded books once: %r" % (p.name, rows(a)))
    ids = [row_ids(a) for a in answers]
    check(ids[0] == ids[1] == ids[2], "the three processes show the same books (the same ids): %r" % ids)
    check(shop.books() == SEEDED, "the database holds the seed once: %r" % shop.books())
    n = shop.psql("SELECT count(*) FROM \"Book\" WHERE okit_model = 'default'")
    check(n == "3", "three Book rows in the database, not one set per process: %s" % n)


def live():
    shop = Shop(okit_run, cluster, work, "live")
    a_proc = shop.start("A")
    first = a_proc.screen()
    b_proc, c_proc = shop.start("B"), shop.start("C")
    b, c = b_proc.screen(), c_proc.screen()
    check(listed(b) == listed(c) == listed(first) == SEEDED, "all three list the seed: %r %r %r"
          % (rows(first), rows(b), rows(c)))
    dune = row_ids(first)["Dune"]
    c_proc.do({"cmd": "tap", "row": "Dune"})                       # C looks at Dune's detail meanwhile

    # A adds a book.
    a = a_proc.do({"cmd": "add", "text": "Neuromancer"})
    check("Neuromancer" in listed(a), "A lists its new book: %r" % rows(a))
    check(shop.books().get("Neuromancer") == 0, "the database holds the new book once A answered: %r" % shop.books())
    seen_next(b_proc, lambda x: "Neuromancer" in listed(x), "A's new book in B's list")
    c_proc.do({"cmd": "back"})
    seen_next(c_proc, lambda x: "Neuromancer" in listed(x), "A's new book in C's list")

    # A renames Dune while C looks at it.
    c_proc.do({"cmd": "tap", "row": "Dune"})
    a_proc.do({"cmd": "tap", "row": "Dune"})
    a = a_proc.do({"cmd": "set", "cell": "name", "value": "Dune Messiah"})
    check(cells(a).get("name") == "Dune Messiah", "A shows the new name: %r" % cells(a))
    check(shop.book(dune) == ("Dune Messiah", 3), "the database holds the new name once A answered: %r" % (shop.book(dune),))
    seen_next(b_proc, lambda x: "Dune Messiah" in listed(x) and "Dune" not in listed(x), "A's rename in B's list")
    x = seen_next(c_proc, lambda x: cells(x).get("name") == "Dune Messiah", "A's rename in C's open detail (the cell)")
    check(screen_of(x)["subtitle"] == "Dune Messiah", "C's detail subtitle follows: %r" % screen_of(x)["subtitle"])

    # A changes the count.
    a_proc.do({"cmd": "set", "cell": "count", "value": 9})
    check(shop.book(dune) == ("Dune Messiah", 9), "the database holds the count once A answered: %r" % (shop.book(dune),))
    seen_next(b_proc, lambda x: listed(x).get("Dune Messiah") == 9, "A's count in B's list")
    seen_next(c_proc, lambda x: cells(x).get("count") == 9, "A's count in C's open detail")

    # A deletes Emma.
    a_proc.do({"cmd": "back"})
    c_proc.do({"cmd": "back"})
    a_proc.do({"cmd": "delete", "row": "Emma"})
    a = a_proc.do({"cmd": "respond", "action": "Yes"})
    check("Emma" not in listed(a), "A no longer lists Emma: %r" % rows(a))
    check("Emma" not in shop.books(), "the database lost Emma once A answered: %r" % shop.books())
    seen_next(b_proc, lambda x: "Emma" not in listed(x), "A's deletion in B's list")
    seen_next(c_proc, lambda x: "Emma" not in listed(x), "A's deletion in C's list")

    # And the other way: B adds, A and C see it.
    b_proc.do({"cmd": "add", "text": "Pale Fire"})
    seen_next(a_proc, lambda x: "Pale Fire" in listed(x), "B's new book in A's list")
    seen_next(c_proc, lambda x: "Pale Fire" in listed(x), "B's new book in C's list")

    final = {"Dune Messiah": 9, "Neuromancer": 0, "Pale Fire": 0, "Ulysses": 0}
    check(shop.books() == final, "the database at the end: %r" % shop.books())
    for p in (a_proc, b_proc, c_proc):
        x = p.screen()
        check(listed(x) == final, "%s lists the same at the end: %r" % (p.name, rows(x)))
        check(p.conflicts() == [], "%s reported no conflict: %r" % (p.name, p.conflicts()))
    for p in (a_proc, b_proc, c_proc):
        code = p.quit()
        check(code == 0, "%s quits with 0: %d\n%s" % (p.name, code, p.stderr))

    # A new process starts on what the others stored.
    d_proc = shop.start("D")
    x = d_proc.screen()
    check(listed(x) == final, "a new process lists what the others stored: %r" % rows(x))


checks.run("three processes starting at once on an empty database seed it once", seed_once)
checks.run("A's add, rename, count and delete show in B's and C's next answers", live)
checks.finish()
