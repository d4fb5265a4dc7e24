#!/usr/bin/env python3
"""Runs docs/guide.md's examples as a reader would: the app (sections 2 and 5), the script (3), the flow test (6).

Usage: guide.py OKIT_RUN WORKDIR. Exits 1 with the failing step's output."""
import os, re, subprocess, sys

okit_run, work = os.path.abspath(sys.argv[1]), sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
guide = open(os.path.join(root, "docs/guide.md"), encoding="utf-8").read()
lua = re.findall(r"```lua\n(.*?)```", guide, re.S)
app, script, extension, screens, test = lua[:5]   # later blocks (a recorded test) are shown, not run here
os.makedirs(os.path.join(work, "todo/tests"), exist_ok=True)
with open(os.path.join(work, "todo/app.lua"), "w") as f: f.write(app + "\n" + extension + "\n" + screens)
with open(os.path.join(work, "todo/add.lua"), "w") as f: f.write(script)
with open(os.path.join(work, "todo/tests/tasks_test.lua"), "w") as f: f.write(test)

def run(args, expect):
    p = subprocess.run([okit_run] + args, cwd=work, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if p.returncode != 0 or expect not in p.stdout + p.stderr:
        print(f"guide step failed: okit-run {' '.join(args)} (exit {p.returncode}, expected {expect!r})")
        print(p.stdout + p.stderr)
        sys.exit(1)

run(["check", "todo/app.lua"], "")
run(["todo/app.lua", "--data", "data", "--script", "todo/add.lua"], "Todo: 2 tasks")
run(["test", "todo"], "1 passed, 0 failed")
print("guide examples: ok")
