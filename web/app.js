/*
 * app.js - the playground page: an editor, the findings of the library
 * (compiled to WebAssembly, run in a Web Worker so that typing never
 * waits for a check), the suggestion, and share links. bundle.py puts it
 * in one file with the module factory (smpFactory), the module's bytes
 * (SMP_WASM_BASE64), the bundled examples (SMP_EXAMPLES), each rule's
 * explanation (SMP_RULES) and the build's versions (SMP_BUILD).
 */
"use strict";

/* ----------------------------------------------------------- worker */

/* Runs inside the worker: the module, and the three calls the page makes. */
function smpWorkerMain(factory) {
	var createSmp = factory();
	var ready = null;

	function call(M, fn, args) {
		/* strings into the module's memory, the answer out of it */
		var ptrs = [];
		var cargs = args.map(function (a) {
			if (typeof a !== "string")
				return a;
			var n = M.lengthBytesUTF8(a) + 1;
			var p = M._malloc(n);
			M.stringToUTF8(a, p, n);
			ptrs.push(p);
			return p;
		});
		var r = fn.apply(null, cargs);
		ptrs.forEach(function (p) { M._free(p); });
		var s = r ? M.UTF8ToString(r) : null;
		if (r)
			M._smpw_free(r);
		return s;
	}

	self.onmessage = function (e) {
		var m = e.data;
		if (m.op === "init") {
			ready = createSmp({ wasmBinary: m.wasm });
			ready.then(function (M) {
				self.postMessage({ id: m.id, versions: call(M, M._smpw_versions, []) });
			});
			return;
		}
		ready.then(function (M) {
			var len = M.lengthBytesUTF8(m.text);
			var t0 = performance.now();
			var out;
			if (m.op === "check")
				out = call(M, M._smpw_check, [m.name, m.text, len]);
			else
				out = call(M, M._smpw_suggest, [m.name, m.text, len, m.to || "", m.sqrt ? 1 : 0]);
			self.postMessage({ id: m.id, out: out, ms: performance.now() - t0 });
		});
	};
}

/* The worker, from this file's own functions: a blob URL works from a
 * static host and from file:// alike, where a worker script would not. */
function startWorker() {
	var src = "(" + smpWorkerMain.toString() + ")(" + smpFactory.toString() + ");";
	var url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
	return new Worker(url);
}

function decodeBase64(b64) {
	var bin = atob(b64);
	var bytes = new Uint8Array(bin.length);
	for (var i = 0; i < bin.length; i++)
		bytes[i] = bin.charCodeAt(i);
	return bytes;
}

/* ------------------------------------------------------------- page */

var state = {
	worker: null,
	next: 1,
	waiting: {},
	timer: 0,
	findings: [],
	lastCheckMs: 0,
	checks: 0
};

function request(msg) {
	return new Promise(function (resolve) {
		msg.id = state.next++;
		state.waiting[msg.id] = resolve;
		state.worker.postMessage(msg);
	});
}

function $(id) { return document.getElementById(id); }

