#!/usr/bin/env python3
"""One bad value never blocks the rest (quality.md promise 10, storage.md "Values a database refuses"; issue 34
item 1), performed against a real `okit-run serve` over a throwaway PostgreSQL cluster (serve_shop.lua):

1. A NUL through the web form: one visitor posts `%00` in a book's name; the write is refused in a person's
   words naming the field; another visitor's change reaches the database; SIGTERM and a restart lose
   nothing (before: PostgreSQL refused the row, every later store of the process failed, and the other visitors'
   acknowledged changes were lost at the restart).
2. A value the database refuses (a CHECK constraint another program added): the store sets that value aside
   (named, with the database's reason, in okit/refused.jsonl and the server's log; the page says the field and the
   value in the app's words), the other changes are stored, the next change of another visitor is stored too.
3. A store the database refuses as a whole (a trigger refuses every update): every change stays pending on disk,
   SIGTERM keeps the file, and the next start stores it once the database takes it.
Usage: refused_values.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster  # noqa: E402
from okitjson import Checks, poll  # noqa: E402
from pgserve import Serve  # noqa: E402

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(work, exist_ok=True)
checks = Checks("postgres refused values")
check = checks.check
cluster = pgcluster.start()


def books(url):
    """name → count of the shop's books in the database."""
    out = cluster.psql('SELECT name, count FROM "Book" WHERE okit_model = \'default\' ORDER BY okit_position', url)
    return {l.rsplit("|", 1)[0]: int(l.rsplit("|", 1)[1]) for l in out.split("\n") if l}


def wait_books(url, expected, what):
    poll(lambda: (lambda b: (b == expected, b))(books(url)), 30, what)


def nul_through_the_form():
    url = cluster.new_database()
    serve = Serve(okit_run, url, work, "nul").start()
    one, two = serve.visitor(), serve.visitor()
    page = one.set_field("dune", "Name", "Dune\x00 of evil")
    check("Name: a text cannot hold the NUL character; remove it (nothing was changed)." in page.plain,
          "the NUL write is refused in a person's words naming the field; the page:\n%s" % page.plain[-3000:])
    check("Book dune" not in page.plain and "model \"default\"" not in page.plain,
          "no model name or id on the page (web.md: errors a person meets)")
    page = two.set_field("emma", "Count", "42")
    check("NUL" not in page.plain, "the other visitor's page carries no error: %s" % page.plain[-2000:])
    two.add_book("Persuasion")
    wait_books(url, {"Dune": 3, "Emma": 42, "Persuasion": 0}, "the other visitor's changes reach the database")
    page = one.set_field("dune", "Name", "Dune Messiah")
    wait_books(url, {"Dune Messiah": 3, "Emma": 42, "Persuasion": 0}, "the first visitor's next change is stored")
    serve.stop()
    out = serve.output()
    check("stored the state and stopped" in out, "SIGTERM stores the state and stops; output:\n%s" % out)
    check("not in the database yet" not in out and "refused" not in out, "nothing pending or refused at SIGTERM:\n%s" % out)
    check(not os.path.exists(serve.pending), "no pending file is left")
    serve.start()
    listed = serve.visitor().get("/books").text
    check(all(n in listed for n in ("Dune Messiah", "Persuasion", ">42<")), "after the restart every change is there:\n%s" % listed)
    check(books(url) == {"Dune Messiah": 3, "Emma": 42, "Persuasion": 0}, "the database after the restart: %r" % books(url))
    serve.stop()


def value_the_database_refuses():
    url = cluster.new_database()
    serve = Serve(okit_run, url, work, "check").start()
    cluster.psql('ALTER TABLE "Book" ADD CONSTRAINT few CHECK (count < 1000)', url)
    one, two = serve.visitor(), serve.visitor()
    page = one.set_field("dune", "Count", "5000")
    check('Not saved: Count "5000"' in page.plain,
          "the page names the field by its label and the value, in the app's words; the page:\n%s" % page.plain[-3000:])
    check(not any(t in page.plain for t in ("postgres://", "refused.jsonl", "few", "model \"default\"", "{\"")),
          "no database URL, server file, database text, model name or JSON row on the page (web.md)")
    out = serve.output()
    check("model \"default\", Book dune, field count: the database refused 5000" in out and "\"few\"" in out
          and "every other change was stored" in out,
          "the server's log keeps the model, entity, field and the database's reason:\n%s" % out[-3000:])
    check(">5000<" not in one.get("/books").text, "the process shows what the database holds, not the refused value")
    two.set_field("emma", "Count", "7")
    two.set_field("emma", "Name", "Emma W.")
    wait_books(url, {"Dune": 3, "Emma W.": 7}, "the other visitor's changes are stored after the refusal")
    with open(serve.refused) as f:
        lines = [json.loads(l) for l in f.read().splitlines()]
    check(len(lines) == 1 and (lines[0]["type"], lines[0]["id"], lines[0]["field"], lines[0]["value"]) == ("Book", "dune", "count", 5000),
          "the refused value is kept aside in okit/refused.jsonl: %r" % lines)
    check("few" in lines[0].get("reason", ""), "with the database's reason: %r" % lines)
    serve.stop()
    check("stored the state and stopped" in serve.output() and not os.path.exists(serve.pending),
          "SIGTERM stores the state and leaves nothing pending:\n%s" % serve.output())
    serve.start()
    check(books(url) == {"Dune": 3, "Emma W.": 7}, "after the restart: %r" % books(url))
    serve.stop()


def store_the_database_refuses_whole():
    url = cluster.new_database()
    serve = Serve(okit_run, url, work, "trigger").start()
    cluster.psql("""CREATE FUNCTION no_updates() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'updates are closed' USING ERRCODE = '42501'; END $$;
                    CREATE TRIGGER no_updates BEFORE UPDATE ON "Book" FOR EACH ROW EXECUTE FUNCTION no_updates()""", url)
    page = serve.visitor().set_field("emma", "Count", "8")
    check("the database refused the store of model \"default\": updates are closed" in page.plain and "pending" in page.plain,
          "the refusal is named and the changes stay pending; the page:\n%s" % page.plain[-3000:])
    check(os.path.exists(serve.pending), "the changes are on disk: %s" % serve.pending)
    serve.stop()
    check(os.path.exists(serve.pending), "SIGTERM keeps the pending file")
    check(books(url) == {"Dune": 3, "Emma": 1}, "nothing was written meanwhile: %r" % books(url))
    cluster.psql('DROP TRIGGER no_updates ON "Book"', url)
    serve.start()
    check(books(url) == {"Dune": 3, "Emma": 8}, "the next start stores the pending change: %r" % books(url))
    check(not os.path.exists(serve.pending), "and removes the pending file")
    serve.stop()


checks.run("a NUL through the web form", nul_through_the_form)
checks.run("a value the database refuses", value_the_database_refuses)
checks.run("a store the database refuses whole", store_the_database_refuses_whole)
checks.finish()
