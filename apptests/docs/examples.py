#!/usr/bin/env python3
"""Runs every ```lua block of README.md and docs/*.md and checks that it does what the doc says.

Usage: examples.py OKIT_RUN WORKDIR [DOC.md…]. Prints `file:line: reason` for each failing block and the summary
`N examples run, N skipped, N failed`; exits 1 when a block failed. (docs/testing.md, "Examples in the docs are
tested", is the reader's version of this comment.)

Every block first compiles (luac5.4 -p when it is installed), then runs by its kind:

- app        it requires "okit": written to app.lua, `okit-run check`ed and run (--script with an empty file,
             or with the next block when that one is a plain script of it). It becomes the page's current app.
- flow test  it uses describe/it and require("okit.test"): written to tests/doc_test.lua beside the app its
             launch() names (the page's current app, the `context`, or the folder of the path its first-line
             comment names, e.g. `-- examples/todo/tests/tasks_test.lua`) and run with `okit-run test`.
- test steps it drives `app:` without describe (`app:menu(); …`): run inside one `it` with `local app = launch(…)`
             of the context app (default: the bookshop).
- fragment   anything else: put into the context app, which is then checked and loaded. The context is the page's
             current app, else the `context` directive, else apptests/docs/context/shop.lua. A fragment that declares
             what the context declares (an entity type, a screen id, okit.app, `name = okit.model(…)`) replaces that
             declaration in place; a fragment whose first line is `name = function(self…) -- a Type method` goes
             into Type's okit.entity table; anything else is appended. A fragment after the page's app that
             declares nothing runs as that app's --script.

Result comments become assertions:
- `print(…)  -- TEXT`: what that line printed (values joined by spaces, whitespace-insensitive) is TEXT; with a
  trailing `…`, the comma-separated items of TEXT are each among the lines it printed.
- `local v = …  -- LUA VALUE` (a table constructor, a string, a number, true/false/nil): v equals it (tables deeply;
  a trailing `…` in the table means "at least these keys").
- a comment line `-- EXPR  --> VALUE`: EXPR evaluates to VALUE.
A run must exit 0 and log no warning (`okit-run: warning:`), unless a directive says otherwise.

Directives: an HTML comment on the line(s) right before the fence, `<!-- example: … -->`, or for every block of
the page, `<!-- examples: … -->` anywhere on it:
  context=NAME          run in apptests/docs/context/NAME/app.lua, or examples/NAME/app.lua (e.g. bookshop, todo);
                        the context's folder is copied, so its data/ is the data the run starts from and its
                        script.lua, if any, is the script run after an app or fragment loaded
  continues             append the block to the previous block's program (and run the whole)
  expect-error "TEXT"   the run must fail with an output containing TEXT
  output "TEXT"         the output (stdout and stderr) must contain TEXT (whitespace-insensitive); repeatable
  skip "REASON"         do not run the block (it still compiles); say why
and for a page only:
  bindings=CONTEXT      evaluate the page's binding examples on `doc_book` of that context: every table whose
                        last column is `value` (binding in the column before it, `field = v` there sets a field
                        first, a parenthesized condition runs `doc_conditions[condition]`), and every
                        `binding` → `result` outside tables. "TEXT" must be a string, `true`/`false` a bool,
                        `N` (int)/(double) that number type; anything else is compared with the display string.
"""
import glob, hashlib, http.server, os, re, shutil, subprocess, sys, tempfile, threading

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
context_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "context")

DECL_SCREENS = r"list|detail|selection|menu|settings|backups"
DECLARATION = re.compile(r"^\s*(?:\w+\s*=\s*)?okit\.(entity|partial|model|extension|" + DECL_SCREENS +
                         r"|app|strings|locale|theme|migrate|state)\b", re.M)


# ---------------------------------------------------------------------------------------------------------------
# Reading the pages

