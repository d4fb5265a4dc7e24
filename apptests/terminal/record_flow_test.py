#!/usr/bin/env python3
"""A terminal session recorded as a flow test (issue 40 item 2): a person types into `okit-run APP --record
tests/NAME_test.lua` on a real pseudo-terminal (apptests/flows/list_details_app.lua, copied with its test folder);
at quit the shell says where the test is, and the file, with rows named by their text, passes `okit-run test` as it
is. A second recording to the same name is refused before the shell starts.
Usage: record_flow_test.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import os
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pty_terminal  # noqa: E402

okit_run, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
folder = os.path.join(data, "details")
os.makedirs(os.path.join(folder, "tests"), exist_ok=True)
shutil.copy("apptests/flows/list_details_app.lua", os.path.join(folder, "app.lua"))
failures = []
checks = 0


def Terminal(args):
    """The shell on the recorded app in the test's folder, with `args`."""
    return pty_terminal.Terminal([okit_run, "app.lua", "--data", os.path.join(data, "d"), "--no-color"] + args, cwd=folder)


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


t = Terminal(["--record", "tests/anna_test.lua"])
t.read_until(["Zed", "\n> "])
t.type("tap 2", "Released")         # the rows are sorted by name (Anna, Dune, …): 2 is Dune, written by its text
t.type("close", "Zed")
t.type("edit on", "Zed")
t.type("select Anna", "Zed")
t.type("edit off", "Zed")
code, rest = t.end(b"quit\r")
check(code == 0, "quit exits 0, got %r: %s" % (code, rest))
check("tests/anna_test.lua" in rest, "the shell says where the test is: %r" % rest)
test_file = os.path.join(folder, "tests", "anna_test.lua")
text = open(test_file, encoding="utf-8").read() if os.path.exists(test_file) else ""
for line in ['local app = launch("../app.lua"', 'app:tap("Dune")', 'assert.equal("Dune", app:screen().screen.title)', 'app:close()',
             'assert.equal("Books", app:screen().screen.title)', 'app:edit(true)', 'app:select("Anna")', 'app:edit(false)']:
    check(line in text, "the test has %s:\n%s" % (line, text))
p = subprocess.run([okit_run, "test", "tests/anna_test.lua"], capture_output=True, text=True, cwd=folder, timeout=120)
check(p.returncode == 0 and "1 passed, 0 failed" in p.stdout, "the recorded test passes: %s %s\n%s" % (p.stdout, p.stderr, text))

t = Terminal(["--record", "tests/anna_test.lua"])
code, rest = t.end()
check(code == 2 and "tests/anna_test.lua exists; choose another name or delete it" in rest,
      "a second recording to the same name is refused: %r %r" % (code, rest))

# A protected app: the person's authentication at the cover is recorded as a test answers it.
locked = os.path.join(data, "locked")
os.makedirs(os.path.join(locked, "tests"), exist_ok=True)
with open(os.path.join(locked, "app.lua"), "w", encoding="utf-8") as f:
    f.write('local okit = require "okit"\n'
            'okit.entity("Note", { text = "string" })\n'
            'okit.entity("Notes", { notes = "[Note]" })\n'
            'notes = okit.model("Notes", { seed = function(r) r.notes:append(okit.new("Note", { text = "Milk" })) end })\n'
            'okit.list("notes", { titlePath = "%Notes", dataPath = "notes", cell = { path = "text" } })\n'
            'okit.app { home = "notes", protection = "#true", protectionText = "#Locked" }\n')
t = pty_terminal.Terminal([okit_run, "app.lua", "--data", os.path.join(data, "l"), "--no-color", "--record", "tests/locked_test.lua"],
                          cwd=locked)
t.read_until(["Milk", "\n> "])
t.type("background", "covered")
t.type("authenticate", "Milk")
code, rest = t.end(b"quit\r")
test_file = os.path.join(locked, "tests", "locked_test.lua")
text = open(test_file, encoding="utf-8").read() if os.path.exists(test_file) else ""
check("app:background()" in text and "app:authenticate(true)" in text, "the cover's answer is recorded:\n%s" % text)
p = subprocess.run([okit_run, "test", "tests/locked_test.lua"], capture_output=True, text=True, cwd=locked, timeout=120)
check(p.returncode == 0, "the recorded test of a protected app passes: %s %s\n%s" % (p.stdout, p.stderr, text))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
