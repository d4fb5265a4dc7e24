#!/usr/bin/env python3
"""Runs `okit-run test` in each busted-style project here, from its root with no arguments, and compares the
result test for test with what busted 2.1.1 gives (`expected.txt`, recorded with `busted -o TAP`); when `busted` is
installed, runs it too and compares live. okit-run's output is TAP, or gtest where a `.busted` file says
`output = "gtest"` (sayer). `python3 apptests/busted/run.py OKIT_RUN [SCRATCH]`;
`--record` writes each expected.txt anew from busted."""
import os, re, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def results(tap):
    """(status, name) lines of a run, busted's or okit's, sorted (randomize() may reorder a block): TAP, or gtest
    when a .busted file asks for it (a block's error appears only in gtest's closing list)."""
    if tap.startswith("[==========]"):
        return gtest_results(tap)
    out = []
    for line in tap.splitlines():
        m = re.match(r"^(not ok|ok) \d+ - (.*)$", line)
        if not m:
            continue
        status, name = m.group(1), m.group(2)
        if name.startswith("# SKIP "):              # busted: ok 5 - # SKIP name
            status, name = "skip", name[len("# SKIP "):]
        elif name.endswith(" # SKIP pending"):      # okit's flow tests: ok 5 - name # SKIP pending
            status, name = "skip", name[: -len(" # SKIP pending")]
        out.append(f"{status} {name}")
    return sorted(out)


def gtest_results(text):
    """busted's gtest lines as the TAP statuses: `[       OK ] file @ line: name (0.05 ms)` is ok, SKIPPED skip,
    FAILED and ERROR not ok; the closing list's `[  ERROR   ]` lines add the errors of blocks and files."""
    out, errors = [], set()
    for line in text.splitlines():
        m = re.match(r"^\[ *(OK|SKIPPED|FAILED|ERROR) *\] [^@]* @ \d+: (.*?)( \(\d+\.\d\d ms\))?$", line)
        if not m:
            continue
        mark, name, timed = m.groups()
        if mark == "ERROR":
            errors.add(name)
        elif timed:
            out.append({"OK": "ok", "SKIPPED": "skip", "FAILED": "not ok"}[mark] + " " + name)
    return sorted(out + [f"not ok {name}" for name in errors])


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)


def main():
    args = [a for a in sys.argv[1:] if a != "--record"]
    okit = os.path.abspath(args[0])
    busted = shutil.which("busted")
    failures = 0
    for project in sorted(os.listdir(HERE)):
        folder = os.path.join(HERE, project)
        if not os.path.isdir(folder):
            continue
        expected_file = os.path.join(folder, "expected.txt")
        if "--record" in sys.argv:
            with open(expected_file, "w") as f:
                f.write("\n".join(results(run([busted, "-o", "TAP"], folder).stdout)) + "\n")
        with open(expected_file) as f:
            expected = [l for l in f.read().splitlines() if l]
        okit_run = run([okit, "test"], folder)
        got = results(okit_run.stdout)
        checks = [("expected.txt", expected)]
        if busted:
            checks.append(("busted", results(run([busted, "-o", "TAP"], folder).stdout)))
        for source, want in checks:
            if got != want:
                failures += 1
                print(f"not ok - {project}: okit-run test differs from {source}")
                for l in sorted(set(want) - set(got)):
                    print(f"#   {source} only: {l}")
                for l in sorted(set(got) - set(want)):
                    print(f"#   okit only:   {l}")
                print("# " + (okit_run.stdout + okit_run.stderr).replace("\n", "\n# "))
            else:
                print(f"ok - {project}: {len(got)} tests as {source}")
        code = 1 if any(l.startswith("not ok") for l in expected) else 0
        if okit_run.returncode != code:
            failures += 1
            print(f"not ok - {project}: exit code {okit_run.returncode}, expected {code}")
    sys.exit(1 if failures else 0)


main()
