#!/bin/sh
# bench.sh - the playground's row of make bench: the bundle's size as a
# static host sends it (gzip -9) against the 1.5 MiB target, and the
# timings of the browser test (first check after navigation, re-checks of
# a 100-line spec in the worker) against 300 ms and 20 ms.
# Usage: sh tests/web/bench.sh BUILD CLI
set -eu
build=$1 cli=$2
js=$build/web/sm-preflight.js
html=$build/web/index.html
raw=$(($(wc -c <"$js") + $(wc -c <"$html")))
gz=$(($(gzip -9c "$js" | wc -c) + $(gzip -9c "$html" | wc -c)))
echo "playground bundle: $raw bytes, $gz gzipped (target <= 1572864 gzipped:" \
	"$([ "$gz" -le 1572864 ] && echo met || echo missed))"
NODE_PATH=tests/web/node_modules node tests/web/browser.js "$build/web" "$cli" \
	"$build/web-shots" | grep '^playground'
