#!/usr/bin/env python3
"""Hostile JSON lines (issue 34, item 8): a 20 MB search, a search past the limit, megabyte lines of garbage and a
line past the line limit are each answered with a one-line error that names the limit, and the commands after them
answer small snapshots (nothing hostile is echoed back). No duration is asserted: each answer has a 30 s deadline,
which only a hang misses (before the bounds, a 1 MB garbage line took half a minute in a debug build and the 20 MB
search was echoed in every later answer).
Usage: hostile_lines.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from okitjson import Checks, Okit  # noqa: E402

okit_run, data = sys.argv[1], sys.argv[2]
checks = Checks("hostile_lines")
check = checks.check
DEADLINE = 30            # seconds per answer: a hang guard, not a timing check
SMALL = 20_000           # bytes: the bookshop's answers are a few KB
SEARCH_LIMIT = 1000      # characters (SearchText.maxLength)
LINE_LIMIT = 1 << 20     # bytes (LineReader.maxLineBytes)


def start(name):
    return Okit(okit_run, "examples/bookshop/app.lua", os.path.join(data, name), name, args=["--clock", "virtual"])


def send(app, command):
    """The answer and its size in bytes as written (the line, compact JSON). The command is written from a thread,
    so the deadline covers a process that stops reading a huge line as well as one that never answers."""
    line = command if isinstance(command, str) else json.dumps(command)
    app._pending = line if len(line) < 200 else "%s… (%d bytes)" % (line[:60], len(line))   # for okitjson's messages

    def write():
        try:
            app.p.stdin.write(line + "\n")
            app.p.stdin.flush()
        except (OSError, ValueError):
            pass                       # the process ended or was killed: the answer's deadline says why
    threading.Thread(target=write, daemon=True).start()
    answer = app.answer(timeout=DEADLINE)
    return answer, len(json.dumps(answer, ensure_ascii=False).encode())


def error_of(answer):
    return answer.get("error", "") if not answer.get("ok") else ""


def normal_commands_stay_small(app, what):
    """Several everyday commands after the hostile ones: each answers ok, small, with no hostile text."""
    for command in [{"cmd": "screen"}, {"cmd": "search", "text": "du"}, {"cmd": "search", "text": ""},
                    {"cmd": "tap", "row": 1}, {"cmd": "back"}, "screen"]:
        answer, size = send(app, command)
        check(answer.get("ok"), "%s: %r answers ok: %r" % (what, command, error_of(answer)))
        check(size < SMALL, "%s: %r answers %d bytes" % (what, command, size))
        search = (answer.get("snapshot", {}).get("screen", {}).get("search") or {})
        check(len(search.get("text", "")) <= SEARCH_LIMIT, "%s: the search text shown is %d characters" % (what, len(search.get("text", ""))))


def huge_searches():
    app = start("search")
    send(app, {"cmd": "search", "text": "du"})
    answer, size = send(app, {"cmd": "search", "text": "x" * 20_000_000})
    check(not answer.get("ok"), "a 20 MB search is refused: %s" % json.dumps(answer)[:300])
    check("too long" in error_of(answer) and "the limit is 1 MiB" in error_of(answer),
          "the refusal names the limit: %r" % error_of(answer)[:300])
    check(size < 1000, "the refusal is short (%d bytes)" % size)
    answer, size = send(app, {"cmd": "search", "text": "y" * 100_000})
    check(error_of(answer) == "The search text is too long (100000 characters; at most %d); the search is unchanged." % SEARCH_LIMIT,
          "a search under the line limit but past the search limit is refused: %r" % error_of(answer)[:300])
    answer, size = send(app, "search " + "z" * 5000)
    check("search text is too long (5000 characters" in error_of(answer), "shell syntax too: %r" % error_of(answer)[:300])
    answer, _ = send(app, {"cmd": "screen"})
    check(answer["snapshot"]["screen"]["search"]["text"] == "du", "the search is unchanged: %r" % answer["snapshot"]["screen"]["search"])
    answer, _ = send(app, {"cmd": "search", "text": "é" * SEARCH_LIMIT})
    check(answer.get("ok") and answer["snapshot"]["screen"]["search"]["text"] == "é" * SEARCH_LIMIT,
          "a search of exactly the limit is taken: %r" % error_of(answer)[:300])
    normal_commands_stay_small(app, "after the huge searches")
    check(app.quit() == 0, "quit exits 0")


def garbage_lines():
    app = start("garbage")
    for line, expected in [
        ("y" * 1_000_000, 'unknown command "yyyy'),                                     # shell syntax, one word
        (json.dumps({"cmd": "z" * 1_000_000}), 'unknown command "zzzz'),                # a JSON command name
        (json.dumps({"cmd": "open", "id": "q" * 1_000_000}), 'no screen "qqqq'),        # a screen id to suggest for
        (json.dumps({"cmd": "tap", "row": "r" * 1_000_000}), 'no row "rrrr'),           # a row key
        ("{" + "w" * 1_000_000, "malformed command"),                                    # not JSON
        ("v" * (2 * LINE_LIMIT), "command line too long (%d bytes; the limit is 1 MiB)" % (2 * LINE_LIMIT)),
    ]:
        answer, size = send(app, line)
        check(not answer.get("ok") and expected in error_of(answer), "a %d-byte line: %r" % (len(line), error_of(answer)[:300]))
        check(size < 1000, "the answer to a %d-byte line is %d bytes" % (len(line), size))
        check("…" in error_of(answer) or "malformed" in expected or "line too long" in expected,
              "the echoed text is cut: %r" % error_of(answer)[:300])
    normal_commands_stay_small(app, "after the garbage lines")
    check(app.quit() == 0, "quit exits 0")


checks.run("a 20 MB search and a search past the limit are refused", huge_searches)
checks.run("megabyte garbage lines are answered with short errors", garbage_lines)
checks.finish()
