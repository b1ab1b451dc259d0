#!/usr/bin/env node
/*
 * browser.js - the playground as a person uses it, in Debian's chromium
 * driven by playwright-core: served from 127.0.0.1 and opened from
 * file://, every bundled example checked with the CLI's answer, a typo
 * typed and its finding awaited, a notebook opened, a finding clicked and
 * the editor's selection read, a share link followed, no request leaving
 * the page, and screenshots in light and dark.
 *
 * Usage: node tests/web/browser.js SITE_DIR CLI SHOTS_DIR
 * Prints the timings `make bench` reports; exits 1 on the first failure.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const http = require("http");
const { spawnSync } = require("child_process");
const { chromium } = require("playwright-core");

const [site, cli, shots] = process.argv.slice(2).map((p) => path.resolve(p));
const CHROMIUM = process.env.SMP_CHROMIUM || "/usr/bin/chromium";
let failures = 0, passes = 0;

function ok(cond, what) {
	if (cond) {
		passes++;
		return;
	}
	failures++;
	console.log("FAIL: " + what);
}

/* The CLI's JSON for a text named name, in a folder of its own: what the
 * page knows of a job is its one file, so no entry script is read. */
function cliJson(name, text) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smp-web-"));
	fs.writeFileSync(path.join(dir, name), text);
	const r = spawnSync(cli, ["check", "--format", "json", "--no-config", "--no-script", "--color", "never", name],
			    { cwd: dir, encoding: "utf8" });
	fs.rmSync(dir, { recursive: true, force: true });
	return r.stdout;
}

