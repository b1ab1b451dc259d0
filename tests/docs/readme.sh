#!/bin/sh
# readme.sh - the README is true: sh tests/docs/readme.sh CLI [--write]
#
#   - its rules table (between the "rules table" markers) is what
#     'CLI rules' prints; --write regenerates it instead (make docs);
#   - its Action and pre-commit snippets name no release tag the
#     repository does not have ('@v1', 'rev: v1.0.0'): with no tags they
#     pin a commit SHA; a tag they name must exist (git tag) and match the
#     version in lib/smpreflight.h;
#   - the upload-sarif step is skipped when the action wrote no report;
#   - the example files the README runs exist in examples/.
# Prints "N passed, N failed"; exits 1 when anything failed.

cli=$1
mode=${2:-}
[ -n "$cli" ] || {
	echo "usage: sh tests/docs/readme.sh CLI [--write]" >&2
	exit 2
}
case $cli in /*) ;; *) cli=$(pwd)/$cli ;; esac
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smp-readme.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
# shellcheck disable=SC2016 # the backquotes are the marker's text
begin='<!-- rules table: generated from `sm-preflight rules` by make docs; do not edit -->'
end='<!-- end of rules table -->'
passed=0
failed=0
fail() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}

# the README with the block between the markers replaced by the table
"$cli" rules >"$tmp/table" || {
	echo "FAIL: $cli rules"
	exit 1
}
if ! grep -qxF "$begin" README.md || ! grep -qxF "$end" README.md; then
	echo "FAIL: README.md has no rules table markers ($begin)"
	exit 1
fi
awk -v b="$begin" -v e="$end" -v t="$tmp/table" '
	$0 == b { print; print "```"; while ((getline l < t) > 0) print l;
		print "```"; skip = 1; next }
	$0 == e { skip = 0 }
	!skip { print }' README.md >"$tmp/README.md"
if [ "$mode" = --write ]; then
	cmp -s "$tmp/README.md" README.md || cp "$tmp/README.md" README.md
	exit 0
fi
if cmp -s "$tmp/README.md" README.md; then
	passed=$((passed + 1))
else
	fail "README.md's rules table is not what 'sm-preflight rules' prints; run 'make docs'"
	diff README.md "$tmp/README.md" | head -n 10
fi

# refs: a tag must exist and be the version; else a commit SHA
version=$(sed -n 's/^#define SMP_VERSION_STRING "\(.*\)"/\1/p' lib/smpreflight.h)
refs=$(sed -n -e 's/.*uses: [^ ]*sm-preflight@\([^ ]*\).*/\1/p' \
	-e 's/^ *rev: *\([^ ]*\).*/\1/p' README.md)
[ -n "$refs" ] || fail "README.md has no 'uses: .../sm-preflight@REF' or 'rev: REF'"
for ref in $refs; do
	case $ref in
	v[0-9]*)
		if [ "$ref" != "v$version" ]; then
			fail "README.md names tag '$ref'; the version is $version (v$version)"
		elif [ -d .git ] || [ -f .git ]; then
			git rev-parse -q --verify "refs/tags/$ref" >/dev/null ||
				fail "README.md names tag '$ref', which this repository does not have"
		fi
		;;
	COMMIT_SHA | [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ;;
	*) fail "README.md names ref '$ref': pin a commit SHA or a release tag" ;;
	esac
done
[ "$failed" -eq 0 ] && passed=$((passed + 1))

# the SARIF upload is skipped when the action wrote none (a failed build)
if grep -A3 'codeql-action/upload-sarif' README.md |
	grep -q "if: .*steps\.preflight\.outputs\.sarif-file != ''"; then
	passed=$((passed + 1))
else
	fail "README.md's upload-sarif step runs without a sarif-file (a failed build fails it again)"
fi

# the example files the README runs
grep -oE '(sm-preflight|check|diagnose|suggest|config) examples/[A-Za-z0-9_./-]+' README.md |
	sed 's/^[a-z-]* //' | sort -u >"$tmp/examples"
while read -r f; do
	if [ -e "$f" ]; then
		passed=$((passed + 1))
	else
		fail "README.md runs '$f', which is not in examples/"
	fi
done <"$tmp/examples"

echo "readme: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
