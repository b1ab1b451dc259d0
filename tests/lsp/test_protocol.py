#!/usr/bin/env python3
"""Protocol-level test of `sm-preflight lsp` over stdio: the lifecycle,
text sync (full and incremental), diagnostics, position encodings, code
actions, hover, completion, configuration, notebooks and malformed input.

    python3 tests/lsp/test_protocol.py build/sm-preflight
"""

import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Client  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLI = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(REPO, "build", "sm-preflight"))
FAILED = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILED.append(what)


def workspace():
    root = tempfile.mkdtemp(prefix="smp-lsp-")
    os.mkdir(os.path.join(root, ".git"))  # the repository root
    shutil.copytree(os.path.join(REPO, "examples", "scripts"),
                    os.path.join(root, "scripts"))
    shutil.copy(os.path.join(REPO, "examples", "broken-gpu-num-devices.yaml"),
                os.path.join(root, "spec.yaml"))
    return root


def apply_edits(text, edits, enc="utf-16"):
    """TextEdits applied to text, last first (positions in enc units)."""
    lines = text.split("\n")

    def offset(p):
        off = sum(len(x.encode()) + 1 for x in lines[:p["line"]])
        line = lines[p["line"]].encode()
        if enc == "utf-8":
            return off + p["character"]
        units = 0
        for i, ch in enumerate(lines[p["line"]]):
            if units >= p["character"]:
                return off + len(lines[p["line"]][:i].encode())
            units += 2 if ord(ch) > 0xFFFF else 1
        return off + len(line)

    data = text.encode()
    for e in sorted(edits, key=lambda e: offset(e["range"]["start"]),
                    reverse=True):
        a, z = offset(e["range"]["start"]), offset(e["range"]["end"])
        data = data[:a] + e["newText"].encode() + data[z:]
    return data.decode()


def codes(diags):
    return sorted(d["code"] for d in diags)


def test_lifecycle():
    c = Client(CLI)
    r = c.call("textDocument/hover", {})
    check(r and r["error"]["code"] == -32002,
          "a request before initialize is -32002")
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": "file:///x.yaml", "text": "a: 1", "version": 1,
        "languageId": "yaml"}})
    r = c.call("initialize", {"capabilities": {}, "rootUri": None})
    caps = r["result"]["capabilities"]
    check(caps["positionEncoding"] == "utf-16", "utf-16 by default")
    check(caps["textDocumentSync"]["change"] == 2, "incremental sync")
    check(c.wait(lambda m: m.get("method") ==
                 "textDocument/publishDiagnostics", 0.5) is None,
          "a notification before initialize is dropped")
    r = c.call("initialize", {"capabilities": {}})
    check(r["error"]["code"] == -32600, "a second initialize is -32600")
    r = c.call("shutdown")
    check("result" in r and r["result"] is None, "shutdown answers null")
    r = c.call("textDocument/hover", {})
    check(r["error"]["code"] == -32600, "a request after shutdown: -32600")
    c.notify("exit")
    check(c.close() == 0, "exit after shutdown: status 0")

    c = Client(CLI)
    c.initialize("/", encodings=["utf-8", "utf-16"])
    c.notify("exit")
    check(c.close() == 1, "exit without shutdown: status 1")
    c = Client(CLI)
    r = c.call("initialize", {"capabilities": {"general": {
        "positionEncodings": ["utf-8"]}}})
    check(r["result"]["capabilities"]["positionEncoding"] == "utf-8",
          "utf-8 when the client offers it")
    check(c.close() == 1, "end of input without exit: status 1")


