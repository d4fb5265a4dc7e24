"""nginx from Debian in front of okit-run serve, as the docs set it up: the ```nginx block of a doc page (the tested
configuration is the documented one), a self-signed certificate, and nginx in the foreground on a free loopback
port with its pid, logs and temporary files in a folder of its own (apptests/web/proxy_tls.py,
apptests/postgres/serve_nginx.py)."""
import os, re, signal, socket, ssl, subprocess, time

NGINX = "/usr/sbin/nginx"
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def documented_block(doc):
    """The ```nginx block of docs/<doc>."""
    text = open(os.path.join(root, "docs", doc)).read()
    m = re.search(r"```nginx\n(.*?)```", text, re.S)
    if not m:
        raise SystemExit(f"not ok - docs/{doc} has no ```nginx block (the tested configuration lives there)")
    return m.group(1)


def make_certificate(folder):
    """A self-signed certificate for 127.0.0.1: (cert path, key path)."""
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


class Nginx:
    """nginx in the foreground (`daemon off`) on a free loopback port with TLS. `server(port)` gives the `server`
    block (and whatever goes beside it in `http`) for the port chosen; `http_lines` go first in the `http` block
    (an access log, say). Tries another port when the chosen one was taken meanwhile."""

    def __init__(self, prefix, server, free_port, http_lines=("    access_log off;",)):
        self.prefix = prefix
        tmp = os.path.join(prefix, "tmp")
        os.makedirs(tmp, exist_ok=True)
        for attempt in range(5):
            self.port = free_port()
            conf = "\n".join([
                "daemon off;", "master_process on;", "worker_processes 1;",
                "user root;" if os.getuid() == 0 else "",
                f"pid {prefix}/nginx.pid;", f"error_log {prefix}/error.log;",
                "events { worker_connections 1024; }",
                "http {", *http_lines,
                f"    client_body_temp_path {tmp}/body;", f"    proxy_temp_path {tmp}/proxy;",
                f"    fastcgi_temp_path {tmp}/fastcgi;", f"    uwsgi_temp_path {tmp}/uwsgi;", f"    scgi_temp_path {tmp}/scgi;",
                server(self.port), "}", ""])
            self.conf = os.path.join(prefix, "nginx.conf")
            with open(self.conf, "w") as f:
                f.write(conf)
            self.log = open(os.path.join(prefix, "stderr.log"), "w+")
            self.process = subprocess.Popen([NGINX, "-p", prefix + "/", "-c", self.conf, "-e", prefix + "/error.log"],
                                            stdout=self.log, stderr=self.log)
            if self.wait_listening():
                self.url = f"https://127.0.0.1:{self.port}"
                return
            self.stop()
            if "Address already in use" not in self.errors():
                break
        raise RuntimeError("nginx did not start:\n" + self.errors())

    def wait_listening(self):
        deadline = time.time() + 20
        ctx = ssl._create_unverified_context()
        while time.time() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                    with ctx.wrap_socket(s, server_hostname="127.0.0.1"):
                        return True
            except OSError:
                time.sleep(0.05)
        return False

    def errors(self):
        out = ""
        for name in ("error.log", "stderr.log"):
            try:
                out += open(os.path.join(self.prefix, name)).read()
            except OSError:
                pass
        return out

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