function serve() {
	const types = { ".html": "text/html", ".js": "text/javascript" };
	const server = http.createServer((req, res) => {
		const url = new URL(req.url, "http://127.0.0.1");
		const rel = url.pathname === "/" ? "index.html" : url.pathname.slice(1);
		const file = path.join(site, path.normalize(rel));
		if (!file.startsWith(site) || !fs.existsSync(file)) {
			res.writeHead(404);
			res.end();
			return;
		}
		res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
		res.end(fs.readFileSync(file));
	});
	return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function checks(page) {
	return Number(await page.evaluate(() => document.body.dataset.checks || "0"));
}

/* Runs act, then waits for the check it causes. */
async function afterCheck(page, act) {
	const before = await checks(page);
	await act();
	await page.waitForFunction((n) => Number(document.body.dataset.checks || 0) > n, before,
				   { timeout: 10000 });
	/* a debounced check may still follow the first */
	await page.waitForTimeout(250);
}

async function main() {
	const server = await serve();
	const origin = "http://127.0.0.1:" + server.address().port;
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const outside = [];
	context.on("request", (r) => {
		const u = r.url();
		if (!u.startsWith(origin + "/") && !u.startsWith("file://" + site + "/") &&
		    !u.startsWith("blob:") && !u.startsWith("data:"))
			outside.push(u);
	});
	const page = await context.newPage();
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	const t0 = Date.now();
	await page.goto(origin + "/");
	await page.waitForFunction(() => Number(document.body.dataset.checks || 0) >= 1, null, { timeout: 20000 });
	const firstMs = Number(await page.evaluate(() => document.body.dataset.firstCheck));
	const loadMs = Date.now() - t0;

	/* every bundled example, as the CLI sees the same one file */
	const names = await page.evaluate(() =>
		Array.from(document.querySelectorAll("#example option")).map((o) => o.value).filter(Boolean));
	ok(names.length >= 5, "the examples are bundled (" + names.length + ")");
	for (const name of names) {
		await afterCheck(page, () => page.selectOption("#example", name));
		const got = await page.evaluate(() => document.getElementById("json").textContent);
		const text = await page.evaluate(() => document.getElementById("editor").value);
		ok(got === cliJson(name, text), "example " + name + ": the page's JSON is the CLI's");
	}

	/* a typo typed into a spec: its finding appears */
	const spec = "estimator: HuggingFace\nentry_point: train.py\ninstance_type: ml.p3.2xlarge\n" +
		"instance_count: 1\ntransformers_version: \"4.21.1\"\npytorch_version: \"1.11.0\"\n" +
		"py_version: py38\n";
	await afterCheck(page, async () => {
		await page.fill("#filename", "typo.yaml");
		await page.fill("#editor", spec);
	});
	await afterCheck(page, async () => {
		await page.click("#editor");
		await page.keyboard.press("Control+End");
		await page.keyboard.type("compiler_confg: {enabled: true}\n");
	});
	const rules = await page.evaluate(() =>
		Array.from(document.querySelectorAll("#findings .rule")).map((b) => b.textContent));
	ok(rules.includes("unknown-key"), "typing 'compiler_confg' gives unknown-key (" + rules.join(",") + ")");

	/* a finding clicked selects its span */
	const sel = await page.evaluate(() => {
		const b = document.querySelector("#findings button.pick");
		b.click();
		const ed = document.getElementById("editor");
		return { start: ed.selectionStart, end: ed.selectionEnd, text: ed.value.slice(ed.selectionStart, ed.selectionEnd) };
	});
	ok(sel.end > sel.start, "clicking a finding selects text (" + JSON.stringify(sel) + ")");

	/* re-checks of a 100-line spec, timed in the worker */
	let lines = spec + "hyperparameters:\n";
	for (let i = 0; lines.split("\n").length < 100; i++)
		lines += "  param_" + i + ": " + i + "\n";
	const recheck = [];
	for (let i = 0; i < 10; i++) {
		await afterCheck(page, () => page.fill("#editor", lines + "  run_" + i + ": 1\n"));
		const t = await page.evaluate(() => document.getElementById("timing").textContent);
		recheck.push(parseFloat(t.replace(/[^0-9.]/g, "")));
	}
	recheck.sort((a, b) => a - b);

	/* a notebook opened from disk */
	const nb = path.resolve("examples/bert-side-by-side.ipynb");
	await afterCheck(page, () => page.setInputFiles("#open", nb));
	ok((await page.inputValue("#filename")) === "bert-side-by-side.ipynb", "the notebook's name is taken");
	const nbText = fs.readFileSync(nb, "utf8");
	const nbJson = await page.evaluate(() => document.getElementById("json").textContent);
	ok(nbJson === cliJson("bert-side-by-side.ipynb", nbText), "the notebook's JSON is the CLI's");

	/* screenshots, light and dark */
	fs.mkdirSync(shots, { recursive: true });
	await page.evaluate(() => document.documentElement.dataset.theme = "light");
	await page.screenshot({ path: path.join(shots, "light.png"), fullPage: true });
	await page.click("#theme");
	await page.screenshot({ path: path.join(shots, "dark.png"), fullPage: true });

	/* a share link, followed in a new page */
	await page.click("#share");
	const link = await page.inputValue("#share-link");
	ok(link.includes("#v1,"), "the share link carries the job in its fragment");
	const other = await context.newPage();
	await other.goto(link);
	await other.waitForFunction(() => Number(document.body.dataset.checks || 0) >= 1, null, { timeout: 20000 });
	ok((await other.inputValue("#editor")) === nbText, "the share link restores the text");
	ok((await other.inputValue("#filename")) === "bert-side-by-side.ipynb", "and the name");

	/* from file://, with no server at all */
	const local = await context.newPage();
	local.on("pageerror", (e) => errors.push("file://: " + e));
	await local.goto("file://" + path.join(site, "index.html"));
	await local.waitForFunction(() => Number(document.body.dataset.checks || 0) >= 1, null, { timeout: 20000 });
	ok((await local.evaluate(() => document.querySelectorAll("#findings li").length)) > 0,
	   "opened from file://, the default example is checked");

	ok(errors.length === 0, "no script errors: " + errors.join("; "));
	ok(outside.length === 0, "no request leaves the page: " + outside.join(", "));
	await browser.close();
	server.close();
	console.log("playground first check: " + firstMs + " ms after navigation (" + loadMs +
		    " ms as the test waited); re-check of a 100-line spec: median " +
		    recheck[Math.floor(recheck.length / 2)].toFixed(1) + " ms, max " +
		    recheck[recheck.length - 1].toFixed(1) + " ms (in the worker)");
	console.log("playground in chromium: " + passes + " passed, " + failures + " failed");
	process.exit(failures ? 1 : 0);
}

main().catch((e) => {
	console.log("FAIL: " + (e && e.stack ? e.stack : e));
	console.log("playground in chromium: " + passes + " passed, " + (failures + 1) + " failed");
	process.exit(1);
});