def test_diagnostics(root):
    c = Client(CLI)
    c.initialize(root, options={"debounceMs": 0,
                                "rulesUri": "https://example.org/rules.md"})
    path = os.path.join(root, "spec.yaml")
    uri = "file://" + path
    text = open(path).read()
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    diags = c.diagnostics(uri)
    check(diags is not None and "gpu-num-devices-mismatch" in codes(diags)
          and "compiler-debug" in codes(diags),
          "diagnostics on open with rule ids: %s" % codes(diags or []))
    d = [x for x in diags if x["code"] == "gpu-num-devices-mismatch"][0]
    check(d["range"] == {"start": {"line": 16, "character": 19},
                         "end": {"line": 16, "character": 22}},
          "the finding's range: %s" % d["range"])
    check(d["severity"] == 1 and d["source"] == "sm-preflight",
          "severity error, source sm-preflight")
    check(d["codeDescription"]["href"] ==
          "https://example.org/rules.md#gpu-num-devices-mismatch",
          "codeDescription links the rule's section")
    check("preprocessing-workers" in codes(diags),
          "the entry script next to the spec was read (as the CLI does)")

    # incremental: "8" -> "4" on line 17
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {
            "start": {"line": 16, "character": 20},
            "end": {"line": 16, "character": 21}}, "text": "4"}]})
    diags = c.diagnostics(uri)
    check("gpu-num-devices-mismatch" not in codes(diags),
          "an incremental change is checked: %s" % codes(diags))
    # full text back
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"text": text}]})
    diags = c.diagnostics(uri)
    check("gpu-num-devices-mismatch" in codes(diags), "a full change too")

    # code actions on the GPU_NUM_DEVICES line
    r = c.call("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 16, "character": 20},
                  "end": {"line": 16, "character": 20}},
        "context": {"diagnostics": [d]}})
    acts = r["result"]
    fix = [a for a in acts if a["title"].startswith(
        "gpu-num-devices-mismatch:")]
    check(len(fix) == 1 and fix[0]["kind"] == "quickfix" and
          fix[0].get("isPreferred") is True, "a preferred quickfix")
    new = apply_edits(text, fix[0]["edit"]["changes"][uri])
    check('GPU_NUM_DEVICES: "4"' in new, "the fix sets GPU_NUM_DEVICES")
    ign = [a for a in acts if a["title"].startswith(
        "Ignore gpu-num-devices-mismatch")]
    check(len(ign) == 1, "an ignore-with-a-reason action")
    ignored = apply_edits(text, ign[0]["edit"]["changes"][uri])
    check("  # sm-preflight: ignore[gpu-num-devices-mismatch] " in ignored,
          "it writes the inline suppression comment")
    fixall = [a for a in acts if a["kind"] == "source.fixAll"]
    check(len(fixall) == 1, "a fix-all-safe action")
    allfixed = apply_edits(text, fixall[0]["edit"]["changes"][uri])
    check('GPU_NUM_DEVICES: "4"' in allfixed and "debug: false" in allfixed
          and "per_device_train_batch_size: 12" in allfixed,
          "fix all applies the safe fixes only")

    # the unsafe batch fix, on the batch line
    r = c.call("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 19, "character": 0},
                  "end": {"line": 19, "character": 0}},
        "context": {"diagnostics": []}})
    unsafe = [a for a in r["result"] if a["title"].endswith("(unsafe)")]
    check(len(unsafe) == 1 and not unsafe[0].get("isPreferred"),
          "an unsafe fix is a separate '(unsafe)' action")

    # the suppression comment is understood
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 4},
        "contentChanges": [{"text": ignored}]})
    diags = c.diagnostics(uri)
    check("gpu-num-devices-mismatch" not in codes(diags),
          "the written comment suppresses the finding")
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 5},
        "contentChanges": [{"text": text}]})
    c.diagnostics(uri)

    hover = c.call("textDocument/hover", {
        "textDocument": {"uri": uri},
        "position": {"line": 16, "character": 20}})["result"]
    v = hover["contents"]["value"]
    check("gpu-num-devices-mismatch" in v and "Source:" in v,
          "hover on a finding: rule, explanation, source")
    v = c.call("textDocument/hover", {
        "textDocument": {"uri": uri},
        "position": {"line": 5, "character": 20}})["result"]
    v = v["contents"]["value"] if v else ""
    check("4 x V100" in v and "EFA" in v and "Training Compiler" in v,
          "hover on an instance type: %r" % v[:80])
    v = c.call("textDocument/hover", {
        "textDocument": {"uri": uri},
        "position": {"line": 18, "character": 26}})["result"]
    v = v["contents"]["value"] if v else ""
    check("tested row" in v and "ml.p3" in v,
          "hover on a model name: the tested rows")

    comp = c.call("textDocument/completion", {
        "textDocument": {"uri": uri},
        "position": {"line": 5, "character": 15}})["result"]
    labels = {i["label"]: i for i in comp["items"]}
    check("ml.p4d.24xlarge" in labels and
          "8 x A100" in labels["ml.p4d.24xlarge"]["detail"],
          "completion of instance types with GPU counts")
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 6},
        "contentChanges": [{"range": {
            "start": {"line": 20, "character": 0},
            "end": {"line": 20, "character": 0}}, "text": "ent"}]})
    c.diagnostics(uri)
    comp = c.call("textDocument/completion", {
        "textDocument": {"uri": uri},
        "position": {"line": 20, "character": 3}})["result"]
    labels = [i["label"] for i in comp["items"]]
    check("entry_point" in labels and "hyperparameters" in labels,
          "completion of the dialect's keys")

    juri = "file://" + os.path.join(root, "request.json")
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": juri, "languageId": "json", "version": 1,
        "text": '{\n  "TrainingJobName": "x",\n  "RoleArn": "r"\n}\n'}})
    c.diagnostics(juri)
    c.call("textDocument/completion", {
        "textDocument": {"uri": juri},
        "position": {"line": 1, "character": 4}})
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": juri, "version": 2},
        "contentChanges": [{"text":
                            '{\n  "TrainingJobName": "x",\n  "Al\n}\n'}]})
    c.diagnostics(juri)
    comp = c.call("textDocument/completion", {
        "textDocument": {"uri": juri},
        "position": {"line": 2, "character": 5}})["result"]
    labels = [i["label"] for i in comp["items"]]
    check("AlgorithmSpecification" in labels and "entry_point" not in labels,
          "completion of a CreateTrainingJob request's keys in JSON")

    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    check(c.diagnostics(uri) == [], "close clears the diagnostics")
    c.call("shutdown")
    c.notify("exit")
    check(c.close() == 0, "clean exit")


