#!/usr/bin/env python3
"""Validation over JSON lines (lua-api.md "Validation"): a set the field's rules refuse answers ok: false with the
rule's message and changes nothing; detail cells carry `invalid` (null when valid) after `control`; the message
follows a write.
Usage: validation.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import subprocess
import sys

okit_run, data = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


p = subprocess.Popen([okit_run, "apptests/flows/validation_app.lua", "--data", os.path.join(data, "v"), "--clock", "virtual",
                      "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def send(command):
    p.stdin.write((command if isinstance(command, str) else json.dumps(command)) + "\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    if not answer:
        sys.exit("okit-run ended early: " + p.stderr.read())
    return json.loads(answer)


def cells(answer):
    return {r["id"]: r for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"]}


send({"cmd": "tap", "row": "Lunch"})
a = send({"cmd": "edit", "on": True})
c = cells(a)
check(c["Title"]["invalid"] is None, "a valid cell has invalid: null: %r" % c["Title"])
check(list(c["Title"].keys())[-2:] == ["control", "invalid"], "invalid follows control: %r" % list(c["Title"].keys()))
a = send({"cmd": "set", "cell": "Title", "value": ""})
check(a == {"ok": False, "error": "Title is required"}, "the rule's message: %r" % a)
a = send("set Amount -5")
check(not a["ok"] and a["error"] == "Amount must be at least 0", "shell syntax too: %r" % a)
a = send({"cmd": "screen"})
check(cells(a)["Title"]["text"] == "Lunch" or cells(a)["Title"]["control"]["value"] == "Lunch", "nothing changed: %r" % cells(a)["Title"])
a = send({"cmd": "set", "cell": "Amount", "value": "150"})
check(a["ok"] and cells(a)["Receipt"]["invalid"] == "A receipt is needed above 100",
      "the receipt cell follows the amount its rule reads: %r" % cells(a)["Receipt"])
a = send({"cmd": "set", "cell": "Receipt", "value": "R-1"})
check(a["ok"] and cells(a)["Receipt"]["invalid"] is None, "valid again: %r" % cells(a)["Receipt"])
send({"cmd": "quit"})
p.wait(timeout=30)

if failures:
    print("\n".join(failures))
    sys.exit(1)
