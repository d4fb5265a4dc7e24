#!/usr/bin/env python3
"""Shared models on PostgreSQL (storage.md, issue 18): a database that cannot be reached when the app starts stops
it with exit code 4 and a message that names the database URL without its password — whether the password is in
the URL or in OKIT_DATABASE_PASSWORD — and no model is started fresh. Nothing listens on the port.
Usage: unreachable.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster
from okitjson import Checks
from pgshop import APP

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks("postgres unreachable at start")
check = checks.check


def start(label, url, password=None):
    data = os.path.join(work, label)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKIT_")}
    env["OKIT_DATABASE_URL"] = url
    if password:
        env["OKIT_DATABASE_PASSWORD"] = password
    r = subprocess.run([okit_run, APP, "--json", "--data", data], input='{"cmd":"screen"}\n', capture_output=True,
                       text=True, timeout=120, env=env)
    return r, data


def refused(label, url, password, shown):
    def part():
        r, data = start(label, url, password)
        said = r.stdout + r.stderr
        check(r.returncode == 4, "exit code 4 when the database cannot be reached, got %d; it printed:\n%s"
              % (r.returncode, said))
        check(shown in r.stderr, "the message names the URL %s; stderr:\n%s" % (shown, r.stderr))
        check("secret" not in said, "the password is not printed; it printed:\n%s" % said)
        check(r.stdout == "", "no answer on stdout: %r" % r.stdout)
        files = []
        for folder, _, names in os.walk(data):
            for n in names:
                path = os.path.join(folder, n)
                with open(path, "rb") as f:
                    if b"secret" in f.read():
                        files.append(path)
        check(files == [], "no file of the data folder holds the password: %r" % files)
    return part


port = pgcluster.free_port()                           # free a moment ago: nothing listens there
checks.run("the password in the URL", refused(
    "in-url", "postgres://okit:secret@127.0.0.1:%d/db" % port, None, "postgres://okit@127.0.0.1:%d/db" % port))
checks.run("the password in OKIT_DATABASE_PASSWORD", refused(
    "in-env", "postgres://okit@127.0.0.1:%d/db" % port, "secret", "postgres://okit@127.0.0.1:%d/db" % port))
checks.finish()
