#!/usr/bin/env python3
"""Drives the bookshop over the JSON-lines protocol, one command at a time, the way any program would:
write a line, read the answer, decide. Usage: drive_bookshop.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import subprocess
import sys

okit_run, data = sys.argv[1], sys.argv[2]
p = subprocess.Popen([okit_run, "examples/bookshop/app.lua", "--data", data, "--clock", "virtual", "--json"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
failures = []


def send(command):
    line = command if isinstance(command, str) else json.dumps(command)
    p.stdin.write(line + "\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    if not answer:
        sys.exit("okit-run ended early: " + p.stderr.read())
    return json.loads(answer)


def check(condition, what):
    if not condition:
        failures.append(what)


def rows(answer):
    return [r["text"] for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"]]


a = send({"cmd": "screen"})
check(a["ok"] and a["snapshot"]["screen"]["title"] == "Book Shop", "first screen is the book list")
check(rows(a) == ["Dune", "Emma"], "rows sorted by name: %r" % rows(a))

a = send({"cmd": "add"})
check(a["snapshot"]["alert"]["kind"] == "prompt", "add asks for the name")
a = send({"cmd": "respond", "action": "OK", "fields": ["Anna Karenina"]})
check(rows(a) == ["Anna Karenina", "Dune", "Emma"], "the new book is listed: %r" % rows(a))

a = send("search du")                                   # shell syntax works too
check(rows(a) == ["Dune"], "search narrows the rows")
a = send({"cmd": "search", "text": ""})

a = send({"cmd": "tap", "row": "Emma"})
check(a["snapshot"]["screen"]["id"] == "book" and a["snapshot"]["screen"]["subtitle"] == "Emma", "a tap opens the book")
a = send({"cmd": "set", "cell": "name", "value": "Emma (1815)"})
check(not a["ok"] and "edit mode" in a["error"], "cells take values in edit mode only: %r" % a)
send({"cmd": "edit", "on": True})
a = send({"cmd": "set", "cell": "Copies", "value": 99})
cells = {r["id"]: r for s in a["snapshot"]["screen"]["sections"] for r in s["rows"]}
check(cells["Copies"]["control"]["value"] == 10, "the stepper clamps to its maximum: %r" % cells["Copies"]["control"])
send({"cmd": "back"})

a = send({"cmd": "delete", "row": 1})
check(a["snapshot"]["alert"]["title"] == "Confirm Deletion", "delete confirms")
a = send({"cmd": "tap", "row": 1})
check(not a["ok"] and "alert" in a["error"], "an alert blocks other commands")
a = send({"cmd": "respond", "action": "Yes"})
check(rows(a) == ["Dune", "Emma"], "the book is gone: %r" % rows(a))

a = send({"cmd": "fly"})
check(not a["ok"] and "unknown command" in a["error"], "unknown commands answer an error")
a = send("{not json")
check(not a["ok"], "a malformed line answers an error")

a = send({"cmd": "quit"})
p.wait(timeout=30)
check(p.returncode == 0, "quit exits 0")

# The state was stored: a new session sees the clamped copies.
again = subprocess.run([okit_run, "examples/bookshop/app.lua", "--data", data, "--clock", "virtual", "--json"],
                       input='{"cmd":"tap","row":"Emma"}\n', capture_output=True, text=True, timeout=60)
answer = json.loads(again.stdout.splitlines()[0])
cells = {r["id"]: r for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"]}
check(cells["Copies"]["control"]["value"] == 10, "the change was stored")

for f in failures:
    print("FAIL:", f)
print("jsonlines: %d checks failed" % len(failures) if failures else "jsonlines: ok")
sys.exit(1 if failures else 0)
