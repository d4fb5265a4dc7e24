#!/usr/bin/env python3
"""A JSON-lines session recorded as a flow test (issue 40 item 2): `okit-run APP --json --record tests/NAME_test.lua`
writes every command as a line of a flow test, rows and actions named by what the person saw (no ids); the written
file passes under `okit-run test` as it is, and fails naming the title when the app's title changes. An existing
test is never overwritten; a session that starts from stored data saves it beside the test as fixtures; any other
path keeps the replay log (a `.lua` one with a note); one line is "1 line"; a folder that takes no file is refused
before the session, in plain words.
Usage: record_flow_test.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import re
import subprocess
import sys

okit_run, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


APP = """local okit = require "okit"
okit.entity("Book", { name = "string", note = "string" })
okit.entity("Shelf", { books = "[Book]" })
shelf = okit.model("Shelf", { seed = function(root)
  root.books:append(okit.new("Book", { name = "Dune" }))
end })
okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Reading List", cell = { path = "name" },
  segue = "book", addName = "name" })
okit.detail("book", { titlePath = "name", sections = { { okit.cell.text { path = "%Note", textPath = "note" } } } })
okit.app { id = "shelf", home = "books" }
"""
folder = os.path.join(data, "shelf")
os.makedirs(os.path.join(folder, "tests"), exist_ok=True)
with open(os.path.join(folder, "app.lua"), "w") as f:
    f.write(APP)


def session(test_path, commands, data_folder, options=()):
    """Runs `commands` (dicts) over JSON lines with --record; returns (exit code, answers, stderr)."""
    p = subprocess.run([okit_run, "app.lua", "--json", "--data", data_folder, "--record", test_path, *options],
                       input="".join(json.dumps(c) + "\n" for c in commands), capture_output=True, text=True,
                       cwd=folder, timeout=120)
    return p.returncode, [json.loads(l) for l in p.stdout.splitlines() if l.strip()], p.stderr


def run_test(path):
    p = subprocess.run([okit_run, "test", path], capture_output=True, text=True, cwd=folder, timeout=120)
    return p.returncode, p.stdout + p.stderr


def row_id(answer, text):
    rows = [r for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"] if r["text"] == text]
    return rows[0]["id"] if rows else None


# Add Emma through the name prompt, tap her by id, set her note, back, delete Dune with the confirmation.
data_folder = os.path.join(data, "d")
p = subprocess.Popen([okit_run, "app.lua", "--json", "--data", data_folder, "--record", "tests/emma_test.lua"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, cwd=folder)


def send(command):
    p.stdin.write(json.dumps(command) + "\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    if not answer:
        sys.exit("okit-run ended early: " + p.stderr.read())
    return json.loads(answer)


send({"cmd": "add"})
a = send({"cmd": "respond", "action": "ok", "fields": ["Emma"]})
emma = row_id(a, "Emma")
check(emma is not None, "Emma was added: %r" % a)
send({"cmd": "tap", "row": emma})
send({"cmd": "edit", "on": True})
a = send({"cmd": "set", "cell": 1, "value": 'a gift, "signed" \\ 1965'})
check(a["ok"], "the note was set: %r" % a)
send({"cmd": "back"})
a = send({"cmd": "delete", "row": row_id(a, "Dune") or "Dune"})
check(a["ok"] and a["snapshot"]["alert"]["actions"][0] == "Yes", "delete asks to confirm: %r" % a)
a = send({"cmd": "respond", "action": 1})
a = send({"cmd": "tap", "row": "Dnue"})
check(not a["ok"], "a typo fails: %r" % a)
p.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
p.stdin.close()
p.wait(timeout=60)
err = p.stderr.read()
check(p.returncode == 0, "the session ends well: %r %s" % (p.returncode, err))
test_file = os.path.join(folder, "tests", "emma_test.lua")
check("tests/emma_test.lua" in err, "okit-run says where the test is: %r" % err)
text = open(test_file, encoding="utf-8").read() if os.path.exists(test_file) else ""
for line in ['local launch = require("okit.test").launch', 'describe("shelf", function()', 'it("emma", function()',
             'local app = launch("../app.lua", { now = "', 'app:add()', 'app:respond("OK", { "Emma" })',
             'app:tap("Emma")', 'assert.equal("Emma", app:screen().screen.title)', 'app:edit(true)',
             'app:set("Note", "a gift, \\"signed\\" \\\\ 1965")', 'app:back()',
             'assert.equal("Reading List", app:screen().screen.title)', 'app:delete("Dune")', 'app:respond("Yes")',
             'assert.has_error(function() app:tap("Dnue") end, "no row \\"Dnue\\"']:
    check(line in text, "the test has %s:\n%s" % (line, text))
check(not re.search(r"[0-9A-F]{8}-[0-9A-F]{4}-", text), "no ids in the test:\n%s" % text)
check("_data" not in text, "a fresh data folder needs no fixtures:\n%s" % text)

code, out = run_test("tests/emma_test.lua")
check(code == 0 and "1 passed, 0 failed" in out, "the recorded test passes as it is: %s\n%s" % (out, text))

# Never over an existing test: refused before the app runs, the file unchanged.
code, answers, err = session("tests/emma_test.lua", [{"cmd": "tap", "row": 1}], os.path.join(data, "d2"))
check(code == 2 and "tests/emma_test.lua exists; choose another name or delete it" in err and not answers,
      "an existing test is refused: %r %r %r" % (code, err, answers))
check(open(test_file, encoding="utf-8").read() == text, "the existing test is unchanged")

# A session that starts from stored data (Emma, without Dune) saves it beside the test.
code, answers, err = session("tests/stored_test.lua", [{"cmd": "tap", "row": "Emma"}, {"cmd": "back"}], data_folder)
stored = os.path.join(folder, "tests", "stored_test.lua")
stored_text = open(stored, encoding="utf-8").read() if os.path.exists(stored) else ""
check(code == 0 and 'fixtures = "stored_data"' in stored_text, "fixtures named in launch: %r %s" % (code, stored_text))
fixtures = os.path.join(folder, "tests", "stored_data")
check(os.path.isdir(fixtures) and os.listdir(fixtures) == ["default.json"],
      "the model file beside the test: %r" % (os.listdir(os.path.join(folder, "tests")),))
code, out = run_test("tests/stored_test.lua")
check(code == 0, "the test on the stored data passes: %s\n%s" % (out, stored_text))

# Any other path: the replay log, as before.
code, answers, err = session("session.jsonl", [{"cmd": "tap", "row": 1}], os.path.join(data, "d3"))
log = open(os.path.join(folder, "session.jsonl")).read().splitlines()
check(code == 0 and log[0].startswith('{"okit":"session"') and '{"cmd":"tap","row":1}' in log, "a replay log: %r" % log)

# One line is "1 line".
code, answers, err = session("tests/one_test.lua", [{"cmd": "edit", "on": True}], os.path.join(data, "d4"))
check(code == 0 and "okit-run: recorded 1 line as tests/one_test.lua" in err, "one line, said so: %r %s" % (code, err))

# On the virtual clock the header's day is the app's (a recording is then the same file whenever it is made).
code, answers, err = session("tests/virtual_test.lua", [{"cmd": "edit", "on": True}], os.path.join(data, "d7"),
                             ("--clock", "virtual"))
virtual = open(os.path.join(folder, "tests", "virtual_test.lua"), encoding="utf-8").read() if code == 0 else ""
check("-- Recorded with okit-run --record on 2019-05-01 from ../app.lua" in virtual, "the virtual day: %r %s" % (code, virtual))

# A folder that takes no file: refused before the session, in plain words, naming the file given.
code, answers, err = session("/proc/x_test.lua", [{"cmd": "tap", "row": 1}], os.path.join(data, "d5"))
check(code == 2 and not answers and "cannot write the flow test /proc/x_test.lua: /proc is not a writable folder (" in err
      and "NSCocoaErrorDomain" not in err and "Error Domain" not in err, "an unwritable folder is refused: %r %r" % (code, err))

# A .lua path that is not a flow test: JSON lines, and a note saying so and how to get a flow test.
code, answers, err = session("tests/nome.lua", [{"cmd": "tap", "row": 1}], os.path.join(data, "d6"))
check(code == 0 and "okit-run: note: tests/nome.lua does not end in _test.lua" in err and "tests/nome_test.lua" in err
      and open(os.path.join(folder, "tests", "nome.lua")).readline().startswith('{"okit":"session"'),
      "a .lua log is noted: %r %s" % (code, err))

# The app's title changes: the recorded test fails, naming the title.
with open(os.path.join(folder, "app.lua"), "w") as f:
    f.write(APP.replace("%Reading List", "%Books to Read"))
code, out = run_test("tests/emma_test.lua")
check(code != 0 and "Reading List" in out and "Books to Read" in out, "a renamed title fails the test, named: %s" % out)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