def test_encodings(root):
    text = ('estimator: HuggingFace\nentry_point: train.py\n'
            'source_dir: scripts\ninstance_type: ml.p3.8xlarge\n'
            'transformers_version: "4.17.0"\npytorch_version: "1.10.2"\n'
            'py_version: py38\ncompiler_config: {enabled: true}\n'
            'environment: {"\u00e9\U0001d11e": "x", GPU_NUM_DEVICES: "8"}\n')
    line = text.split("\n")[8]
    before = line[:line.index('"8"')]
    for enc, want in (("utf-16", len(before.encode("utf-16-le")) // 2),
                      ("utf-8", len(before.encode()))):
        c = Client(CLI)
        c.initialize(root, encodings=[enc])
        uri = "file://" + os.path.join(root, "enc.yaml")
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        d = [x for x in c.diagnostics(uri)
             if x["code"] == "gpu-num-devices-mismatch"]
        check(d and d[0]["range"]["start"] == {"line": 8,
                                               "character": want},
              "%s columns after non-ASCII text: %s" %
              (enc, d and d[0]["range"]["start"]))
        # an incremental edit in the same units
        c.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {
                "start": {"line": 8, "character": want + 1},
                "end": {"line": 8, "character": want + 2}}, "text": "4"}]})
        check("gpu-num-devices-mismatch" not in codes(c.diagnostics(uri)),
              "%s: an incremental edit after non-ASCII text" % enc)
        c.call("shutdown")
        c.notify("exit")
        c.close()


