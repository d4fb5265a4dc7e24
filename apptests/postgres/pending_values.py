#!/usr/bin/env python3
"""Pending files are checked like any other write (storage.md "Values a database refuses", quality.md promise 10;
issue 34 item 7), against a real PostgreSQL cluster: a process takes changes while the database is away and quits,
keeping them in <data>/okit/pending/default.postgres.json. The file is then changed by hand so that Dune's row holds
a text for the int field `count` and Ulysses' row a count that does not read. At the next start with the database back, that value is reported with the file,
the model, the entity and the field, set aside in okit/refused.jsonl and never written (before: it was written as
NULL, silently); the row's other change (the name) and the other row (Emma's count) are stored.
Usage: pending_values.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster  # noqa: E402
from okitjson import Checks, offline, poll, row_ids, warnings  # noqa: E402
from pgshop import Shop  # noqa: E402

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
checks = Checks("postgres pending values")
check = checks.check
cluster = pgcluster.start()


def text_for_an_int():
    shop = Shop(okit_run, cluster, work, "pending")
    a = shop.start("A")
    ids = row_ids(a.screen())
    a.do({"cmd": "tap", "row": "Dune"})
    cluster.stop_server("fast")
    a.do({"cmd": "set", "cell": "count", "value": 7})
    poll(lambda: (lambda x: (offline(x) is True, offline(x)))(a.screen()), 30, "A is offline")
    a.do({"cmd": "set", "cell": "name", "value": "Dune (offline)"})
    a.do({"cmd": "back"})
    a.do({"cmd": "tap", "row": "Emma"})
    a.do({"cmd": "set", "cell": "count", "value": 9})
    a.do({"cmd": "back"})
    a.do({"cmd": "tap", "row": "Ulysses"})
    a.do({"cmd": "set", "cell": "count", "value": 5})
    code = a.quit()
    check(code == 0 and "not in the database yet" in a.stderr, "A quits with its changes pending (exit %d):\n%s" % (code, a.stderr))
    pending = os.path.join(a.data, "okit", "pending", "default.postgres.json")
    with open(pending) as f:
        text = f.read()
    check('{"i":7}' in text and '{"i":5}' in text, "the pending file holds Dune's count 7 and Ulysses' 5: %s" % text)
    # Dune's count a text; Ulysses' count a value that does not read (the old reader made it NULL).
    with open(pending, "w") as f:
        f.write(text.replace('{"i":7}', '{"s":"seven"}').replace('{"i":5}', '{"i":"five"}'))

    cluster.start_server()
    a2 = shop.start("A")
    first = a2.screen()
    said = "\n".join(warnings(first)) + "\n" + a2.stderr
    expected = 'model "default", Book %s, field count: expected an INTEGER, found the TEXT "seven" (in %s)' % (ids["Dune"], pending)
    check(expected in said, "the value is reported with its file, model, entity and field; said:\n%s" % said)
    check(shop.book(ids["Dune"]) == ("Dune (offline)", 3), "Dune: the name is stored, the count is not written: %r" % (shop.book(ids["Dune"]),))
    check(shop.book(ids["Emma"]) == ("Emma", 9), "the other row is stored: %r" % (shop.book(ids["Emma"]),))
    check("Book %s, field count: the value does not read" % ids["Ulysses"] in said, "the unreadable value is reported:\n%s" % said)
    check(shop.book(ids["Ulysses"]) == ("Ulysses", 0), "Ulysses keeps its count: %r" % (shop.book(ids["Ulysses"]),))
    nulls = shop.psql('SELECT count(*) FROM "Book" WHERE count IS NULL')
    check(nulls == "0", "no NULL reached the table: %s rows" % nulls)
    with open(os.path.join(a.data, "okit", "refused.jsonl")) as f:
        lines = [json.loads(l) for l in f.read().splitlines()]
    check(sorted((l["type"], l["id"], l["field"], str(l["value"]), l["source"]) for l in lines)
          == sorted([("Book", ids["Dune"], "count", "seven", pending), ("Book", ids["Ulysses"], "count", "None", pending)]),
          "the value is kept aside in okit/refused.jsonl: %r" % lines)
    check(not os.path.exists(pending), "the pending file is gone once replayed")
    code = a2.quit()
    check(code == 0, "A quits with 0: %d\n%s" % (code, a2.stderr))


checks.run("a pending text for an int field", text_for_an_int)
checks.finish()
