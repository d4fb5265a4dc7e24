#!/usr/bin/env python3
"""Warnings over JSON lines (issue 12): the answer of the command that produced a warning carries it in a
`warnings` field (absent when there is none); the first answer carries those of loading the app; `warnings`
lists them all; what no answer carried is printed to stderr at exit, and stdout stays pure JSON lines. Also:
respond matches an action's title without regard to case; an unknown command suggests the nearest one; `?` and
`commands` list the command names.
Usage: warnings_and_respond.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import subprocess
import sys

okit_run, data = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def start(app, folder):
    return subprocess.Popen([okit_run, app, "--data", folder, "--clock", "virtual", "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def send(p, command):
    p.stdin.write((command if isinstance(command, str) else json.dumps(command)) + "\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    if not answer:
        sys.exit("okit-run ended early: " + p.stderr.read())
    return json.loads(answer)


p = start("apptests/flows/shell_app.lua", os.path.join(data, "shell"))
a = send(p, {"cmd": "screen"})
check(a["ok"] and "warnings" not in a, "no warnings field when there is none: %r" % a.get("warnings"))
a = send(p, {"cmd": "tap", "row": "Write"})
check(a["ok"] and a["snapshot"]["screen"]["id"] == "task", "the tap opens the task")
w = a.get("warnings", [])
check(len(w) == 1 and "nosuch" in w[0], "the tap's answer carries the warning it produced: %r" % w)
a = send(p, {"cmd": "back"})
check("warnings" not in a, "a warning is carried once: %r" % a.get("warnings"))
a = send(p, {"cmd": "warnings"})
check(a == {"ok": True, "warnings": w}, "warnings lists them all: %r" % a)
a = send(p, {"cmd": "more", "row": 1})
check(a["snapshot"]["alert"]["actions"] == ["Archive", "Duplicate", "Cancel"], "the more sheet: %r" % a["snapshot"]["alert"])
a = send(p, {"cmd": "respond", "action": "archive"})
check(a["ok"] and a["snapshot"]["alert"] is None, "respond archive answers Archive: %r" % a)
check(a["ok"] and a["snapshot"]["screen"]["sections"][0]["rows"][0]["text"] == "Write ✓", "Archive ran")
a = send(p, "tpa 1")
check(not a["ok"] and 'did you mean "tap"?' in a["error"], "unknown commands suggest one: %r" % a)
a = send(p, "?")
check(a["ok"] and "tap" in a["commands"] and "warnings" in a["commands"], "? lists the commands: %r" % a)
check(send(p, {"cmd": "commands"}) == a, "and so does the commands command")
out, err = p.communicate("", timeout=30)
check(p.returncode == 0 and out == "", "end of input stores and exits 0: %r %r" % (p.returncode, out))
check("warning" not in err, "warnings an answer carried are not printed again at exit: %r" % err)

# The warnings of loading (an unknown property) come in the first answer, and on stderr as before.
folder = os.path.join(data, "loading")
os.makedirs(folder, exist_ok=True)
app = os.path.join(folder, "app.lua")
with open(app, "w") as f:
    f.write('okit.entity("Item", { name = "string" })\nokit.entity("Root", { items = "[Item]" })\n'
            'root = okit.model("Root")\n'
            'okit.list("items", { type = "Item", dataPath = "items", cell = { path = "name" }, titelPath = "%Items" })\n'
            'okit.app { id = "loading", home = "items" }\n')
p = start(app, os.path.join(folder, "data"))
a = send(p, {"cmd": "screen"})
w = a.get("warnings", [])
check(len(w) == 1 and "titelPath" in w[0] and "titlePath" in w[0], "the first answer carries the load warnings: %r" % w)
a = send(p, {"cmd": "screen"})
check("warnings" not in a, "only the first: %r" % a.get("warnings"))
out, err = p.communicate('{"cmd":"quit"}\n', timeout=30)
check(json.loads(out) == {"ok": True}, "quit answers ok: %r" % out)
check("okit-run: warning: " in err and "titelPath" in err, "load warnings on stderr too: %r" % err)

if failures:
    print("\n".join(failures))
    sys.exit(1)