class Block:
    def __init__(self, path, line, code, directives):
        self.path, self.line, self.code, self.d = path, line, code, directives
        self.where = f"{os.path.relpath(path, root)}:{line}"

    def kind(self):
        c = self.code
        if re.search(r"require\s*\(?\s*[\"']okit\.test[\"']", c) and re.search(r"\bdescribe\s*\(", c):
            return "test"
        if re.search(r"require\s*\(?\s*[\"']okit[\"']", c):
            return "app"
        if re.search(r"^\s*app:\w+\(", c, re.M) and not re.search(r"function\s*\(\s*\w*\s*,?\s*app\s*\)", c):
            return "steps"
        return "fragment"


DIRECTIVE_ITEM = re.compile(r'([\w-]+)(?:=(\S+))?(?:\s+"((?:[^"\\]|\\.)*)")?')


def parse_directives(text, into):
    for name, value, arg in DIRECTIVE_ITEM.findall(text):
        arg = arg.replace('\\"', '"')
        if name == "output":
            into.setdefault("output", []).append(arg)
        elif name in ("context", "bindings"):
            into[name] = value
        elif name in ("continues",):
            into[name] = True
        elif name in ("expect-error", "skip"):
            into[name] = arg
        else:
            raise ValueError(f"unknown directive {name!r}")
    return into


def read_blocks(path):
    text = open(path, encoding="utf-8").read()
    page = {}
    for m in re.finditer(r"<!--\s*examples:(.*?)-->", text, re.S):
        parse_directives(m.group(1), page)
    blocks = []
    for m in re.finditer(r"^```lua\n(.*?)^```", text, re.S | re.M):
        d = dict(page)
        d.pop("continues", None)
        before = text[: m.start()].rstrip("\n")
        cm = re.match(r"<!--\s*example:(.*?)-->\s*$", before[before.rfind("<!--"):], re.S)
        if cm and "-->" not in cm.group(1):
            d.pop("output", None) if "output" in cm.group(1) else None
            parse_directives(cm.group(1), d)
        blocks.append(Block(path, text[: m.start()].count("\n") + 2, m.group(1), d))
    return blocks


# ---------------------------------------------------------------------------------------------------------------
# Lua source surgery: statement spans, declarations, result comments

def skip_string(s, i):
    """i is at a quote or a long bracket; returns the index after the string."""
    if s[i] in "\"'":
        q, i = s[i], i + 1
        while i < len(s) and s[i] != q:
            i += 2 if s[i] == "\\" else 1
        return i + 1
    m = re.match(r"\[(=*)\[", s[i:])
    end = s.find("]" + m.group(1) + "]", i)
    return len(s) if end < 0 else end + len(m.group(1)) + 2


