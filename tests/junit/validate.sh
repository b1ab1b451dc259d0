#!/bin/sh
# validate.sh - `check --format junit` against the two JUnit schemas CI
# systems use:
#
#   sh tests/junit/validate.sh [--if-available] [CLI]
#
#   - junit-10.xsd, the schema of the Jenkins xUnit plugin, and
#   - junit-ant.xsd, the Apache Ant JUnit report schema (strict),
# both read from $SMP_SHARED_DIR/schemas-third-party (default ../shared;
# never copied into the repository), with xmllint (Debian's
# libxml2-utils). CLI (default build/sm-preflight) checks the specs of
# each folder of golden cases in one run (valid, invalid, unparsable),
# the examples, a file that cannot be read, and --fail-on info (files
# with several failing findings); each document is validated against
# both schemas. A document without its timestamp must be rejected, so
# that a validator that accepts anything is noticed.
#
# Prints one line per failure and "N passed, N failed"; exit status 1 when
# something failed, 2 on a usage error. With --if-available, a missing
# xmllint, schema or CLI is a message and exit status 0 (make test).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if_available=
if [ "${1:-}" = --if-available ]; then
	if_available=1
	shift
fi
if [ $# -gt 1 ]; then
	echo "usage: validate.sh [--if-available] [CLI]" >&2
	exit 2
fi
cli=${1:-$root/build/sm-preflight}
case $cli in
/*) ;;
*) cli=$(pwd)/$cli ;;
esac
shared=${SMP_SHARED_DIR:-$root/../shared}
xsd_dir=$shared/schemas-third-party

skip() {
	if [ -n "$if_available" ]; then
		echo "JUnit schema validation: skipped, $1"
		exit 0
	fi
	echo "validate.sh: $1" >&2
	exit 2
}

command -v xmllint >/dev/null 2>&1 ||
	skip "xmllint is not installed (apt-get install libxml2-utils)"
for x in junit-10 junit-ant; do
	[ -f "$xsd_dir/$x.xsd" ] ||
		skip "$x.xsd is not in $xsd_dir (set SMP_SHARED_DIR)"
done
[ -x "$cli" ] || skip "no CLI at $cli (build it first)"
xsd_dir=$(cd "$xsd_dir" && pwd) || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/smp-junit.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
unset GITHUB_ACTIONS SM_PREFLIGHT_RULES_URI SM_PREFLIGHT_DATA_URL \
	SOURCE_DATE_EPOCH
SM_PREFLIGHT_STALE_DAYS=0
XDG_CACHE_HOME=$tmp/no-cache
export SM_PREFLIGHT_STALE_DAYS XDG_CACHE_HOME

passed=0
failed=0

# check NAME ARGS...: the JUnit of `check ARGS` (run from tests/cases)
# against both schemas
check() {
	name=$1
	shift
	(cd "$root/tests/cases" &&
		"$cli" check --quiet --format junit "$@" >"$tmp/out.xml" \
			2>"$tmp/err")
	rc=$?
	if [ $rc -gt 2 ]; then
		echo "FAIL $name: exit $rc: $(head -c 300 "$tmp/err")"
		failed=$((failed + 1))
		return
	fi
	for x in junit-10 junit-ant; do
		if xmllint --noout --schema "$xsd_dir/$x.xsd" "$tmp/out.xml" \
			>"$tmp/lint" 2>&1; then
			passed=$((passed + 1))
		else
			echo "FAIL $name ($x.xsd):"
			grep -v ' fails to validate$' "$tmp/lint" | head -5
			failed=$((failed + 1))
		fi
	done
}

cd "$root/tests/cases" || exit 2
for d in */; do
	d=${d%/}
	specs=$(ls "$d"/*.yaml "$d"/*.yml "$d"/*.json 2>/dev/null)
	[ -n "$specs" ] || continue
	# shellcheck disable=SC2086 # one word per spec file
	check "$d" $specs </dev/null
done
check "examples" "$root/examples" </dev/null
check "not checked" cli/good.yaml cli/no-such-spec.yaml </dev/null
check "fail-on info" --fail-on info format/bad.yaml format/good.yaml \
	</dev/null
check "fail-on warning, stdin" --fail-on warning - <format/bad.yaml

# the schemas do reject a broken document: no timestamp (Ant) and a
# testcase with a file= attribute (Jenkins)
"$cli" check --quiet --format junit format/bad.yaml >"$tmp/ok.xml" 2>/dev/null
sed -e 's/ timestamp="[^"]*"//' "$tmp/ok.xml" >"$tmp/bad-ant.xml"
sed -e 's/<testcase /<testcase file="x" /' "$tmp/ok.xml" >"$tmp/bad-10.xml"
for x in junit-ant junit-10; do
	xmllint --noout --schema "$xsd_dir/$x.xsd" "$tmp/bad-${x#junit-}.xml" \
		>"$tmp/lint" 2>&1
	if grep -q ' fails to validate$' "$tmp/lint"; then
		passed=$((passed + 1))
	else
		echo "FAIL $x.xsd did not reject a broken document:"
		head -3 "$tmp/lint"
		failed=$((failed + 1))
	fi
done

echo "JUnit schemas: $passed passed, $failed failed"
[ $failed -eq 0 ]
