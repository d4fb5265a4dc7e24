#!/usr/bin/env python3
"""A terminal session recorded as a flow test (issue 40 item 2): a person types into `okit-run APP --record
tests/NAME_test.lua` on a real pseudo-terminal (apptests/flows/list_details_app.lua, copied with its test folder);
at quit the shell says where the test is, and the file, with rows named by their text, passes `okit-run test` as it
is. A second recording to the same name is refused before the shell starts.
Usage: record_flow_test.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import fcntl
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
import time

okit_run, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
folder = os.path.join(data, "details")
os.makedirs(os.path.join(folder, "tests"), exist_ok=True)
shutil.copy("apptests/flows/list_details_app.lua", os.path.join(folder, "app.lua"))
failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


class Terminal:
    """okit-run's terminal shell on the slave side of a pty; the master side is the person's keyboard and screen."""

    def __init__(self, args):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
        env = dict(os.environ, TERM="xterm", LANG="C.UTF-8")
        self.process = subprocess.Popen([okit_run, "app.lua", "--data", os.path.join(data, "d"), "--no-color"] + args,
                                        stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                        start_new_session=True, cwd=folder)
        os.close(slave)
        self.seen = b""

    def read_until(self, texts, seconds=20):
        """Reads the screen until each of `texts` shows, in order, after what was read before; returns the new
        output."""
        start = len(self.seen)
        deadline = time.monotonic() + seconds

        def shown():
            at = start
            for text in texts:
                at = self.seen.find(text.encode(), at)
                if at < 0:
                    return False
                at += len(text.encode())
            return True
        while not shown() and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        return self.seen[start:].decode("utf-8", errors="replace")

    def type(self, keys, then_see):
        """Types `keys` and Enter; the output until `then_see` and the next prompt after it."""
        os.write(self.master, keys.encode() + b"\r")
        return self.read_until([then_see, "\n> "])

    def end(self, keys=b""):
        """Types `keys` (quit, or nothing), then waits for the end; the exit code and the rest of the output."""
        if keys:
            os.write(self.master, keys)
        rest = self.read_until(["\x00never"], seconds=5)
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed"
        os.close(self.master)
        return code, rest


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

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