def matching(s, i):
    """s[i] is an opening bracket; returns the index of its closing one (strings and comments skipped)."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c in "\"'" or (c == "[" and re.match(r"\[=*\[", s[i:])):
            i = skip_string(s, i)
            continue
        if s.startswith("--", i):
            if re.match(r"--\[=*\[", s[i:]):
                i = skip_string(s, i + 2)
            else:
                nl = s.find("\n", i)
                i = len(s) if nl < 0 else nl
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unbalanced brackets")


def declarations(code):
    """{key: (start, end)} of the top-level declarations a program makes: entity types, screens, okit.app, models."""
    found = {}
    pattern = (r"^(?:(?P<var>\w+)\s*=\s*)?okit\.(?P<fn>entity|partial|model|app|" + DECL_SCREENS +
               r")\s*(?P<open>[({])(?:\s*\"(?P<name>[^\"]+)\")?")
    for m in re.finditer(pattern, code, re.M):
        fn = m.group("fn")
        if fn == "model":
            if not m.group("var"):
                continue
            key = ("model", m.group("var"))
        elif fn == "app":
            key = ("app",)
        elif fn in ("entity", "partial"):
            key = ("entity", m.group("name"))
        else:
            key = ("screen", m.group("name"))
        found[key] = (m.start(), matching(code, m.start("open")) + 1)
    return found


def insert_method(context, type_name, method):
    """Puts `method` (a `name = function … end` field) into the okit.entity table of type_name."""
    m = re.search(r"okit\.entity\s*\(\s*\"" + re.escape(type_name) + r"\"\s*,\s*\{", context)
    if not m:
        return None
    close = matching(context, m.end() - 1)
    head = context[:close].rstrip()
    sep = "" if re.search(r"[,;{]\s*(--[^\n]*)?$", head) else ","
    return head + sep + "\n" + method.rstrip() + ",\n" + context[close:]


RESULT_VALUE = re.compile(r"^(\{.*\}|\"[^\"]*\"|'[^']*'|-?\d[\d.]*|true|false|nil)$")


def lua_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def lua_value(text):
    """A result comment as Lua source and whether it is partial (ends with …), or None when it is not a value."""
    text = text.strip()
    partial = "…" in text
    text = re.sub(r",?\s*…\s*", " ", text).strip()
    if not RESULT_VALUE.match(text):
        return None
    return text, partial


def instrument(block):
    """The block's code with its result comments turned into assertions (same line count), and the count."""
    out, n = [], 0
    for i, line in enumerate(block.code.split("\n")):
        where = lua_string(f"{block.where.rsplit(':', 1)[0]}:{block.line + i}")
        m = re.match(r"^(\s*)--\s*(.+?)\s+-->\s*(.+)$", line)
        if m and lua_value(m.group(3)):
            value, partial = lua_value(m.group(3))
            out.append(f"{m.group(1)}__doc.expect({where}, function() return {m.group(2)} end, {value}, {str(partial).lower()})")
            n += 1
            continue
        code, _, comment = split_comment(line)
        if comment is not None and "print(" in code:
            code = code.replace("print(", f"__doc.print({where}, {lua_string(comment)}, ", 1)
            out.append(code + "  -- " + comment)
            n += 1
            continue
        m = re.match(r"^(\s*)(local\s+)?([\w.]+)\s*=", code)
        if comment is not None and m and lua_value(comment):
            value, partial = lua_value(comment)
            out.append(f"{code}; __doc.expect({where}, function() return {m.group(3)} end, {value}, {str(partial).lower()})")
            n += 1
            continue
        out.append(line)
    return "\n".join(out), n


def split_comment(line):
    """(code, '--', comment) of a line with a trailing comment outside strings, else (line, '', None)."""
    i = 0
    while i < len(line):
        c = line[i]
        if c in "\"'":
            i = skip_string(line, i)
            continue
        if line.startswith("--", i):
            return line[:i].rstrip(), "--", line[i + 2:].strip()
        i += 1
    return line, "", None


PRELUDE = r"""
if not __doc then
  __doc = { printed = {}, order = {} }
  local function show(v)
    if type(v) ~= "table" then return type(v) == "string" and string.format("%q", v) or tostring(v) end
    local parts = {}
    for k, x in pairs(v) do parts[#parts + 1] = tostring(k) .. " = " .. show(x) end
    table.sort(parts)
    return "{ " .. table.concat(parts, ", ") .. " }"
  end
  local function same(a, b, partial)
    if type(a) ~= "table" or type(b) ~= "table" then return a == b end
    for k, v in pairs(a) do if not same(v, b[k], partial) then return false end end
    if not partial then for k in pairs(b) do if a[k] == nil then return false end end end
    return true
  end
  function __doc.expect(where, fn, expected, partial)
    local ok, actual = pcall(fn)
    if not ok then error(where .. ": the example's result could not be computed: " .. tostring(actual), 0) end
    if type(actual) == "userdata" then actual = tostring(actual) end
    if not same(expected, actual, partial) then
      error(where .. ": the doc says " .. show(expected) .. ", okit gives " .. show(actual), 0)
    end
  end
  local function squash(s) return (s:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")) end
  function __doc.print(where, expected, ...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    local line = table.concat(parts, "\t", 1, parts.n)
    print(line)
    if not __doc.printed[where] then __doc.printed[where] = {}; __doc.order[#__doc.order + 1] = where end
    table.insert(__doc.printed[where], { squash(line), expected })
  end
  function __doc.check()
    for _, where in ipairs(__doc.order) do
      local lines = __doc.printed[where]
      local expected = lines[1][2]
      local seen = {}
      for _, l in ipairs(lines) do seen[#seen + 1] = l[1] end
      local ok
      if expected:find("…", 1, true) then
        ok = true
        for item in expected:gsub("…", ""):gmatch("[^,]+") do
          item = squash(item)
          if item ~= "" then
            local found = false
            for _, l in ipairs(seen) do if l == item then found = true end end
            ok = ok and found
          end
        end
      else
        ok = #seen == 1 and seen[1] == squash(expected)
      end
      if not ok then
        error(where .. ": the doc says it prints " .. string.format("%q", expected) .. ", it printed " ..
              string.format("%q", table.concat(seen, " | ")), 0)
      end
    end
    __doc.printed, __doc.order = {}, {}
  end
end
"""


