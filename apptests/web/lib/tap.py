"""TAP lines for the web tests: `check(ok, what)` prints `ok - …` or `not ok - …` and remembers failures;
`done()` exits 1 when any check failed (after `on_failure()`, e.g. printing the server's log)."""
import sys

failures = []


def check(ok, what):
    print(("ok" if ok else "not ok") + " - " + what)
    if not ok:
        failures.append(what)
    return ok


def done(on_failure=None):
    if failures:
        if on_failure:
            on_failure()
        print(f"# {len(failures)} failed: " + "; ".join(failures))
        sys.exit(1)


def check_fixed(ok, what, bug):
    """A check that was an expected failure until `bug` was fixed; now it counts like any other."""
    return check(ok, what)
