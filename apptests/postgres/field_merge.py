#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md "Conflicts", issue 18): two processes change different fields of one
book; both fields end up in the database and in both processes, and nothing is reported as a conflict.
First one after the other (B applies A's change before its own command), then concurrently: B's change is made
on the copy it had before A stored (shop.lua's hold() keeps B's command open while A stores), so B's store finds
the row's version moved and merges field by field.
Usage: field_merge.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks, cells, row_ids, warnings
from pgshop import Gate, Shop

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres field merge")
check = checks.check
cluster = pgcluster.start()


def no_conflicts(*processes):
    for p in processes:
        check(p.conflicts() == [], "%s reported no conflict (different fields merge): %r" % (p.name, p.conflicts()))


def one_after_the_other():
    shop = Shop(okit_run, cluster, work, "sequential")
    a_proc = shop.start("A")
    dune = row_ids(a_proc.screen())["Dune"]
    b_proc = shop.start("B")
    b_proc.screen()
    a_proc.do({"cmd": "tap", "row": "Dune"})
    b_proc.do({"cmd": "tap", "row": "Dune"})
    a_proc.do({"cmd": "set", "cell": "name", "value": "Dune (1965)"})
    b = b_proc.do({"cmd": "set", "cell": "count", "value": 7})
    check(cells(b) == {"name": "Dune (1965)", "count": 7}, "B's answer shows A's name and its own count: %r" % cells(b))
    shop.wait_book(dune, ("Dune (1965)", 7), "A's name and B's count")
    a = a_proc.screen()
    check(cells(a) == {"name": "Dune (1965)", "count": 7}, "A's next answer shows B's count: %r" % cells(a))
    no_conflicts(a_proc, b_proc)


def concurrently():
    shop = Shop(okit_run, cluster, work, "concurrent")
    gate = Gate(os.path.join(shop.work, "gate"))
    a_proc = shop.start("A")
    dune = row_ids(a_proc.screen())["Dune"]
    b_proc = shop.start("B", unsafe=True, env=gate.env("count", 8))
    b_proc.screen()
    a_proc.do({"cmd": "tap", "row": "Dune"})
    b_proc.do({"cmd": "tap", "row": "Dune"})

    b_proc.write({"cmd": "button", "id": "hold"})       # B sets count = 8 on its copy and waits
    gate.wait_held(b_proc)
    a_proc.do({"cmd": "set", "cell": "name", "value": "Dune Messiah"})
    shop.wait_book(dune, ("Dune Messiah", 3), "A's name stored while B holds its change")
    gate.release()
    b = b_proc.answer()
    check(b.get("ok"), "B's held command answers ok: %r" % b.get("error"))
    check(not any("conflict" in w.lower() for w in warnings(b)), "no conflict warning for B: %r" % warnings(b))
    shop.wait_book(dune, ("Dune Messiah", 8), "both fields after B's store: A's name, B's count")
    b = b_proc.screen()
    check(cells(b) == {"name": "Dune Messiah", "count": 8}, "B shows A's name with its own count: %r" % cells(b))
    a = a_proc.screen()
    check(cells(a) == {"name": "Dune Messiah", "count": 8}, "A shows B's count with its own name: %r" % cells(a))
    no_conflicts(a_proc, b_proc)
    for p in (a_proc, b_proc):
        code = p.quit()
        check(code == 0, "%s quits with 0: %d\n%s" % (p.name, code, p.stderr))
    check(shop.book(dune) == ("Dune Messiah", 8), "the database after both quit: %r" % (shop.book(dune),))


checks.run("A changes the name, then B the count: both stored", one_after_the_other)
checks.run("B changes the count on a stale copy while A stores the name: merged field by field", concurrently)
checks.finish()