# ---------------------------------------------------------------------------------------------------------------
# Programs: a text plus where each of its lines came from

class Program:
    def __init__(self, text="", origin=None):
        self.lines = text.split("\n") if text else []
        self.origin = [origin] * len(self.lines) if origin else [None] * len(self.lines)

    @staticmethod
    def of_block(block, code=None):
        p = Program()
        p.lines = (code if code is not None else block.code).rstrip("\n").split("\n")
        base = block.where.rsplit(":", 1)[0]
        p.origin = [f"{base}:{block.line + i}" for i in range(len(p.lines))]
        return p

    def copy(self):
        p = Program()
        p.lines, p.origin = list(self.lines), list(self.origin)
        return p

    def text(self):
        return "\n".join(self.lines) + "\n"

    def splice(self, start, end, other):
        """Replaces the whole lines holding characters start…end of text() by the program other."""
        text = self.text()
        first, last = text[:start].count("\n"), text[:max(start, end - 1)].count("\n") + 1
        p = Program()
        p.lines = self.lines[:first] + other.lines + self.lines[last:]
        p.origin = self.origin[:first] + other.origin + self.origin[last:]
        return p

    def append(self, other):
        p = self.copy()
        p.lines += other.lines
        p.origin += other.origin
        return p


def place(context, fragment, block):
    """The context program with the fragment program put in (replacing, into an entity, or appended)."""
    m = re.match(r"^(\w+)\s*=\s*function\s*\(\s*self[^\n]*--\s*an?\s+(\w+)\s+method", block.code)
    if m:
        # mark the insertion with a placeholder line, then put the fragment's lines in its place
        text = insert_method(context.text(), m.group(2), "--@@FRAGMENT@@")
        if text is None:
            raise RuntimeError(f"the context has no okit.entity(\"{m.group(2)}\") for this method")
        lines = text.rstrip("\n").split("\n")
        i = next(n for n, l in enumerate(lines) if l.startswith("--@@FRAGMENT@@"))
        # the lines of text are the context's lines plus at most one changed line (a comma) and the placeholder
        p = Program()
        p.lines = lines[:i] + fragment.lines + [","] + lines[i + 1:]
        p.origin = context.origin[:i] + fragment.origin + [None] + context.origin[i:]
        return p
    ours = declarations(fragment.text())
    theirs = declarations(context.text())
    common = [theirs[k] for k in ours if k in theirs]
    if not common:
        return context.append(fragment)
    first = min(s for s, _ in common)
    program = context
    for start, end in sorted(common, reverse=True):
        program = program.splice(start, end, Program() if start != first else fragment)
    # drop the context's screens that nothing opens any more (their segue was in a replaced screen)
    mine = {k for k in ours if k[0] == "screen"}
    while True:
        text = program.text()
        found = declarations(text)
        openers = {k: text[a:b] for k, (a, b) in found.items() if k[0] in ("screen", "app")}
        orphans = [(k, span) for k, span in found.items() if k[0] == "screen" and k not in mine
                   and not any(f'"{k[1]}"' in t for o, t in openers.items() if o != k)]
        if not orphans:
            return program
        program = program.splice(*orphans[0][1], Program())


# ---------------------------------------------------------------------------------------------------------------
# Running

def resolve_context(name):
    """The folder of a context: apptests/docs/context/NAME/ or examples/NAME/ (its app is app.lua, or, when the folder
    has a file `base` naming another context, that context's app and files with this folder's laid over them)."""
    for d in (os.path.join(context_dir, name), os.path.join(root, "examples", name)):
        if os.path.isfile(os.path.join(d, "app.lua")) or os.path.isfile(os.path.join(d, "base")):
            return d
    raise RuntimeError(f"unknown context {name!r} (apptests/docs/context/{name}/app.lua or examples/{name}/app.lua)")


