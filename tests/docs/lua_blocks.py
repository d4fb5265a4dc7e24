#!/usr/bin/env python3
"""Every ```lua block of README.md and docs/*.md must at least compile (luac5.4 -p): a typo in an example fails
scripts/test with the doc's file:line. (guide.py runs the guide's examples for real.)

Usage: lua_blocks.py OKIT_RUN WORKDIR (both unused but for the shared calling convention)."""
import glob, os, re, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures, count = [], 0
for path in sorted(glob.glob(os.path.join(root, "docs/*.md"))) + [os.path.join(root, "README.md")]:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"```lua\n(.*?)```", text, re.S):
        count += 1
        line = text[: m.start()].count("\n") + 2
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(m.group(1))
        p = subprocess.run(["luac5.4", "-p", f.name], capture_output=True, text=True)
        os.unlink(f.name)
        if p.returncode != 0:
            message = p.stderr.strip().split(":", 2)[-1].strip()
            failures.append(f"{os.path.relpath(path, root)}:{line}: {message}")
for f in failures:
    print(f)
print(f"{count} Lua examples, {len(failures)} that do not compile")
sys.exit(1 if failures else 0)
