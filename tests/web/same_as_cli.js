#!/usr/bin/env node
/*
 * same_as_cli.js - the playground's module answers as the CLI does: for
 * every example and every golden case's input, the JSON report of
 * smpw_check() (the call the page's worker makes) equals, byte for byte,
 * `sm-preflight check --format json --no-config --no-script FILE` (the
 * page has no configuration file, and no entry script beside the one file
 * it is given).
 *
 * Usage: node tests/web/same_as_cli.js BUNDLE CLI (from the repository).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const [bundle, cli] = process.argv.slice(2);
const { smpFactory, wasm } = require(path.resolve(bundle));
const INPUT = /\.(ya?ml|json|py|ipynb)$/;
/* A case whose answer depends on the machine, with why; for it the two
 * must agree on the rules that fire, not on every byte. */
const MACHINE_DEPENDENT = {
	"tests/cases/input-limit/fires-python-budget.py":
		"the evaluator's budget is bytes of memory, and a 32-bit " +
		"WebAssembly build spends fewer per value: it runs out a " +
		"statement later",
};
const rules = (json) => (JSON.parse(json).findings || []).map((f) => f.rule).join(",");
const roots = ["examples", "tests/cases"];

function walk(dir, out) {
	for (const name of fs.readdirSync(dir).sort()) {
		const p = path.join(dir, name);
		const st = fs.lstatSync(p);
		if (st.isDirectory())
			walk(p, out);
		else if (st.isFile())
			out.push(p);
	}
	return out;
}

smpFactory()({ wasmBinary: wasm() }).then((M) => {
	const files = [];
	roots.forEach((r) => walk(r, files));
	const call = (name, bytes) => {
		const n = M.lengthBytesUTF8(name) + 1;
		const np = M._malloc(n);
		M.stringToUTF8(name, np, n);
		const tp = M._malloc(bytes.length + 1);
		M.HEAPU8.set(bytes, tp);
		const r = M._smpw_check(np, tp, bytes.length);
		M._free(np);
		M._free(tp);
		const s = M.UTF8ToString(r);
		M._smpw_free(r);
		return s;
	};
	let same = 0, differ = 0;
	for (const f of files.filter((f) => INPUT.test(f))) {
		const bytes = fs.readFileSync(f);
		const page = call(f, bytes);
		const r = spawnSync(cli, ["check", "--format", "json", "--no-config",
					  "--no-script", "--color", "never", f],
				    { encoding: "utf8", maxBuffer: 1 << 26 });
		if (r.stdout === page ||
		    (MACHINE_DEPENDENT[f] && rules(r.stdout) === rules(page))) {
			same++;
			continue;
		}
		differ++;
		if (differ <= 5) {
			const a = r.stdout.split("\n"), b = page.split("\n");
			let i = 0;
			while (i < a.length && a[i] === b[i])
				i++;
			console.log("differs: " + f + " at line " + (i + 1) +
				    "\n  cli:  " + (a[i] || "").slice(0, 300) +
				    "\n  page: " + (b[i] || "").slice(0, 300));
		}
	}
	console.log("playground and CLI: " + same + " passed, " + differ + " failed");
	process.exit(differ ? 1 : 0);
});
