"""A small WebDriver client (W3C protocol over HTTP, no dependencies) for headless Chromium via chromedriver,
and a way to start `okit-run serve` on a free port. Used by the browser tests in apptests/web/."""
import base64, json, os, re, socket, subprocess, time, urllib.error, urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`okit-run serve APP --port 0` on a data folder; `url` once it said where it serves."""

    def __init__(self, okit_run, app, data, extra=(), env=None):
        self.log = open(os.path.join(data + ".log"), "w+")
        e = dict(os.environ)
        e.update(env or {})
        self.process = subprocess.Popen([okit_run, "serve", app, "--port", "0", "--data", data, *extra],
                                        stdout=self.log, stderr=self.log, env=e)
        deadline = time.time() + 60
        while time.time() < deadline:
            self.log.seek(0)
            m = re.search(r"serving \S+ at (http://[^ ]+/)", self.log.read())
            if m:
                self.url = m.group(1).rstrip("/")
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.log.seek(0)
        raise RuntimeError("okit-run serve did not start: " + self.log.read())

    def stop(self, sig=15):
        self.process.send_signal(sig)
        try:
            return self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None

    def output(self):
        self.log.seek(0)
        return self.log.read()


class Driver:
    """One chromedriver with any number of browser sessions (each its own profile, so its own cookies)."""

    def __init__(self):
        self.port = free_port()
        self.browsers = []
        binary = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else "chromedriver"
        self.process = subprocess.Popen([binary, f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                self.call("GET", "/status")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("chromedriver did not start")

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"WebDriver {method} {path}: {e.read().decode(errors='replace')[:400]}")

    def browser(self, width=1200, height=900):
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"]}}}}
        value = self.call("POST", "/session", caps)
        browser = Browser(self, value["sessionId"])
        self.browsers.append(browser)
        return browser

    def quit(self):
        # Each browser session first (chromedriver ends its Chromium), then chromedriver: Chromium processes
        # are not left behind.
        for b in self.browsers:
            try:
                b.close()
            except (OSError, RuntimeError):
                pass
        self.process.terminate()
        self.process.wait(10)


class Browser:
    def __init__(self, driver, sid):
        self.d, self.sid = driver, sid

    def _(self, method, path, body=None):
        return self.d.call(method, f"/session/{self.sid}{path}", body)

    def get(self, url): self._("POST", "/url", {"url": url})
    def url(self): return self._("GET", "/url")
    def back(self): self._("POST", "/back", {})
    def refresh(self): self._("POST", "/refresh", {})
    def source(self): return self._("GET", "/source")
    def script(self, js, *args): return self._("POST", "/execute/sync", {"script": js, "args": list(args)})
    def size(self, w, h): self._("POST", "/window/rect", {"width": w, "height": h})
    def close(self): self._("DELETE", "")

    def keys(self, *keys):
        """Presses keys on whatever has the focus (WebDriver actions), one after another: "\ue004" is Tab,
        "\ue007" Enter, "\ue00c" Escape, other text is typed as it is."""
        actions = []
        for k in keys:
            for ch in k:
                actions += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self._("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})
        self._("DELETE", "/actions")

    def active(self):
        """The element with the focus."""
        return Element(self, self._("GET", "/element/active")[ELEMENT])

    def find(self, css, timeout=5.0):
        deadline = time.time() + timeout
        while True:
            found = self._("POST", "/elements", {"using": "css selector", "value": css})
            if found:
                return Element(self, found[0][ELEMENT], css)
            if time.time() > deadline:
                raise AssertionError(f"no element {css} on {self.url()}")
            time.sleep(0.1)

    def all(self, css):
        return [Element(self, e[ELEMENT]) for e in self._("POST", "/elements", {"using": "css selector", "value": css})]

    def texts(self, css): return [e.text() for e in self.all(css)]

    def wait(self, condition, what, timeout=10.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if condition():
                    return
            except (AssertionError, RuntimeError):
                pass
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what} on {self.url()}")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self._("GET", "/screenshot")))


class Element:
    def __init__(self, browser, eid, css=None):
        self.b, self.id, self.css = browser, eid, css

    def _(self, method, path, body=None):
        try:
            return self.b._(method, f"/element/{self.id}{path}", body)
        except RuntimeError as e:
            # A live update (another session's write, a save by fetch) replaced the page between finding the
            # element and using it: find it again on the new page, as a person would, and use that once.
            if self.css is None or "stale element reference" not in str(e):
                raise
            self.id = self.b.find(self.css).id
            return self.b._(method, f"/element/{self.id}{path}", body)

    def click(self):
        for attempt in (1, 2):
            try:
                self.b._("POST", "/execute/sync", {"script": "arguments[0].scrollIntoView({block: 'center'})",
                                                   "args": [{ELEMENT: self.id}]})
                self.b._("POST", f"/element/{self.id}/click", {})
                return
            except RuntimeError as e:
                # The page was replaced under the element (see `_`): find it again and click that one.
                if attempt == 2 or self.css is None or "stale element" not in str(e):
                    raise
                self.id = self.b.find(self.css).id
    def clear(self): self._("POST", "/clear", {})
    def type(self, text): self._("POST", "/value", {"text": text})
    def text(self): return self._("GET", "/text")
    def attribute(self, name): return self._("GET", f"/attribute/{name}")
    def prop(self, name): return self._("GET", f"/property/{name}")


def open_browser(driver, width=1200, height=900, args=()):
    """A new browser session of `driver` like `Driver.browser`, with extra Chromium command-line `args`
    (e.g. `--ignore-certificate-errors` for a test's self-signed certificate)."""
    caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "acceptInsecureCerts": "--ignore-certificate-errors" in args,
                                             "goog:chromeOptions": {
        "binary": "/usr/bin/chromium",
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", *args]}}}}
    value = driver.call("POST", "/session", caps)
    browser = Browser(driver, value["sessionId"])
    driver.browsers.append(browser)
    return browser
