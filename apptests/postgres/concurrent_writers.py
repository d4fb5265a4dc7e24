#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md "Conflicts", issue 18): 16 processes set the count of one book to
their own number at about the same time (every command written before any answer is read). Every write either
landed — it was committed, as a trigger the test puts on the Book table records — or is reported as a conflict
in that process's okit/conflicts.jsonl (field count, mine = its number); never neither (a lost write), never both.
The final value is one of the written ones (the last committed), and every process shows it in the end.
Usage: concurrent_writers.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks, cells, poll, row_ids, warnings
from pgshop import Shop, q

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres 16 concurrent writers")
check = checks.check
cluster = pgcluster.start()
WRITERS = 16


def value_of(i):
    return 100 + i


def log_trigger(book_id):
    """Every committed value of the book's count, in commit order (a trigger's insert commits with the write)."""
    return """
CREATE TABLE okit_test_count_log (n bigserial PRIMARY KEY, value bigint);
CREATE FUNCTION okit_test_log_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.okit_model = 'default' AND NEW.id::text = %s
     AND (TG_OP = 'INSERT' OR NEW."count" IS DISTINCT FROM OLD."count") THEN
    INSERT INTO okit_test_count_log (value) VALUES (NEW."count");
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER okit_test_count_log AFTER INSERT OR UPDATE ON "Book" FOR EACH ROW EXECUTE FUNCTION okit_test_log_count();
""" % q(book_id)


def sixteen():
    shop = Shop(okit_run, cluster, work, "writers")
    first = shop.start("seeder")
    dune = row_ids(first.screen())["Dune"]
    code = first.quit()
    check(code == 0, "the seeding process quits with 0: %d\n%s" % (code, first.stderr))
    shop.psql(log_trigger(dune))

    writers = [shop.start("writer %d" % i, folder="w%d" % i) for i in range(1, WRITERS + 1)]
    for w in writers:
        w.write({"cmd": "tap", "row": "Dune"})
    for w in writers:
        a = w.answer()
        check(a.get("ok") and cells(a).get("count") == 3, "%s opens Dune (count 3): %r" % (w.name, a.get("error") or cells(a)))
    for i, w in enumerate(writers, 1):                  # all commands out before any answer is read
        w.write({"cmd": "set", "cell": "count", "value": value_of(i)})
    answers = [w.answer() for w in writers]
    for w, a in zip(writers, answers):
        check(a.get("ok"), "%s's set answers ok (a conflict is reported, not an error): %r" % (w.name, a.get("error")))
    followups = [w.screen() for w in writers]        # a warning of a store retried after the answer comes here

    landed = [int(v) for v in shop.psql("SELECT value FROM okit_test_count_log ORDER BY n").split("\n") if v]
    final = shop.book(dune)
    written = {value_of(i) for i in range(1, WRITERS + 1)}
    check(final is not None and final[1] in written, "the final count is one of the written values: %r" % (final,))
    check(landed and final and landed[-1] == final[1], "the final count is the last committed: %r, commits %r"
          % (final, landed))
    check(set(landed) <= written, "only written values were committed: %r" % landed)
    check(len(landed) == len(set(landed)), "each value committed once: %r" % landed)
    reported_total = 0
    for i, (w, a, f) in enumerate(zip(writers, answers, followups), 1):
        v = value_of(i)
        mine = [c for c in w.conflicts() if c.get("field") == "count" and str(c.get("mine")) == str(v)]
        others = [c for c in w.conflicts() if c not in mine]
        said = [x for x in warnings(a) + warnings(f) if "count" in x and "Book" in x]
        is_landed, is_reported = v in landed, bool(mine)
        reported_total += is_reported
        check(is_landed or is_reported, "%s's write of %d neither landed nor was reported (lost)" % (w.name, v))
        check(not (is_landed and is_reported), "%s's write of %d landed yet was reported as lost: %r"
              % (w.name, v, mine))
        check(len(mine) <= 1, "%s reported its write once: %r" % (w.name, mine))
        check(others == [], "%s reported nothing else: %r" % (w.name, others))
        check(bool(said) == is_reported, "%s warns (naming Book and count) exactly when it reports: warnings %r, "
              "reported %r" % (w.name, said, is_reported))
        for c in mine:
            check(c.get("model") == "default" and c.get("type") == "Book" and c.get("id") == dune,
                  "%s's conflict names the model, type and id: %r" % (w.name, c))
    print("  %d writes landed, %d reported as conflicts" % (len(landed), reported_total))

    for w in writers:                                   # everybody ends on the final value
        poll(lambda: (lambda a: (cells(a).get("count") == final[1], cells(a)))(w.screen()), 30,
             "%s shows the final count %d" % (w.name, final[1]))
    check(shop.book(dune) == final, "no write after the end: %r then %r" % (final, shop.book(dune)))


checks.run("16 processes set one book's count at once: each write lands or is reported", sixteen)
checks.finish()
