#!/usr/bin/env python3
"""Runs `okit-run test` in each busted-style project here, from its root with no arguments, and compares the
result test for test with what busted 2.1.1 gives (`expected.txt`, recorded with `busted -o TAP`); when `busted` is
installed, runs it too and compares live. okit-run runs with `-o TAP`, or with no output named where a `.busted`
file names one (sayer: `output = "gtest"`). A bare run (no arguments), piped, must print busted's plainTerminal
output: its marks, and its counts line as expected.txt counts (and as busted's own, when installed).
`python3 apptests/busted/run.py OKIT_RUN [SCRATCH]`; `--record` writes each expected.txt anew from busted."""
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


def terminal_counts(text):
    """busted's plainTerminal: the marks (sorted: randomize() may reorder) and the counts of every run (`--repeat`:
    each run after its `Repeating all tests (run 1 of 2) . . .`), without the seconds; None when the text is not
    that output."""
    runs = re.split(r"\n?Repeating all tests \(run \d+ of \d+\) \. \. \.\n\n", text)
    marks, counts = "", [0, 0, 0, 0]
    for part in [r for r in runs if r] or [""]:
        lines = part.splitlines()
        if len(lines) < 2 or not re.fullmatch(r"[-+*.]*", lines[0]):
            return None
        m = re.match(r"^(\d+) successe?s? / (\d+) failures? / (\d+) errors? / (\d+) pending : [0-9.]+ seconds$", lines[1])
        if not m:
            return None
        marks += lines[0]
        counts = [a + int(b) for a, b in zip(counts, m.groups())]
    return "".join(sorted(marks)), counts


def expected_counts(expected):
    """The counts busted's terminal output says for the expected results (a failure or error: `not ok`)."""
    ok = sum(1 for l in expected if l.startswith("ok "))
    bad = sum(1 for l in expected if l.startswith("not ok "))
    skip = sum(1 for l in expected if l.startswith("skip "))
    return ok, bad, skip


def check_bare(okit, busted, folder, expected):
    """Problems with a bare run's output (busted's plainTerminal when piped): none is []."""
    bare = run([okit, "test"], folder)
    got = terminal_counts(bare.stdout)
    if got is None:
        return ["a bare run does not print busted's plainTerminal output:\n" + bare.stdout]
    problems = []
    n = got[1]
    ok, bad, skip = expected_counts(expected)
    if (n[0], n[1] + n[2], n[3]) != (ok, bad, skip):
        problems.append(f"a bare run counts {n} (successes, failures, errors, pending), expected.txt has {ok} ok, {bad} not ok, {skip} skip")
    if busted:
        want = terminal_counts(run([busted], folder).stdout)
        if want != got:
            problems.append(f"a bare run says {got}, busted says {want}")
    return problems


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
        configured = os.path.exists(os.path.join(folder, ".busted")) and "output" in open(os.path.join(folder, ".busted")).read()
        okit_run = run([okit, "test"] + ([] if configured else ["-o", "TAP"]), folder)
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
        if not configured:
            problems = check_bare(okit, busted, folder, expected)
            for problem in problems:
                failures += 1
                print(f"not ok - {project}: " + problem.replace("\n", "\n# "))
            if not problems:
                print(f"ok - {project}: a bare run prints busted's plainTerminal output")
        code = 1 if any(l.startswith("not ok") for l in expected) else 0
        if okit_run.returncode != code:
            failures += 1
            print(f"not ok - {project}: exit code {okit_run.returncode}, expected {code}")
    sys.exit(1 if failures else 0)


main()
