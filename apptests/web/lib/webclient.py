"""A plain HTTP(S) client for `okit-run serve` (no dependencies): one session cookie, redirects not followed
unless asked, the page's forms parsed so a test can post them as a browser would. Used by the security tests in
apptests/web/ (hostile_requests.py, proxy_tls.py)."""
import html.parser, http.client, socket, ssl, urllib.parse


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.text = body.decode("utf-8", errors="replace")

    def header(self, name):
        """The first header of that name (case-insensitive), or None."""
        for n, v in self.headers:
            if n.lower() == name.lower():
                return v
        return None

    def all(self, name):
        return [v for n, v in self.headers if n.lower() == name.lower()]

    def forms(self):
        p = _Forms()
        p.feed(self.text)
        return p.forms

    def form(self, command, **match):
        """The first POST form whose hidden `command` is `command` (and whose hidden fields match `match`)."""
        for f in self.forms():
            if f.value("command") == command and all(f.value(k) == v for k, v in match.items()):
                return f
        raise AssertionError(f"no form for {command} {match} on the page:\n{self.text[:3000]}")

    def data(self, name):
        """A `data-NAME` attribute of <body> (csrf, version, location, command, events)."""
        p = _Body()
        p.feed(self.text)
        return p.attrs.get("data-" + name)

    def __repr__(self):
        return f"<{self.status} {self.text[:200]!r}>"


class Form:
    def __init__(self, action, method):
        self.action, self.method = action, method
        self.fields = []          # (name, value) of hidden inputs, in order
        self.buttons = []         # (name, value, text)

    def value(self, name):
        for n, v in self.fields:
            if n == name:
                return v
        return None

    def post_fields(self, **extra):
        """Its hidden fields with `extra` set (a list value repeats the field)."""
        out = [(n, v) for n, v in self.fields if n not in extra]
        for k, v in extra.items():
            for x in (v if isinstance(v, list) else [v]):
                out.append((k, x))
        return out


class _Forms(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms, self.current, self.button = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.current = Form(a.get("action"), (a.get("method") or "get").lower())
            self.forms.append(self.current)
        elif tag == "input" and self.current is not None and a.get("type") == "hidden":
            self.current.fields.append((a.get("name"), a.get("value") or ""))
        elif tag == "button" and self.current is not None:
            self.button = [a.get("name"), a.get("value"), ""]

    def handle_data(self, data):
        if self.button is not None:
            self.button[2] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "button" and self.button is not None:
            self.current.buttons.append(tuple(self.button))
            self.button = None


class _Body(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.attrs = {}

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.attrs = dict(attrs)


def insecure_context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


class Client:
    """One visitor: a base URL (http or https), its own session cookie, optional headers on every request."""

    def __init__(self, base, context=None, headers=None, timeout=20):
        u = urllib.parse.urlsplit(base)
        self.https, self.host, self.port = u.scheme == "https", u.hostname, u.port or (443 if u.scheme == "https" else 80)
        self.context, self.headers, self.timeout = context, dict(headers or {}), timeout
        self.cookie = None
        self.cookie_name = "okit_session"   # `__Host-okit_session` behind https (web.md "Sessions")
        self.set_cookies = []     # every Set-Cookie header seen, as sent
        self.login_cookie = None  # the login form's `okit_login` (its token is tied to it), as name=value

    def connection(self):
        if self.https:
            return http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.context)
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def request(self, method, path, body=None, headers=None, follow=False):
        h = dict(self.headers)
        cookies = ([self.cookie_name + "=" + self.cookie] if self.cookie else []) + ([self.login_cookie] if self.login_cookie else [])
        if cookies:
            h["Cookie"] = "; ".join(cookies)
        h.update(headers or {})
        c = self.connection()
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            answer = Answer(r.status, r.getheaders(), r.read())
        finally:
            c.close()
        for v in answer.all("Set-Cookie"):
            self.set_cookies.append(v)
            if v.startswith("okit_login=") or v.startswith("__Host-okit_login="):
                self.login_cookie = v.split(";", 1)[0]
            if v.startswith("okit_session=") or v.startswith("__Host-okit_session="):
                self.cookie_name, self.cookie = v.split(";", 1)[0].split("=", 1)
        if follow and answer.status in (301, 302, 303) and answer.header("Location"):
            return self.request("GET", answer.header("Location"), follow=True)
        return answer

    def get(self, path, follow=True, headers=None):
        return self.request("GET", path, follow=follow, headers=headers)

    def post(self, path, fields, follow=True, headers=None):
        body = fields if isinstance(fields, (bytes, str)) else urllib.parse.urlencode(fields)
        h = {"Content-Type": "application/x-www-form-urlencoded"}
        h.update(headers or {})
        return self.request("POST", path, body=body, headers=h, follow=follow)

    def submit(self, form, follow=True, **extra):
        return self.post(form.action, form.post_fields(**extra), follow=follow)

    def add_book(self, name, at="/books"):
        """The + button, then the New Book prompt answered with `name` (OK); returns the page after it."""
        page = self.get(at)
        prompt = self.submit(page.form("add"))
        return self.submit(prompt.form("respond"), fields=name, action="1")


def raw(host, port, data, read=True, timeout=10):
    """Sends raw bytes on a fresh connection; returns what came back (b"" when nothing) or None on a reset."""
    chunks = []
    with socket.create_connection((host, port), timeout=timeout) as s:
        try:
            s.sendall(data)
            if not read:
                return b""
            while True:
                b = s.recv(65536)
                if not b:
                    break
                chunks.append(b)
            return b"".join(chunks)
        except (ConnectionResetError, BrokenPipeError):
            return None
        except socket.timeout:
            return b"".join(chunks) if read else b""