def test_config(root):
    cfg = os.path.join(root, ".sm-preflight.yaml")
    with open(cfg, "w") as f:
        f.write("rules:\n  compiler-debug: off\n")
    c = Client(CLI)
    c.initialize(root)
    uri = "file://" + os.path.join(root, "spec.yaml")
    text = open(os.path.join(root, "spec.yaml")).read()
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    check("compiler-debug" not in codes(c.diagnostics(uri)),
          "the workspace's .sm-preflight.yaml applies")
    with open(cfg, "w") as f:
        f.write("rules:\n  compiler-debug: error\n")
    c.notify("workspace/didChangeWatchedFiles", {"changes": [
        {"uri": "file://" + cfg, "type": 2}]})
    d = [x for x in c.diagnostics(uri) if x["code"] == "compiler-debug"]
    check(d and d[0]["severity"] == 1,
          "a changed configuration is read again")
    curi = "file://" + cfg
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": curi, "languageId": "yaml", "version": 1,
        "text": "rules:\n  compiler-debgu: error\n"}})
    d = c.diagnostics(curi)
    check(d and d[0]["range"]["start"]["line"] == 1 and
          "compiler-debug" in d[0]["message"],
          "the configuration file being edited: its error as a diagnostic"
          " with the did-you-mean: %s" % (d and d[0]["message"]))
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": curi, "version": 2},
        "contentChanges": [{"text": "rules:\n  compiler-debug: error\n"}]})
    check(c.diagnostics(curi) == [], "a fixed configuration: none")
    c.notify("textDocument/didClose", {"textDocument": {"uri": curi}})
    with open(cfg, "w") as f:
        f.write("rules:\n  compiler-debgu: error\n")
    c.notify("textDocument/didSave", {"textDocument": {
        "uri": "file://" + cfg}})
    diags = c.diagnostics(uri)
    check(diags is not None and "compiler-debug" in codes(diags),
          "a broken configuration: the defaults, and a log message")
    # a job without the compiler is judged only with all-jobs, as a walk
    native = os.path.join(root, "native.yaml")
    with open(native, "w") as f:
        f.write('estimator: HuggingFace\nentry_point: train.py\n'
                'instance_type: ml.p3.2xlarge\ninstance_count: 1\n'
                'transformers_version: "4.17.0"\n'
                'pytorch_version: "1.10.2"\npy_version: py38\n')
    nuri = "file://" + native
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": nuri, "languageId": "yaml", "version": 1,
        "text": open(native).read()}})
    check(c.diagnostics(nuri) == [],
          "a job without the compiler is left alone, as a walk leaves it")
    with open(cfg, "w") as f:
        f.write("all-jobs: true\n")
    c.notify("workspace/didChangeWatchedFiles", {"changes": [
        {"uri": "file://" + cfg, "type": 2}]})
    diags = c.diagnostics(nuri)
    check(diags and "compiler-not-enabled" in codes(diags),
          "all-jobs: true in the configuration judges it")
    os.unlink(native)
    os.unlink(cfg)
    c.call("shutdown")
    c.notify("exit")
    c.close()


def test_notebook(root):
    c = Client(CLI)
    c.initialize(root)
    nb = "file://" + os.path.join(root, "train.ipynb")
    cells = [
        "# Train\n",
        "from sagemaker.huggingface import HuggingFace, "
        "TrainingCompilerConfig\n",
        "est = HuggingFace(entry_point='train.py', source_dir='scripts',\n"
        "    instance_type='ml.p3.8xlarge', instance_count=1,\n"
        "    transformers_version='4.17.0', pytorch_version='1.10.2',\n"
        "    py_version='py38', compiler_config=TrainingCompilerConfig(),\n"
        "    environment={'GPU_NUM_DEVICES': '8'}, role='r')\n"]
    uris = ["%s#cell%d" % (nb.replace("file:", "vscode-notebook-cell:"), i)
            for i in range(3)]
    c.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": nb, "notebookType": "jupyter-notebook",
                             "version": 1, "cells": [
                                 {"kind": 1, "document": uris[0]},
                                 {"kind": 2, "document": uris[1]},
                                 {"kind": 2, "document": uris[2]}]},
        "cellTextDocuments": [
            {"uri": u, "languageId": "python", "version": 1, "text": t}
            for u, t in zip(uris, cells)]})
    d = [x for x in c.diagnostics(uris[2])
         if x["code"] == "gpu-num-devices-mismatch"]
    line = cells[2].split("\n")[4]
    col = line.index("'8'")
    check(d and d[0]["range"]["start"] == {"line": 4, "character": col},
          "a notebook's finding on its cell, at the cell's line: %s" %
          (d and d[0]["range"]))
    acts = c.call("textDocument/codeAction", {
        "textDocument": {"uri": uris[2]},
        "range": {"start": {"line": 4, "character": col},
                  "end": {"line": 4, "character": col}},
        "context": {"diagnostics": d}})["result"]
    fix = [a for a in acts if a.get("isPreferred")]
    fixed = fix and apply_edits(cells[2], fix[0]["edit"]["changes"][uris[2]])
    check(fixed and "{'GPU_NUM_DEVICES': '4'}" in fixed,
          "a cell's fix is an edit of the cell's text: %r" %
          (fix and fix[0]["edit"]))
    v = c.call("textDocument/hover", {
        "textDocument": {"uri": uris[2]},
        "position": {"line": 1, "character": 21}})["result"]
    check(v and "4 x V100" in v["contents"]["value"],
          "hover on an instance type in a cell")
    comp = c.call("textDocument/completion", {
        "textDocument": {"uri": uris[2]},
        "position": {"line": 1, "character": 22}})["result"]
    check(any(i["label"] == "ml.p3.8xlarge" for i in comp["items"]),
          "completion of instance types in a cell")
    c.notify("notebookDocument/didChange", {
        "notebookDocument": {"uri": nb, "version": 2},
        "change": {"cells": {"textContent": [{
            "document": {"uri": uris[2], "version": 2},
            "changes": [{"range": {"start": {"line": 4, "character": col + 1},
                                   "end": {"line": 4, "character": col + 2}},
                         "text": "4"}]}]}}})
    check("gpu-num-devices-mismatch" not in codes(c.diagnostics(uris[2])),
          "a cell's edit is checked")
    c.notify("notebookDocument/didClose", {
        "notebookDocument": {"uri": nb},
        "cellTextDocuments": [{"uri": u} for u in uris]})
    c.call("shutdown")
    c.notify("exit")
    check(c.close() == 0, "notebook session ends cleanly")


