"""okit-run's terminal shell on a real pseudo-terminal, as a person meets it: the shell runs on the slave side of a
pty (50 rows, 140 columns); the master side is the person's keyboard and screen. Shared by apptests/terminal/*.py."""
import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time


class Terminal:
    def __init__(self, argv, env=None, cwd=None, stdout=None):
        """Starts `argv` (okit-run and its arguments) on a new pty, which is its controlling terminal (closing it
        sends SIGHUP, as closing a terminal window does); `env` defaults to this environment with TERM=xterm and
        LANG=C.UTF-8; `stdout` another file for stdout (stdin and stderr stay the pty)."""
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
        if env is None:
            env = dict(os.environ, TERM="xterm", LANG="C.UTF-8")

        def session_on_the_terminal():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        self.process = subprocess.Popen(argv, stdin=slave, stdout=stdout if stdout is not None else slave, stderr=slave,
                                        env=env, close_fds=True, preexec_fn=session_on_the_terminal, cwd=cwd)
        os.close(slave)
        self.seen = b""

    def read_until(self, texts, seconds=20):
        """Reads the screen until each of `texts` (UTF-8) shows, in order, after what was read before; returns the
        new output."""
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

    def keys(self, keys):
        """Types `keys` (str, UTF-8) without Enter."""
        os.write(self.master, keys.encode())

    def hang_up(self):
        """Closes the terminal, as closing its window does (the kernel sends SIGHUP); the exit code."""
        os.close(self.master)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return "killed"

    def type(self, keys, then_see):
        """Types `keys` (str: UTF-8 bytes, as a terminal sends them) and Enter; the output until `then_see` and the
        next prompt after it."""
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

    def quit(self):
        """Types quit; the exit code."""
        os.write(self.master, b"quit\r")
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed"
        self.read_until(["\0"], seconds=0.5)
        os.close(self.master)
        return code
