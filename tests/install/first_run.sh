#!/bin/sh
# first_run.sh - a first build on a machine missing a build dependency:
# sh tests/install/first_run.sh [BUILD]
#
# make stops before compiling anything, naming the Debian packages and
# 'make deps' / 'make run', both when pkg-config finds none of the
# libraries (PKG_CONFIG_LIBDIR pointed at an empty folder) and when
# pkg-config itself is missing (PKG_CONFIG naming no program); no raw
# compiler error ("curl/curl.h: No such file or directory"), and no
# object is written. And .ci/deps.sh (make run, make test) for a user
# who is not root, on a machine where dpkg knows none of the packages
# (dpkg-query and id stubbed on PATH): make test's stops naming the
# build's and the tests' packages in one apt-get install line; with the
# build's installed, the tests' are named and it goes on (their checks
# skip). And web/deps.sh check names a Node.js older than 20 as
# missing (nodejs-20). Prints "N passed, N failed".

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
	"pkg-config finds no yaml-0.1 libcurl" \
	"apt-get install libyaml-dev libcurl4-openssl-dev" \
	"'make deps'" "'make run'" \
	-- PKG_CONFIG_LIBDIR="$tmp/empty" PKG_CONFIG_PATH=
expect "pkg-config missing" \
	"'$tmp/no-pkg-config' is not installed" \
	"apt-get install pkg-config libyaml-dev" "'make deps'" \
	-- PKG_CONFIG="$tmp/no-pkg-config"

# deps WHAT INSTALLED WANT_RC WANT...: sh .ci/deps.sh WHAT as uid 1000
# where dpkg knows only the INSTALLED packages (space-separated)
mkdir "$tmp/bin"
cat >"$tmp/bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
case " $SMP_TEST_INSTALLED " in
*" $p "*) echo "install ok installed" ;;
*) exit 1 ;;
esac
EOF
printf '#!/bin/sh\necho 1000\n' >"$tmp/bin/id"
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/id"
deps() {
	what=$1 installed=$2 want_rc=$3
	shift 3
	SMP_TEST_INSTALLED=$installed PATH="$tmp/bin:$PATH" \
		sh .ci/deps.sh "$what" "$tmp/apt.log" >"$tmp/out" 2>&1
	rc=$?
	: >"$tmp/why"
	[ "$rc" = "$want_rc" ] || echo "exit status $rc, not $want_rc" >"$tmp/why"
	for w; do
		grep -qF -e "$w" "$tmp/out" || echo "no line says: $w" >>"$tmp/why"
	done
	[ ! -e "$tmp/apt.log" ] || echo "apt-get was run" >>"$tmp/why"
	if [ -s "$tmp/why" ]; then
		failed=$((failed + 1))
		echo "FAIL: deps.sh $what, installed: ${installed:-nothing}"
		sed 's/^/    /' "$tmp/why" "$tmp/out" | head -n 20
	else
		passed=$((passed + 1))
	fi
}
build_pkgs="libyaml-dev libcurl4-openssl-dev pkg-config"
deps build "" 1 \
	"the build needs libyaml-dev libcurl4-openssl-dev pkg-config" \
	"as root, run: apt-get install libyaml-dev libcurl4-openssl-dev pkg-config"
deps test "" 1 \
	"the build needs libyaml-dev" "the tests need libcriterion-dev libcjson-dev python3" \
	"as root, run: apt-get install libyaml-dev libcurl4-openssl-dev pkg-config libcriterion-dev libcjson-dev python3 " \
	"make as root: it installs them itself"
deps test "$build_pkgs python3" 0 \
	"missing libcriterion-dev libcjson-dev openssl" "the checks that need them are skipped" \
	"as root, run: apt-get install libcriterion-dev libcjson-dev openssl"
deps build "$build_pkgs" 0

# web/deps.sh check with a Node.js older than playwright-core takes:
# named as missing (nodejs-20), so make test skips the playground's tests
# instead of failing in them; with Node.js 20 it is not named
mkdir "$tmp/webbin"
for t in emcc chromium npm; do
	printf '#!/bin/sh\nexit 0\n' >"$tmp/webbin/$t"
done
web_node() {
	printf '#!/bin/sh\necho %s\n' "$1" >"$tmp/webbin/node"
	chmod +x "$tmp/webbin"/*
	PATH="$tmp/webbin:$PATH" sh web/deps.sh check "$tmp/b" >"$tmp/out" 2>&1
	echo "exit $?" >>"$tmp/out"
}
web_node 18
if grep -qw 'nodejs-20' "$tmp/out" && grep -qx 'exit 1' "$tmp/out"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: web/deps.sh check does not name nodejs-20 for Node.js 18"
	sed 's/^/    /' "$tmp/out"
fi
web_node 20
if grep -qw 'nodejs-20\|nodejs' "$tmp/out"; then
	failed=$((failed + 1))
	echo "FAIL: web/deps.sh check names Node.js 20 as missing"
	sed 's/^/    /' "$tmp/out"
else
	passed=$((passed + 1))
fi

echo "first run: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
