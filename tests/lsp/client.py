"""A minimal LSP client over a child's stdio, for the protocol test and
the benchmark of `sm-preflight lsp`: framed writes, framed reads with a
timeout, and waiting for a response or a notification."""

import json
import os
import select
import subprocess
import time


class Client:
    def __init__(self, cli, cwd=None, env=None):
        self.p = subprocess.Popen(
            [cli, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.buf = b""
        self.next_id = 1
        self.pending = []  # messages read while waiting for another

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params=None):
        m = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            m["params"] = params
        self.send(m)

    def request(self, method, params=None):
        i = self.next_id
        self.next_id += 1
        m = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            m["params"] = params
        self.send(m)
        return i

    def _read_one(self, deadline):
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end >= 0:
                head = self.buf[:head_end].decode()
                n = None
                for line in head.split("\r\n"):
                    k, _, v = line.partition(":")
                    if k.strip().lower() == "content-length":
                        n = int(v)
                assert n is not None, "no Content-Length in %r" % head
                if len(self.buf) >= head_end + 4 + n:
                    body = self.buf[head_end + 4:head_end + 4 + n]
                    self.buf = self.buf[head_end + 4 + n:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def wait(self, pred, timeout=10.0):
        """The first message (pending ones first) for which pred holds."""
        for m in self.pending:
            if pred(m):
                self.pending.remove(m)
                return m
        deadline = time.monotonic() + timeout
        while True:
            m = self._read_one(deadline)
            if m is None:
                return None
            if pred(m):
                return m
            self.pending.append(m)

    def response(self, i, timeout=10.0):
        return self.wait(lambda m: m.get("id") == i and "method" not in m,
                         timeout)

    def call(self, method, params=None, timeout=10.0):
        return self.response(self.request(method, params), timeout)

    def diagnostics(self, uri, timeout=10.0):
        m = self.wait(lambda m: m.get("method") ==
                      "textDocument/publishDiagnostics" and
                      m["params"]["uri"] == uri, timeout)
        return None if m is None else m["params"]["diagnostics"]

    def initialize(self, root, encodings=None, options=None):
        caps = {"general": {"positionEncodings": encodings}} \
            if encodings else {}
        r = self.call("initialize", {
            "processId": os.getpid(), "rootUri": "file://" + root,
            "capabilities": caps,
            "initializationOptions": options or {"debounceMs": 0}})
        self.notify("initialized", {})
        return r

    def close(self, timeout=10.0):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.p.wait(timeout)
            err = self.p.stderr.read().decode(errors="replace")
        finally:
            self.p.stdout.close()
            self.p.stderr.close()
        # a sanitizer build (make asan) reports on stderr: never ignored
        if "Sanitizer" in err or "runtime error" in err:
            raise AssertionError("the server's stderr:\n" + err[-4000:])
        return rc