/* UTF-8 text to base64url and back, for the share link's fragment. */
function toBase64Url(text) {
	var bytes = new TextEncoder().encode(text);
	var bin = "";
	for (var i = 0; i < bytes.length; i++)
		bin += String.fromCharCode(bytes[i]);
	return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(s) {
	s = s.replace(/-/g, "+").replace(/_/g, "/");
	while (s.length % 4)
		s += "=";
	return new TextDecoder().decode(decodeBase64(s));
}

/* The offset in the editor's text of a 1-based line and column (columns
 * count characters, as the library's do). */
function offsetOf(text, line, column) {
	var off = 0, l = 1;
	while (l < line) {
		var nl = text.indexOf("\n", off);
		if (nl < 0)
			return text.length;
		off = nl + 1;
		l++;
	}
	var end = text.indexOf("\n", off);
	var row = Array.from(text.slice(off, end < 0 ? text.length : end));
	return off + row.slice(0, Math.max(0, column - 1)).join("").length;
}

function selectFinding(f) {
	var ed = $("editor"), text = ed.value;
	if (!f.line)
		return;
	var a = offsetOf(text, f.line, f.column || 1);
	var b = f.end_line ? offsetOf(text, f.end_line, f.end_column || 1) : a + 1;
	if (b <= a)
		b = a + 1;
	ed.focus();
	ed.setSelectionRange(a, Math.min(b, text.length));
	/* bring the line into view: the line's share of the text's height */
	var lines = text.slice(0, a).split("\n").length;
	var lh = parseFloat(getComputedStyle(ed).lineHeight) || 18;
	ed.scrollTop = Math.max(0, (lines - 3) * lh);
	$("position").textContent = "line " + f.line + ", column " + (f.column || 1);
}

function el(tag, cls, text) {
	var e = document.createElement(tag);
	if (cls)
		e.className = cls;
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function showFindings(report) {
	var list = $("findings");
	list.textContent = "";
	var all = report.findings || [];
	state.findings = all;
	(report.errors || []).forEach(function (e) {
		var li = el("li", "finding error");
		li.appendChild(el("span", "sev", "error"));
		li.appendChild(el("span", "msg", e.message));
		list.appendChild(li);
	});
	all.forEach(function (f, i) {
		var li = el("li", "finding " + f.severity);
		var b = el("button", "pick");
		b.type = "button";
		b.dataset.index = String(i);
		b.setAttribute("aria-label", f.severity + " at line " + f.line + ": " + f.message + " [" + f.rule + "]");
		b.appendChild(el("span", "sev", f.severity));
		b.appendChild(el("span", "where", f.line ? f.line + ":" + f.column : ""));
		b.appendChild(el("span", "msg", f.message));
		li.appendChild(b);
		var meta = el("div", "meta");
		var a = el("button", "rule", f.rule);
		a.type = "button";
		a.dataset.rule = f.rule;
		a.setAttribute("aria-label", "explain " + f.rule);
		meta.appendChild(a);
		if (f.fix)
			meta.appendChild(el("span", "fix", "fix: " + f.fix));
		li.appendChild(meta);
		list.appendChild(li);
	});
	var s = report.summary || {};
	$("summary").textContent = all.length === 0 && !(report.errors || []).length
		? "no findings"
		: (s.error || 0) + " error(s), " + (s.warning || 0) + " warning(s), " + (s.info || 0) + " info";
	$("json").textContent = state.lastJson;
}

/* The rule's page of docs/rules.md, in a dialog. */
function explain(rule) {
	$("explain-title").textContent = rule;
	$("explain-text").textContent = SMP_RULES[rule] || "no explanation bundled for this rule";
	$("explain").showModal();
}

function currentName() {
	return $("filename").value.trim() || "job.yaml";
}

function check() {
	var text = $("editor").value;
	var name = currentName();
	return request({ op: "check", name: name, text: text }).then(function (r) {
		if ($("editor").value !== text || currentName() !== name)
			return; /* typed since: a newer check follows */
		state.lastJson = r.out || "";
		state.lastCheckMs = r.ms;
		state.checks++;
		if (state.checks === 1) /* ms from navigation to the first answer */
			document.body.dataset.firstCheck = performance.now().toFixed(0);
		document.body.dataset.checks = String(state.checks);
		$("timing").textContent = "checked in " + r.ms.toFixed(1) + " ms";
		try {
			showFindings(JSON.parse(r.out));
		} catch (e) {
			$("summary").textContent = "internal error: " + e;
		}
	});
}

function suggest() {
	return request({
		op: "suggest",
		name: currentName(),
		text: $("editor").value,
		to: $("to").value,
		sqrt: $("sqrt").checked
	}).then(function (r) {
		$("suggestion").textContent = r.out || "";
	});
}

function schedule() {
	clearTimeout(state.timer);
	state.timer = setTimeout(check, 150);
}

function load(name, text) {
	$("filename").value = name;
	$("editor").value = text;
	check();
}

function share() {
	var url = location.href.replace(/#.*$/, "") + "#v1," +
		encodeURIComponent(currentName()) + "," + toBase64Url($("editor").value);
	history.replaceState(null, "", url);
	$("share-link").value = url;
	$("share-link").hidden = false;
	$("share-link").select();
}

function fromHash() {
	var h = location.hash.slice(1);
	var parts = h.split(",");
	if (parts[0] !== "v1" || parts.length < 3)
		return false;
	try {
		load(decodeURIComponent(parts[1]), fromBase64Url(parts.slice(2).join(",")));
		return true;
	} catch (e) {
		return false;
	}
}

function setTheme(t) {
	document.documentElement.dataset.theme = t;
	$("theme").textContent = t === "dark" ? "Light theme" : "Dark theme";
}

function init() {
	var pick = $("example");
	Object.keys(SMP_EXAMPLES).sort().forEach(function (n) {
		var o = el("option", null, n);
		o.value = n;
		pick.appendChild(o);
	});
	pick.addEventListener("change", function () {
		if (pick.value)
			load(pick.value, SMP_EXAMPLES[pick.value]);
	});
	$("open").addEventListener("change", function () {
		var f = this.files[0];
		if (f)
			f.text().then(function (t) {
				pick.value = "";
				load(f.name, t);
			});
	});
	$("editor").addEventListener("input", schedule);
	$("filename").addEventListener("input", schedule);
	$("findings").addEventListener("click", function (e) {
		var b = e.target.closest("button.pick");
		var r = e.target.closest("button.rule");
		if (b)
			selectFinding(state.findings[Number(b.dataset.index)]);
		else if (r)
			explain(r.dataset.rule);
	});
	$("suggest").addEventListener("click", suggest);
	$("share").addEventListener("click", share);
	$("theme").addEventListener("click", function () {
		setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
	});
	setTheme(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
	SMP_BUILD.instances.forEach(function (t) {
		var o = el("option", null, t);
		o.value = t;
		$("to").appendChild(o);
	});

	state.worker = startWorker();
	state.worker.onmessage = function (e) {
		var r = e.data, done = state.waiting[r.id];
		delete state.waiting[r.id];
		if (done)
			done(r);
	};
	request({ op: "init", wasm: decodeBase64(SMP_WASM_BASE64) }).then(function (r) {
		$("versions").textContent = "sm-preflight " + SMP_BUILD.tool + ", instance data " +
			SMP_BUILD.data + " (the library reports " + r.versions + ")";
		if (!fromHash())
			load("broken-gpu-num-devices.yaml", SMP_EXAMPLES["broken-gpu-num-devices.yaml"] || "");
	});
	window.addEventListener("hashchange", fromHash);
}

if (typeof document !== "undefined")
	document.addEventListener("DOMContentLoaded", init);
