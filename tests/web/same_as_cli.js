#!/usr/bin/env node
/*
 * same_as_cli.js - the playground's module answers as the CLI does: for
 * every example and every golden case's input, the JSON report of
 * smpw_check() (the call the page's worker makes) equals, byte for byte,
 * `sm-preflight check --format json --no-config FILE` (the page has no
 * configuration file). The files a check reads besides the spec (entry
 * scripts beside the examples and cases) are copied into the module's
 * file system at the same paths.
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
	/* the same tree, relative paths and all, in the module's memory */
	M.FS.mkdirTree("/repo");
	for (const f of files) {
		M.FS.mkdirTree("/repo/" + path.dirname(f));
		M.FS.writeFile("/repo/" + f, fs.readFileSync(f));
	}
	/* the host files the confinement cases point at, so that "outside"
	 * means the same in both (they must be refused, never read) */
	for (const f of ["/etc/passwd", "/proc/self/environ"]) {
		try {
			M.FS.mkdirTree(path.dirname(f));
			M.FS.writeFile(f, "not to be read\n");
		} catch (e) {
			/* already there */
		}
	}
	M.FS.chdir("/repo");
	const call = (name, bytes) => {
		const n = M.lengthBytesUTF8(name) + 1;
		const np = M._malloc(n);
		M.stringToUTF8(name, np, n);
		const tp = M._malloc(bytes.length + 1);
		M.HEAPU8.set(bytes, tp);
		const r = M._smpw_check(np, tp, bytes.length, 1);
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
					  "--color", "never", f],
				    { encoding: "utf8", maxBuffer: 1 << 26 });
		if (r.stdout === page) {
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