def test_malformed(root):
    c = Client(CLI)
    c.initialize(root)
    body = b"{not json"
    c.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    r = c.wait(lambda m: "error" in m)
    check(r and r["error"]["code"] == -32700 and r["id"] is None,
          "a body that is not JSON: -32700")
    for body, what in ((b"[]", "an array"), (b'{"id":1,"method":"x"}',
                                              "no jsonrpc"),
                       (b'{"jsonrpc":"2.0","id":{},"method":"x"}',
                        "an object id"),
                       (b'{"jsonrpc":"2.0","id":7}', "no method")):
        c.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        r = c.wait(lambda m: "error" in m)
        check(r and r["error"]["code"] == -32600, "%s: -32600" % what)
    c.raw(b"Content-Type: x\r\n\r\n")  # no length: skipped
    c.raw(b"Content-Length: 12x\r\n\r\n")
    r = c.call("nosuch/method")
    check(r and r["error"]["code"] == -32601,
          "after bad headers the server goes on; unknown method -32601")
    big = 65 << 20
    c.raw(b"Content-Length: %d\r\n\r\n" % big)
    chunk = b" " * (1 << 20)
    for _ in range(big >> 20):
        c.raw(chunk)
    r = c.call("nosuch/method")
    check(r and r["error"]["code"] == -32601,
          "a body over the limit is skipped unread")
    uri = "file://" + os.path.join(root, "huge.yaml")
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1,
        "text": "a: b\n" * (17 << 18)}})
    d = c.diagnostics(uri, 30)
    check(d and d[0]["code"] == "input-limit",
          "a document over the limit: a diagnostic, no check")
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"range": {
            "start": {"line": 0, "character": 0},
            "end": {"line": 0, "character": 0}}, "text": "x"}]})
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"range": {
            "start": {"line": 9, "character": 0},
            "end": {"line": 0, "character": 0}}, "text": "x"}]})
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri}})
    r = c.call("textDocument/hover", {"textDocument": {"uri": uri}})
    check(r and "result" in r, "bad params: an answer, not a crash")
    c.call("shutdown")
    c.notify("exit")
    check(c.close() == 0, "still exits cleanly")
    c = Client(CLI)
    c.raw(b"Content-Length: 100\r\n\r\n{")  # the input ends mid-body
    check(c.close() == 1, "a truncated message at the end: status 1")


def main():
    root = workspace()
    try:
        test_lifecycle()
        test_diagnostics(root)
        test_encodings(root)
        test_config(root)
        test_notebook(root)
        test_malformed(root)
    finally:
        shutil.rmtree(root)
    if FAILED:
        print("%d failed" % len(FAILED))
        return 1
    print("all LSP protocol checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
