#!/usr/bin/env python3
"""Loopback HTTP and HTTPS servers for tests/net/run.sh.

Serves variants of the instance-data folder, one per path prefix, so that
every failure mode of `sm-preflight update-data` can be provoked:

  /good/      the data as is, with ETag and Last-Modified (304 on a match)
  /v2/        newer data: one type added, one removed, one changed
  /old/       the data dated 2020 (older than the built-in data)
  /index/     the data plus an index.json with the right sha256 digests
  /index-bad/ the same with a wrong digest for tested-models.json
  /index-age/ the index declaring "max_age_days": 1 (data-stale's limit)
  /index-age-bad/ the index declaring "max_age_days": "soon"
  /lm/        Last-Modified only (If-Modified-Since gives 304)
  /flaky-T/   500 for the first request of each file, then 200 (T: a token)
  /down/      always 503
  /slow/      answers after 5 seconds
  /stall/     sends half of tested-models.json, then waits 60 seconds
  /big/       instances.json of 5 MiB with a Content-Length
  /big-chunked/ the same without a length (chunked)
  /badjson/   instances.json cut short (invalid JSON)
  /schema/    instances.json with schema_version 99
  /mixed/     tested-models.json with another data_version
  /redirect/  302 to /good/ on the same server
  /redirect-http/ 302 to /good/ on the plain HTTP server
  /notfound/  404 for everything
  /unsigned/  the data with no index.json (nothing vouches for it)
  /forged/    a mirror's change: instances.json altered and index.json's
              digest made to match, under the original signature

With --sign-key KEY (an Ed25519 private key in PEM), every set but
/unsigned/ serves an index.json (its own digests when it had none) and
index.json.sig, KEY's signature of the index (openssl pkeyutl -sign).
  /stats      counters as JSON (requests, 304s, 5xx, stalls)

Three servers on 127.0.0.1, random ports: plain HTTP, HTTPS with the
certificate for 127.0.0.1/localhost, HTTPS with a certificate for another
name. Their ports go to --portfile as "HTTP HTTPS WRONG". The process exits
by itself after --lifetime seconds, so a crashed test run leaves nothing
behind.
"""
import argparse
import subprocess
import tempfile
import hashlib
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NAMES = ("instances.json", "tested-models.json", "frameworks.json")
LAST_MODIFIED = "Mon, 30 Nov 2026 00:00:00 GMT"


def redate(text, version, date):
    """Sets the top-level data_version and generated of a document."""
    doc = json.loads(text)
    doc["data_version"] = version
    doc["generated"] = date
    return json.dumps(doc, indent=1).encode()


def build_sets(src):
    """Every served variant: prefix -> {name: bytes}."""
    raw = {n: open(os.path.join(src, n), "rb").read() for n in NAMES}
    sets = {"good": dict(raw)}

    v2 = {n: json.loads(raw[n]) for n in NAMES}
    tested = raw["tested-models.json"].decode()
    rows = v2["instances.json"]["instances"]
    # remove a type no tested-model row names, change one, add one
    gone = next(r for r in reversed(rows) if r["type"] not in tested)
    rows.remove(gone)
    changed = next(r for r in rows if r["type"] == "ml.p3.2xlarge")
    changed["network_gbps"] = 11
    added = dict(next(r for r in rows if r["type"] == "ml.p4d.24xlarge"))
    added["type"] = "ml.p4d.48xlarge"
    rows.append(added)
    for n in NAMES:
        v2[n]["data_version"] = "2100.01.01"
        v2[n]["generated"] = "2100-01-01"
    sets["v2"] = {n: json.dumps(v2[n], indent=1).encode() for n in NAMES}
    sets["removed-type"] = gone["type"]

    sets["old"] = {n: redate(raw[n], "2020.01.01", "2020-01-01")
                   for n in NAMES}
    sets["badjson"] = dict(raw, **{"instances.json":
                                   raw["instances.json"][:200]})
    bad = json.loads(raw["instances.json"])
    bad["schema_version"] = 99
    sets["schema"] = dict(raw, **{"instances.json": json.dumps(bad).encode()})
    mixed = json.loads(raw["tested-models.json"])
    mixed["data_version"] = "2001.01.01"
    sets["mixed"] = dict(raw, **{"tested-models.json":
                                 json.dumps(mixed).encode()})
    # a value with a terminal escape and a workflow command on a line of
    # its own, which the loader quotes in its error message
    hostile = json.loads(raw["tested-models.json"])
    hostile["models"][0]["framework"] = "\x1b]0;pwned\x07\n::error::pwned"
    sets["escape"] = dict(raw, **{"tested-models.json":
                                  json.dumps(hostile).encode()})
    index = {"schema_version": 1, "files": {
        n: {"sha256": hashlib.sha256(raw[n]).hexdigest()} for n in NAMES}}
    sets["index"] = dict(raw, **{"index.json": json.dumps(index).encode()})
    wrong = json.loads(json.dumps(index))
    wrong["files"]["tested-models.json"]["sha256"] = "0" * 64
    sets["index-bad"] = dict(raw, **{"index.json": json.dumps(wrong).encode()})
    aged = dict(index, max_age_days=1)
    sets["index-age"] = dict(raw, **{"index.json": json.dumps(aged).encode()})
    aged_bad = dict(index, max_age_days="soon")
    sets["index-age-bad"] = dict(raw, **{"index.json":
                                         json.dumps(aged_bad).encode()})
    sets["unsigned"] = dict(raw)
    return sets


