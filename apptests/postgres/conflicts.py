#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md "Conflicts", issue 18): a field changed on both sides. B changes a
book's name on the copy it had before A stored its own name for that book (shop.lua's hold() keeps B's command
open while A stores). The later store — B's — loses that field: the database keeps A's value, and B reports its
own: a warning naming the model, the entity and the field, and a line in <B's data>/okit/conflicts.jsonl with
time, model, type, id, field, base, theirs, mine. Deletion against edit: A deletes the book B is editing; the
deletion wins and B's edit is reported the same way.
Usage: conflicts.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import datetime
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks, cells, row_ids, row_texts, screen_of, warnings
from pgshop import Gate, Shop

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres conflicts")
check = checks.check
cluster = pgcluster.start()
KEYS = {"time", "model", "type", "id", "field", "base", "theirs", "mine"}


def check_report(process, answers, book_id, field, base, theirs, mine):
    """The warning (in the held command's answer or the next one) and the one line of conflicts.jsonl."""
    said = [w for a in answers for w in warnings(a)]
    named = [w for w in said if "default" in w and "Book" in w and field in w]
    check(len(named) == 1, "%s warns once, naming the model \"default\", the entity Book and the field %r: %r"
          % (process.name, field, said))
    lines = process.conflicts()
    if not check(len(lines) == 1, "%s's okit/conflicts.jsonl holds one line: %r" % (process.name, lines)):
        return
    line = lines[0]
    check(set(line) == KEYS, "the line has exactly the keys %s: %s" % (sorted(KEYS), sorted(line)))
    expected = {"model": "default", "type": "Book", "id": book_id, "field": field, "base": base, "theirs": theirs,
                "mine": mine}
    got = {k: line.get(k) for k in expected}
    check(got == expected, "the conflict line:\n  expected %r\n  got      %r" % (expected, got))
    try:
        datetime.datetime.fromisoformat(str(line.get("time")).replace("Z", "+00:00"))
    except ValueError:
        check(False, "the line's time is an ISO 8601 date: %r" % line.get("time"))


def both_change_the_name():
    shop = Shop(okit_run, cluster, work, "name")
    gate = Gate(os.path.join(shop.work, "gate"))
    a_proc = shop.start("A")
    dune = row_ids(a_proc.screen())["Dune"]
    b_proc = shop.start("B", unsafe=True, env=gate.env("name", "Dune (B)"))
    b_proc.screen()
    a_proc.do({"cmd": "tap", "row": "Dune"})
    b_proc.do({"cmd": "tap", "row": "Dune"})

    b_proc.write({"cmd": "button", "id": "hold"})       # B renames Dune on its copy and waits
    gate.wait_held(b_proc)
    a_proc.do({"cmd": "set", "cell": "name", "value": "Dune (A)"})
    shop.wait_book(dune, ("Dune (A)", 3), "A's name stored while B holds its own")
    gate.release()
    held = b_proc.answer()
    check(held.get("ok"), "B's held command answers ok (a conflict is reported, not an error): %r" % held.get("error"))
    after = b_proc.screen()
    check(shop.book(dune) == ("Dune (A)", 3), "the database keeps the earlier store's name: %r" % (shop.book(dune),))
    check(cells(after).get("name") == "Dune (A)", "B now shows the name that won: %r" % cells(after))
    check_report(b_proc, [held, after], dune, "name", "Dune", "Dune (A)", "Dune (B)")
    a = a_proc.screen()
    check(cells(a).get("name") == "Dune (A)", "A keeps its name: %r" % cells(a))
    check(a_proc.conflicts() == [], "A, whose store came first, reports nothing: %r" % a_proc.conflicts())
    check(not any("Book" in w and "name" in w for w in warnings(a)), "nor warns: %r" % warnings(a))
    # The loser goes on storing: a later change of B lands.
    b_proc.do({"cmd": "set", "cell": "count", "value": 5})
    shop.wait_book(dune, ("Dune (A)", 5), "B's next change after the conflict")


def deletion_against_edit():
    shop = Shop(okit_run, cluster, work, "delete")
    gate = Gate(os.path.join(shop.work, "gate"))
    a_proc = shop.start("A")
    dune = row_ids(a_proc.screen())["Dune"]
    b_proc = shop.start("B", unsafe=True, env=gate.env("name", "Dune (edited)"))
    b_proc.screen()
    b_proc.do({"cmd": "tap", "row": "Dune"})

    b_proc.write({"cmd": "button", "id": "hold"})       # B renames Dune on its copy and waits
    gate.wait_held(b_proc)
    a_proc.do({"cmd": "delete", "row": "Dune"})
    a = a_proc.do({"cmd": "respond", "action": "Yes"})
    check("Dune" not in row_texts(a), "A no longer lists Dune: %r" % row_texts(a))
    shop.wait_book(dune, None, "A's deletion stored while B holds its edit")
    gate.release()
    held = b_proc.answer()
    check(held.get("ok"), "B's held command answers ok (a conflict is reported, not an error): %r" % held.get("error"))
    after = b_proc.screen()
    check(shop.book(dune) is None, "the deletion wins: the row stays deleted: %r" % (shop.book(dune),))
    check(shop.books() == {"Emma": 1, "Ulysses": 0}, "the other books are untouched: %r" % shop.books())
    check_report(b_proc, [held, after], dune, "name", "Dune", None, "Dune (edited)")
    if screen_of(after)["kind"] == "detail":                # B looked at the deleted book: back to the list
        b_proc.send({"cmd": "back"})
    b = b_proc.screen()
    check(screen_of(b)["kind"] == "list" and set(row_texts(b)) == {"Emma", "Ulysses"},
          "B's list no longer has the book it edited: %s %r" % (screen_of(b)["kind"], row_texts(b)))
    check(a_proc.conflicts() == [], "A, whose deletion came first, reports nothing: %r" % a_proc.conflicts())


checks.run("A and B both rename a book: B's later store loses the name and reports it", both_change_the_name)
checks.run("A deletes the book B edits: the deletion wins, B's edit is reported", deletion_against_edit)
checks.finish()
