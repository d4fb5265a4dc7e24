"""okit-run processes driven over the JSON-lines protocol (docs/cli.md), several at once, for the multi-process
tests (apptests/postgres/): one command, one answer line, read with a deadline so that a hang fails the test with
what the process printed instead of stopping the run. Also the checks a driver keeps and the polling it does.
No dependencies beyond the standard library. Every process started is killed at exit."""
import atexit
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

ANSWER_TIMEOUT = 90          # seconds a process gets to answer one command (debug builds on a busy machine)
_processes = []


class Ended(Exception):
    """A process ended, or did not answer in time; the message has its exit code and stderr."""


class Okit:
    """`okit-run APP --json --data DATA [--unsafe] ARGS` with `env` laid over the driver's environment (without
    OKIT_ENDPOINT, OKIT_PASSPHRASE, OKIT_DATABASE_URL, OKIT_DATABASE_PASSWORD: a test names what it uses; `url` is
    OKIT_DATABASE_URL). `name` labels it in messages ("A", "B", "writer 7")."""

    def __init__(self, okit_run, app, data, name, url=None, env=None, unsafe=False, args=()):
        self.name, self.data = name, data
        os.makedirs(data, exist_ok=True)
        e = {k: v for k, v in os.environ.items()
             if k not in ("OKIT_ENDPOINT", "OKIT_PASSPHRASE", "OKIT_DATABASE_URL", "OKIT_DATABASE_PASSWORD")}
        if url:
            e["OKIT_DATABASE_URL"] = url
        e.update(env or {})
        argv = [okit_run, app, "--json", "--data", data] + (["--unsafe"] if unsafe else []) + list(args)
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, bufsize=1, env=e)
        _processes.append(self)
        self.lines = queue.Queue()
        self.err = []
        self.last = None            # the last answer
        self.commands = 0
        threading.Thread(target=self._read_out, daemon=True).start()
        self._err_reader = threading.Thread(target=self._read_err, daemon=True)
        self._err_reader.start()

    def _read_out(self):
        for line in self.p.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_err(self):
        for line in self.p.stderr:
            self.err.append(line)

    @property
    def stderr(self):
        return "".join(self.err)

    def _ended(self, what):
        code = self.p.poll()
        how = "is still running" if code is None else "ended with exit %d" % code
        return Ended("okit-run %s %s %s; its stderr:\n%s" % (self.name, how, what, _indent(self.stderr or "(nothing)")))

    def write(self, command):
        """Sends a command without waiting for its answer (then `answer()` reads it)."""
        line = command if isinstance(command, str) else json.dumps(command)
        self._pending = line
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._ended("before it could be sent %s" % line)
        self.commands += 1

    def answer(self, timeout=ANSWER_TIMEOUT):
        """The answer to the command written last, as a dict."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise self._ended("and did not answer %s within %d s" % (self._pending, timeout))
        if line is None:                            # stdout closed: let it end and its stderr be read
            self.lines.put(None)
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self._err_reader.join(timeout=5)
            raise self._ended("before answering %s" % self._pending)
        try:
            self.last = json.loads(line)
        except ValueError:
            raise Ended("okit-run %s answered %s with a line that is not JSON: %r" % (self.name, self._pending, line))
        return self.last

    def send(self, command, timeout=ANSWER_TIMEOUT):
        self.write(command)
        return self.answer(timeout)

    def do(self, command, timeout=ANSWER_TIMEOUT):
        """`send`, and the answer must be ok (else Ended with the error: a step the test relies on failed)."""
        a = self.send(command, timeout)
        if not a.get("ok"):
            raise Ended("okit-run %s refused %s: %s" % (self.name, self._pending, a.get("error")))
        return a

    def screen(self):
        return self.do({"cmd": "screen"})

    def quit(self, timeout=60):
        """{"cmd":"quit"} and the end of input; returns the exit code."""
        try:
            self.write({"cmd": "quit"})
            self.p.stdin.close()
        except (Ended, OSError):
            pass
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise self._ended("after quit, still running after %d s" % timeout)

    def kill(self):
        """SIGKILL, and reaped."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait()

    def conflicts(self):
        """The lines of <data>/okit/conflicts.jsonl, as dicts ([] when there is no file)."""
        path = os.path.join(self.data, "okit", "conflicts.jsonl")
        try:
            with open(path) as f:
                return [json.loads(l) for l in f if l.strip()]
        except FileNotFoundError:
            return []


# Reading snapshots ---------------------------------------------------------------------------------------------

def rows(answer):
    """The rows of the screen as (text, detail) pairs, in order."""
    return [(r.get("text"), r.get("detail")) for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"]]


def row_texts(answer):
    return [t for t, _ in rows(answer)]


def row_ids(answer):
    return {r.get("text"): r.get("id") for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"]}


def cells(answer):
    """A detail screen's cells: id → control value."""
    return {r["id"]: (r.get("control") or {}).get("value")
            for s in answer["snapshot"]["screen"]["sections"] for r in s["rows"]}


def view(answer):
    """What a screen shows, for messages: a list's (text, detail) rows, a detail's cells."""
    return cells(answer) if answer["snapshot"]["screen"]["kind"] == "detail" else rows(answer)


def screen_of(answer):
    return answer["snapshot"]["screen"]


def offline(answer):
    return answer["snapshot"]["app"].get("offline")


def warnings(answer):
    return answer.get("warnings", [])


# Checks ----------------------------------------------------------------------------------------------------------

class Checks:
    """A driver's checks: `check` notes a failure and goes on; `run(fn)` runs a part of the test and turns an Ended
    or an AssertionError into a failure of that part; `finish()` prints them and exits 1 when any failed."""

    def __init__(self, title):
        self.title = title
        self.failures = []
        self.part = None

    def check(self, condition, what):
        if not condition:
            self.failures.append("%s: %s" % (self.part, what) if self.part else what)
        return condition

    def run(self, part, fn):
        before = len(self.failures)
        self.part = part
        try:
            fn()
        except (Ended, AssertionError) as e:
            self.failures.append("%s: stopped: %s" % (part, e))
        except Exception as e:                                  # a bug of the driver or psql: still say which part
            import traceback
            self.failures.append("%s: stopped by %s\n%s" % (part, e.__class__.__name__, _indent(traceback.format_exc())))
        finally:
            self.part = None
            for p in list(_processes):
                p.kill()
            _processes.clear()
        status = "ok" if len(self.failures) == before else "FAILED"
        print("%s: %s - %s" % (self.title, status, part), flush=True)

    def finish(self):
        for f in self.failures:
            print("FAIL: " + f)
        print("%s: %d checks failed" % (self.title, len(self.failures)) if self.failures else "%s: ok" % self.title)
        sys.exit(1 if self.failures else 0)


def poll(fn, timeout, what, interval=0.05):
    """Calls fn() until it returns (True, seen) and returns seen; AssertionError naming `what` and the last `seen`
    when `timeout` seconds pass first. fn may send a command each time (the process answers every one)."""
    deadline = time.time() + timeout
    while True:
        done, seen = fn()
        if done:
            return seen
        if time.time() > deadline:
            raise AssertionError("%s: not within %d s; last seen: %s" % (what, timeout, _short(seen)))
        time.sleep(interval)


def _short(value, n=600):
    s = value if isinstance(value, str) else repr(value)
    return s if len(s) <= n else s[:n] + "…"


def _indent(text):
    return "\n".join("    " + l for l in text.rstrip().splitlines())


def _kill_all():
    for p in _processes:
        try:
            p.kill()
        except Exception:
            pass


atexit.register(_kill_all)