def index_of(files):
    return json.dumps({"schema_version": 1, "files": {
        n: {"sha256": hashlib.sha256(files[n]).hexdigest()}
        for n in NAMES if n in files}}).encode()


def sign(key, data):
    """KEY's Ed25519 signature of data, by the openssl command."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        return subprocess.run(
            ["openssl", "pkeyutl", "-sign", "-rawin", "-inkey", key,
             "-in", f.name], check=True, capture_output=True).stdout


def sign_sets(sets, key):
    """An index and its signature in every set but /unsigned/, and the
    forged mirror: altered data, a matching digest, the old signature."""
    for name, files in sets.items():
        if not isinstance(files, dict) or name == "unsigned":
            continue
        files.setdefault("index.json", index_of(files))
        files["index.json.sig"] = sign(key, files["index.json"])
    good = sets["good"]
    forged = dict(good)
    inst = json.loads(good["instances.json"])
    inst["instances"][0]["vcpus"] = inst["instances"][0]["vcpus"] * 2
    forged["instances.json"] = json.dumps(inst, indent=1).encode()
    forged["index.json"] = index_of(forged)
    sets["forged"] = forged


class State:
    def __init__(self, sets):
        self.sets = sets
        self.lock = threading.Lock()
        self.seen = set()
        self.stats = {"requests": 0, "not_modified": 0, "errors": 0,
                      "stalls": 0, "by_prefix": {}}
        self.http_port = 0

    def count(self, key, prefix=None):
        with self.lock:
            self.stats[key] += 1
            if prefix is not None:
                p = self.stats["by_prefix"]
                p[prefix] = p.get(prefix, 0) + 1


def etag_of(body):
    return '"%s"' % hashlib.sha256(body).hexdigest()[:16]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set per server

    def log_message(self, fmt, *args):  # quiet
        pass

    def send(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        if code != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def serve_file(self, files, name, use_etag=True):
        body = files.get(name)
        if body is None:
            return self.send(404, b"not found\n")
        tag = etag_of(body)
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if (use_etag and inm == tag) or (not use_etag and ims ==
                                         LAST_MODIFIED):
            self.state.count("not_modified")
            return self.send(304, headers=[("ETag", tag)] if use_etag
                             else [("Last-Modified", LAST_MODIFIED)])
        headers = [("Content-Type", "application/json"),
                   ("Last-Modified", LAST_MODIFIED)]
        if use_etag:
            headers.append(("ETag", tag))
        return self.send(200, body, headers)

    def do_GET(self):
        st = self.state
        parts = self.path.split("/")
        if self.path == "/stats":
            with st.lock:
                body = json.dumps(st.stats).encode()
            return self.send(200, body)
        if len(parts) != 3 or parts[0] != "":
            return self.send(404, b"not found\n")
        prefix, name = parts[1], parts[2]
        st.count("requests", prefix)
        good = st.sets["good"]
        if prefix in ("good", "v2", "old", "badjson", "schema", "mixed",
                      "escape", "unsigned", "forged",
                      "index", "index-bad", "index-age", "index-age-bad"):
            return self.serve_file(st.sets[prefix], name)
        if prefix == "lm":
            return self.serve_file(good, name, use_etag=False)
        if prefix.startswith("flaky-"):
            with st.lock:
                first = self.path not in st.seen
                st.seen.add(self.path)
            if first and name != "index.json":
                st.count("errors")
                return self.send(500, b"try again\n")
            return self.serve_file(good, name)
        if prefix == "down":
            st.count("errors")
            return self.send(503, b"down\n")
        if prefix == "slow":
            time.sleep(5)
            return self.serve_file(good, name)
        if prefix == "stall":
            body = good.get(name)
            if body is None or name != "tested-models.json":
                return self.serve_file(good, name)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            st.count("stalls")
            time.sleep(60)
            return None
        if prefix in ("big", "big-chunked"):
            if name != "instances.json":
                return self.serve_file(good, name)
            body = b" " * (5 * 1024 * 1024)
            if prefix == "big":
                return self.send(200, body)
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range(80):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            return None
        if prefix == "redirect":
            return self.send(302, b"", [("Location", "/good/" + name)])
        if prefix == "redirect-http":
            return self.send(302, b"", [(
                "Location",
                "http://127.0.0.1:%d/good/%s" % (st.http_port, name))])
        return self.send(404, b"not found\n")


def serve(state, context=None):
    handler = type("H", (Handler,), {"state": state})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    if context is not None:
        httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd.server_address[1]


def tls(cert, key):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    return ctx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--portfile", required=True)
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--wrong-cert", required=True)
    ap.add_argument("--wrong-key", required=True)
    ap.add_argument("--lifetime", type=float, default=600)
    ap.add_argument("--sign-key")
    args = ap.parse_args()

    sets = build_sets(args.data)
    removed = sets.pop("removed-type")
    if args.sign_key:
        sign_sets(sets, args.sign_key)
    state = State(sets)
    state.http_port = serve(state)
    https = serve(state, tls(args.cert, args.key))
    wrong = serve(state, tls(args.wrong_cert, args.wrong_key))
    tmp = args.portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d %d %s\n" % (state.http_port, https, wrong, removed))
    os.rename(tmp, args.portfile)
    time.sleep(args.lifetime)
    return 0


if __name__ == "__main__":
    sys.exit(main())
