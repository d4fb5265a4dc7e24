#!/usr/bin/env python3
"""TLS to a shared model's database fails closed (storage.md "Connection", issue 34 item 9), against real
PostgreSQL clusters: one with TLS on (a certificate of a test authority, for localhost) and one without.

- `verify-full` with the test authority as sslrootcert connects, over TLS (pg_stat_ssl says so for every
  connection of the process); `verify-ca` and `require` too.
- The attacks: `verify-full` against a certificate no trusted authority signed (the system's authorities), and
  `verify-full` with an sslrootcert that does not exist (no TLS context can be made; before, okit turned TLS off and
  connected in plain text to a server that takes both) — each stops the app with exit 4 and a message that says
  what to do, and nothing is written to the database.
- `require` against a server without TLS stops the same way; `prefer` (the default) connects in plain text there.
Usage: tls_modes.py OKIT_RUN WORK_DIR. Exit 0 when every check holds."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pgcluster  # noqa: E402
from okitjson import Checks, Okit  # noqa: E402
from pgshop import APP  # noqa: E402

okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(work, exist_ok=True)
checks = Checks("postgres tls modes")
check = checks.check
tls_cluster = pgcluster.start(ssl=True)
plain_cluster = pgcluster.start()
runs = [0]


def url_of(cluster, database, host, query):
    return "postgres://okit@%s:%d/%s?%s" % (host, cluster.port, database, query)


def tables(cluster, database):
    return cluster.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", database)


def refused(cluster, host, query, says):
    """okit-run with this URL stops with exit 4, saying `says`, and leaves the database without a table."""
    def part():
        database = cluster.new_database().rsplit("/", 1)[1]
        runs[0] += 1
        env = {k: v for k, v in os.environ.items() if not k.startswith("OKIT_")}
        env["OKIT_DATABASE_URL"] = url_of(cluster, database, host, query)
        r = subprocess.run([okit_run, APP, "--json", "--data", os.path.join(work, "refused-%d" % runs[0])],
                           input='{"cmd":"screen"}\n', capture_output=True, text=True, timeout=120, env=env)
        check(r.returncode == 4, "exit code 4, got %d; stderr:\n%s" % (r.returncode, r.stderr))
        for s in says:
            check(s in r.stderr, "the message says %r; stderr:\n%s" % (s, r.stderr))
        check(r.stdout == "", "no answer: %r" % r.stdout[:500])
        check(tables(cluster, database) == "0", "nothing was written to the database (tables: %s)" % tables(cluster, database))
    return part


def connects(cluster, host, query, over_tls):
    """okit-run with this URL starts, seeds the shop, and each of its connections uses TLS (or not)."""
    def part():
        database = cluster.new_database().rsplit("/", 1)[1]
        runs[0] += 1
        p = Okit(okit_run, APP, os.path.join(work, "connects-%d" % runs[0]), "A", url=url_of(cluster, database, host, query))
        p.screen()
        ssl = cluster.psql("SELECT string_agg(s.ssl::text, ',' ORDER BY s.pid) FROM pg_stat_ssl s JOIN pg_stat_activity a "
                           "USING (pid) WHERE a.datname = '%s' AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'"
                           % database, database)
        want = "true,true" if over_tls else "false,false"
        check(ssl == want, "the process's two connections (queries, listening) use TLS: %s, want %s" % (ssl, want))
        check(cluster.psql('SELECT count(*) FROM "Book"', database) == "3", "the shop is seeded")
        code = p.quit()
        check(code == 0, "quits with 0: %d\n%s" % (code, p.stderr))
    return part


ca = tls_cluster.ca_file
checks.run("verify-full with the test authority", connects(tls_cluster, "localhost", "sslmode=verify-full&sslrootcert=" + ca, True))
checks.run("verify-ca with the test authority", connects(tls_cluster, "127.0.0.1", "sslmode=verify-ca&sslrootcert=" + ca, True))
checks.run("require", connects(tls_cluster, "127.0.0.1", "sslmode=require", True))
checks.run("verify-full against a certificate no trusted authority signed", refused(
    tls_cluster, "localhost", "sslmode=verify-full",
    ["cannot connect over TLS (nothing was read or written): the TLS handshake failed", "sslrootcert=FILE"]))
checks.run("verify-full without a TLS context (sslrootcert that does not exist)", refused(
    tls_cluster, "localhost", "sslmode=verify-full&sslrootcert=/nonexistent/root.crt",
    ["sslmode=verify-full needs TLS, but no TLS context could be made with the certificates in sslrootcert=/nonexistent/root.crt",
     "so nothing was sent to the server"]))
checks.run("require without a TLS context", refused(
    tls_cluster, "127.0.0.1", "sslmode=require&sslrootcert=/nonexistent/root.crt",
    ["sslmode=require needs TLS, but no TLS context could be made"]))
checks.run("require against a server without TLS", refused(
    plain_cluster, "127.0.0.1", "sslmode=require",
    ["the server does not offer TLS, which sslmode=require demands"]))
checks.run("prefer against a server without TLS", connects(plain_cluster, "127.0.0.1", "sslmode=prefer", False))
checks.finish()