def base_of(folder):
    """The folder of the context this one builds on (its `base` file), or None."""
    f = os.path.join(folder, "base")
    return resolve_context(open(f, encoding="utf-8").read().strip()) if os.path.isfile(f) else None


def context_program(name):
    folder = resolve_context(name)
    base = base_of(folder)
    f = os.path.join(base or folder, "app.lua")
    return Program(open(f, encoding="utf-8").read().rstrip("\n"), os.path.relpath(f, root)), folder


class Server(http.server.BaseHTTPRequestHandler):
    """The smallest server an http model needs (GET, PUT, DELETE with ETags and If-Match), kept in memory. Every run
    gets OKIT_ENDPOINT pointing at it, so an example that names another endpoint runs here (the environment wins)."""
    files = {}

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", etag=None):
        self.send_response(status)
        if etag:
            self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        body = self.files.get(self.path)
        self.reply(404) if body is None else self.reply(200, body, '"' + hashlib.sha256(body).hexdigest() + '"')

    def do_PUT(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        old, match = self.files.get(self.path), self.headers.get("If-Match")
        if match and (old is None or match != '"' + hashlib.sha256(old).hexdigest() + '"'):
            return self.reply(412)
        self.files[self.path] = body
        self.reply(204 if old is not None else 201, etag='"' + hashlib.sha256(body).hexdigest() + '"')

    def do_DELETE(self):
        self.reply(204 if self.files.pop(self.path, None) is not None else 404)


class Runner:
    def __init__(self, okit_run, work):
        self.okit_run, self.work = okit_run, work
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Server)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.env = dict(os.environ, OKIT_ENDPOINT=f"http://127.0.0.1:{self.server.server_port}/okit")
        for k in ("OKIT_PASSPHRASE", "OKIT_ENDPOINT_TOKEN"):
            self.env.pop(k, None)
        self.n = 0
        self.ran = self.skipped = 0
        self.failures = []

    def unit(self, folder=None):
        self.n += 1
        d = os.path.join(self.work, f"ex{self.n}")
        if folder:
            ignore = shutil.ignore_patterns("tests", "__snapshots__", "base")
            if base_of(folder):
                shutil.copytree(base_of(folder), d, ignore=ignore)
            shutil.copytree(folder, d, ignore=ignore, dirs_exist_ok=True)
        else:
            os.makedirs(d)
        return d

    def okit(self, args, cwd):
        try:
            p = subprocess.run([self.okit_run] + args, cwd=cwd, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=300, env=self.env)
        except subprocess.TimeoutExpired:
            return 124, "timed out after 300 s"
        return p.returncode, p.stdout + p.stderr

    @staticmethod
    def explain(output, programs):
        """Adds the doc's file:line to every `name.lua:N` of the output that came from a doc block."""
        def repl(m):
            prog = programs.get(m.group(1))
            n = int(m.group(2))
            if prog and 0 < n <= len(prog.origin) and prog.origin[n - 1] and ".md:" in prog.origin[n - 1]:
                return f"{m.group(0)} [{prog.origin[n - 1]}]"
            return m.group(0)
        return re.sub(r"([\w.-]+\.lua):(\d+)", repl, output)

    def judge(self, block, steps, programs):
        """steps: [(args, cwd, expect)], expect 'ok' (exit 0), 'test' (exit 0, some passed) or 'fail'."""
        want_error = block.d.get("expect-error")
        outputs = []
        for args, cwd, expect in steps:
            code, out = self.okit(args, cwd)
            outputs.append(out)
            shown = self.explain(out, programs)
            if want_error is not None:
                if code == 0:
                    continue
                if squash(want_error) not in squash(out):
                    return f"expected an error containing {want_error!r}; okit-run {' '.join(args)} (exit {code}):\n{shown}"
                break
            if code != 0:
                return f"okit-run {' '.join(args)} failed (exit {code}):\n{shown}"
            if expect == "test" and not re.search(r"^[1-9]\d* passed, 0 failed", out, re.M):
                return f"okit-run {' '.join(args)} ran no test:\n{shown}"
            if "okit-run: warning:" in out:
                return f"okit-run {' '.join(args)} logged a warning:\n{shown}"
        else:
            if want_error is not None:
                return f"expected an error containing {want_error!r}, but it ran:\n{self.explain(outputs[-1], programs)}"
        everything = squash("\n".join(outputs))
        for o in block.d.get("output", []):
            if squash(o) not in everything:
                return f"the output does not contain {o!r}:\n{self.explain(outputs[-1], programs)}"
        return None

    def run_app(self, block, program, folder=None, script=None):
        d = self.unit(folder)
        write(os.path.join(d, "app.lua"), render(program))
        if script is not None or not os.path.isfile(os.path.join(d, "script.lua")):
            write(os.path.join(d, "script.lua"), render(script or Program()))   # else the context's own script
        programs = {"app.lua": program, "script.lua": script or Program()}
        steps = [(["check", "app.lua"], d, "ok"),
                 (["app.lua", "--data", "data", "--clock", "virtual", "--script", "script.lua"], d, "ok")]
        return self.judge(block, steps, programs)

    def run_test(self, block, app, folder, test):
        d = self.unit(folder)
        m = re.search(r"launch\(\s*\"([^\"]+)\"", test.text())
        rel = m.group(1) if m else "../app.lua"
        tests = os.path.join(d, "tests")
        os.makedirs(tests, exist_ok=True)
        app_file = os.path.normpath(os.path.join(tests, rel))
        os.makedirs(os.path.dirname(app_file), exist_ok=True)
        write(app_file, render(app))
        write(os.path.join(tests, "doc_test.lua"), render(test))
        programs = {"doc_test.lua": test, os.path.basename(app_file): app}
        return self.judge(block, [(["test", "tests/doc_test.lua"], d, "test")], programs)


