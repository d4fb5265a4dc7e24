#!/usr/bin/env python3
"""A shared model a newer app version stored (storage.md "Versions"), against a real PostgreSQL cluster: an older
app's start is refused with exit code 4, naming the model once (it said `model "default": model "default" was stored
by version 2`, the place of a database model being its name), and its advice says that restoring a backup of a model
shared in a database also undoes what every other process stored since.
Usage: newer_version.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster  # noqa: E402
from okitjson import Checks  # noqa: E402
from pgshop import Shop  # noqa: E402

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
checks = Checks("postgres newer version")
check = checks.check
cluster = pgcluster.start()


def refused():
    shop = Shop(okit_run, cluster, work, "newer")
    a = shop.start("A")
    a.screen()
    check(a.quit() == 0, "A seeds the shared model and quits:\n%s" % a.stderr)
    shop.psql("UPDATE okit_models SET schema_version = 2")          # as a version 2 app's migration leaves it
    b = shop.start("B")
    try:
        b.screen()
    except Exception:
        pass
    code = b.p.wait(timeout=60)
    b._err_reader.join(timeout=5)
    said = b.stderr
    check(code == 4, "an older app's start is refused with exit code 4, got %r:\n%s" % (code, said))
    check('model "default" was stored by version 2 of the app, and this app is version 1' in said,
          "the refusal names the versions:\n%s" % said)
    check('model "default": model "default"' not in said, "the model is named once:\n%s" % said)
    check("also undoes what every other process stored since" in said,
          "the advice says what a restore of a shared model undoes:\n%s" % said)


checks.run("an older app meets a shared model of a newer version", refused)
checks.finish()
