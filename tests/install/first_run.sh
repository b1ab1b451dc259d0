#!/bin/sh
# first_run.sh - a first build on a machine missing a build dependency:
# sh tests/install/first_run.sh [BUILD]
#
# make stops before compiling anything, naming the Debian packages and
# 'make deps' / 'make run', both when pkg-config finds none of the
# libraries (PKG_CONFIG_LIBDIR pointed at an empty folder) and when
# pkg-config itself is missing (PKG_CONFIG naming no program); no raw
# compiler error ("curl/curl.h: No such file or directory"), and no
# object is written. Prints "N passed, N failed".

make=${MAKE:-make}
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smp-first-run.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
mkdir "$tmp/empty"
passed=0
failed=0

# expect WHAT WANT... -- MAKE ARGS: make fails, printing every WANT
expect() {
	what=$1
	shift
	wants=
	while [ "$1" != -- ]; do
		wants="$wants
$1"
		shift
	done
	shift
	if "$make" --no-print-directory BUILD="$tmp/build" "$@" all \
		>"$tmp/out" 2>&1; then
		failed=$((failed + 1))
		echo "FAIL: $what: make succeeded"
		return
	fi
	bad=
	echo "$wants" | while read -r w; do
		[ -z "$w" ] || grep -qF -e "$w" "$tmp/out" ||
			echo "no line says: $w"
	done >"$tmp/why"
	grep -q 'No such file or directory\|error:' "$tmp/out" &&
		echo "a compiler error was printed" >>"$tmp/why"
	[ -z "$(find "$tmp/build" -name '*.o' 2>/dev/null)" ] ||
		echo "objects were compiled" >>"$tmp/why"
	[ -s "$tmp/why" ] && bad=1
	if [ -n "$bad" ]; then
		failed=$((failed + 1))
		echo "FAIL: $what"
		sed 's/^/    /' "$tmp/why" "$tmp/out" | head -n 20
	else
		passed=$((passed + 1))
	fi
}

expect "no library found by pkg-config" \
	"pkg-config finds no yaml-0.1 libcjson libcurl" \
	"apt-get install libyaml-dev libcjson-dev libcurl4-openssl-dev" \
	"'make deps'" "'make run'" \
	-- PKG_CONFIG_LIBDIR="$tmp/empty" PKG_CONFIG_PATH=
expect "pkg-config missing" \
	"'$tmp/no-pkg-config' is not installed" \
	"apt-get install pkg-config libyaml-dev" "'make deps'" \
	-- PKG_CONFIG="$tmp/no-pkg-config"

echo "first run: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