def squash(s):
    return re.sub(r"\s+", " ", s).strip()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


PRELUDE_LINE = " ".join(l.strip() for l in PRELUDE.strip().split("\n")) + " "


def render(program):
    """The program's text; with result assertions, the prelude goes on its first line (so line numbers stay) and
    the check of printed results after its last."""
    text = program.text()
    if "__doc." not in text:
        return text
    return PRELUDE_LINE + text + "__doc.check()\n"


# ---------------------------------------------------------------------------------------------------------------

def compile_error(code):
    if not shutil.which("luac5.4"):
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(code)
    p = subprocess.run(["luac5.4", "-p", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    return None if p.returncode == 0 else p.stderr.strip().split(":", 2)[-1].strip()


def run_page(runner, path):
    blocks = read_blocks(path)
    page = parse_directives(" ".join(re.findall(r"<!--\s*examples:(.*?)-->", open(path, encoding="utf-8").read(), re.S)), {})
    if page.get("bindings"):
        check_bindings(runner, path, page["bindings"])
    current_app = None            # (Program, folder) of the page's app, once a block declared one
    previous = None               # (kind, Program, folder, based_on_app) of the previous example
    for i, block in enumerate(blocks):
        problem = compile_error(block.code)
        if problem:
            runner.failures.append(f"{block.where}: does not compile: {problem}")
            previous = None
            continue
        if "skip" in block.d:
            if not block.d["skip"].strip():
                runner.failures.append(f"{block.where}: skip needs a reason")
            runner.skipped += 1
            print(f"skip {block.where}: {block.d['skip']}")
            previous = None
            continue
        code, _ = instrument(block)
        fragment = Program.of_block(block, code)
        kind = block.kind()
        try:
            problem = None
            if block.d.get("continues"):
                if previous is None or previous[0] not in ("app", "fragment"):
                    raise RuntimeError("continues: the previous block is not an app or a fragment")
                _, prog, folder, on_app = previous
                prog = prog.append(fragment)
                problem = runner.run_app(block, prog, folder)
                previous = ("fragment", prog, folder, on_app)
                if on_app:
                    current_app = (prog, folder)
            elif kind == "app":
                problem = runner.run_app(block, fragment)
                current_app = (fragment, None)
                previous = ("app", fragment, None, True)
            elif kind == "test":
                if current_app and "context" not in block.d:
                    app, folder = current_app
                elif "context" in block.d:
                    app, folder = context_program(block.d["context"])
                else:
                    m = re.match(r"--\s*(\S+)/tests/\S+_test\.lua", block.code)
                    if not m or not os.path.isfile(os.path.join(root, m.group(1), "app.lua")):
                        raise RuntimeError("a flow test needs an app: the page's app, a context, or a first line "
                                           "naming its file (-- examples/NAME/tests/x_test.lua)")
                    folder = os.path.join(root, m.group(1))
                    app = Program(open(os.path.join(folder, "app.lua"), encoding="utf-8").read().rstrip("\n"),
                                  os.path.join(m.group(1), "app.lua"))
                problem = runner.run_test(block, app, folder, fragment)
                # A test whose first line names its file (and nothing more) is that file: it must exist and run
                # with the other tests of its app.
                named = re.fullmatch(r"--\s*(\S+_test\.lua)", block.code.split("\n", 1)[0].strip())
                if problem is None and named and not os.path.isfile(os.path.join(root, named.group(1))):
                    problem = f"the page names {named.group(1)}, which does not exist: add it, or say what it is a variant of"
                previous = ("test", fragment, None, False)
            elif kind == "steps":
                app, folder = context_program(block.d.get("context", "bookshop"))
                body = Program("local launch = require(\"okit.test\").launch\n"
                               f"describe({lua_string(block.where)}, function() it(\"runs\", function()\n"
                               "local app = launch(\"../app.lua\")")
                body = body.append(fragment).append(Program("end) end)"))
                problem = runner.run_test(block, app, folder, body)
                previous = ("steps", fragment, None, False)
            else:
                if current_app and "context" not in block.d:
                    app, folder = current_app
                    if not DECLARATION.search(block.code):
                        problem = runner.run_app(block, app, folder, script=fragment)
                        previous = ("script", fragment, None, False)
                        raise Done()
                    prog, on_app = place(app, fragment, block), True
                else:
                    ctx, folder = context_program(block.d.get("context", "shop"))
                    prog, on_app = place(ctx, fragment, block), False
                problem = runner.run_app(block, prog, folder)
                previous = ("fragment", prog, folder, on_app)
        except Done:
            pass
        except (RuntimeError, ValueError) as e:
            problem = str(e)
        runner.ran += 1
        if problem:
            runner.failures.append(f"{block.where}: {problem}")
            print(f"not ok {block.where} ({kind})")
        else:
            print(f"ok {block.where} ({kind})")


# ---------------------------------------------------------------------------------------------------------------
# Binding examples: the tables whose last column is `value`, and `binding` → `result` in the text

def binding_examples(path):
    """[(line, binding, expected, annotation, conditions, assignments)] of a page."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, column = [], None
    for n, line in enumerate(lines, 1):
        if not line.startswith("|"):
            column = None
            for m in re.finditer(r"`([^`]+)`\s*→\s*`([^`]+)`", line):
                found.append((n, m.group(1), m.group(2), None, [], []))
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if n < len(lines) and re.match(r"^\|[-| :]+\|$", lines[n].strip()):
            column = len(cells) - 2 if cells[-1].lower() == "value" and len(cells) >= 2 else None
            continue
        if column is None or re.match(r"^[-: ]+$", cells[0]) or len(cells) <= column + 1:
            continue
        example, value = cells[column], cells[column + 1]
        items = re.findall(r"`([^`]+)`", example)
        bindings = [i for i in items if not re.match(r"^\w+ = ", i)]
        assignments = [i for i in items if re.match(r"^\w+ = ", i)]
        values = re.findall(r"`([^`]+)`(?:\s*\((int|double|bool)\))?", value)
        conditions = [c.strip() for c in re.findall(r"\(([^()]*)\)", re.sub(r"`[^`]*`", "", example + " " + value))]
        for b, (v, annotation) in zip(bindings, values):
            found.append((n, b, v, annotation, conditions, assignments))
    return found


def check_bindings(runner, path, context):
    examples = binding_examples(path)
    if not examples:
        return
    entries = []
    for line, b, _, _, conditions, assignments in examples:
        setup = "; ".join(f"book.{a}" for a in assignments)
        entries.append("{ " + f"{lua_string(b)}, {{{', '.join(lua_string(c) for c in conditions)}}}, "
                       f"function(book) {setup} end" + " }")
    script = ("local function esc(s) return (tostring(s):gsub('\\\\', '\\\\\\\\'):gsub('\\n', '\\\\n'):gsub('\\t', '\\\\t')) end\n"
              "local locale = okit.locale()   -- a condition may change the locale; each example starts from the app's\n"
              "for i, ex in ipairs({\n" + ",\n".join(entries) + "\n}) do\n"
              "  okit.locale(locale)\n"
              "  local kind, display, raw\n"
              "  pcall(okit.transaction, function()\n"
              "    for _, c in ipairs(ex[2]) do if doc_conditions[c] then doc_conditions[c](doc_book) end end\n"
              "    ex[3](doc_book)\n"
              "    local ok, v = pcall(okit.get, doc_book, ex[1])\n"
              "    if not ok then kind, raw = 'error', v else\n"
              "      kind = math.type(v) or type(v); raw = v\n"
              "      display = okit.get(doc_book, ex[1] .. \",''\")\n"
              "    end\n"
              "    error('roll back')\n"
              "  end)\n"
              "  print('@@' .. i .. '\\t' .. kind .. '\\t' .. esc(display or '') .. '\\t' .. esc(raw))\n"
              "end\n")
    folder = resolve_context(context)
    d = runner.unit(folder)
    write(os.path.join(d, "script.lua"), script)
    code, out = runner.okit(["app.lua", "--data", "data", "--clock", "virtual", "--script", "script.lua"], d)
    results = {}
    for m in re.finditer(r"^@@(\d+)\t([^\t]*)\t([^\t]*)\t(.*)$", out, re.M):
        unesc = lambda t: re.sub(r"\\(.)", lambda x: {"n": "\n", "t": "\t"}.get(x.group(1), x.group(1)), t)
        results[int(m.group(1))] = (m.group(2), unesc(m.group(3)), unesc(m.group(4)))
    rel = os.path.relpath(path, root)
    for i, (line, b, expected, annotation, _, _) in enumerate(examples, 1):
        runner.ran += 1
        got = results.get(i)
        problem = None
        if got is None:
            problem = f"not evaluated (okit-run exit {code}):\n{out}"
        else:
            kind, display, raw = got
            if kind == "error":
                problem = f"raised {raw}"
            elif re.match(r'^".*"$', expected):
                if kind != "string" or raw != expected[1:-1]:
                    problem = f"gives {kind} {raw!r}"
            elif annotation:
                want = {"int": "integer", "double": "float", "bool": "boolean"}[annotation]
                if kind != want or squash(display) != squash(expected):
                    problem = f"gives {kind} {display!r}"
            elif expected in ("true", "false"):
                if kind != "boolean" or raw != expected:
                    problem = f"gives {kind} {raw!r}"
            elif squash(display) != squash(expected):
                problem = f"gives {kind} {display!r}"
        if problem:
            runner.failures.append(f"{rel}:{line}: binding `{b}` on the example book: the doc says `{expected}`"
                                   f"{' (' + annotation + ')' if annotation else ''}, okit {problem}")
            print(f"not ok {rel}:{line} (binding {b})")
        else:
            print(f"ok {rel}:{line} (binding {b})")


class Done(Exception):
    pass


def main():
    okit_run, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    pages = [os.path.abspath(p) for p in sys.argv[3:]] or \
        [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs/*.md")))
    runner = Runner(okit_run, work)
    for page in pages:
        run_page(runner, page)
    for f in runner.failures:
        print("\n" + f)
    print(f"{runner.ran} examples run, {runner.skipped} skipped, {len(runner.failures)} failed")
    sys.exit(1 if runner.failures else 0)


if __name__ == "__main__":
    main()
