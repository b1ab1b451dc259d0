#!/bin/sh
# run.sh - the golden tests: sh tests/cases/run.sh CLI [PATTERN]
#
# Each case is tests/cases/<dir>/<case>.expected: the exact output (stdout
# and stderr together) followed by a last line "[exit N]". The command is
#   - <dir>/<case>.cmd when it exists: one shell command line run from
#     tests/cases; "$1" in it is the CLI, and a line without "$1" gets the
#     CLI put in front ("explain syntax", "check - < cli/good.yaml");
#   - otherwise: CLI check --color never [ARGS] <dir>/<case>.<ext>, with
#     <ext> the first of yaml, yml, json, py, ipynb that exists and ARGS the one line
#     of <dir>/<case>.args if there is one. Such cases run with --no-script
#     (so that one script rule's wording does not touch every case) unless
#     the case is about scripts: its folder is script-* or it has a
#     <case>.with-scripts marker file; and with --ignore
#     compiler-end-of-support (one notice that every compiler job gets)
#     outside that rule's own folder.
# Every case runs from tests/cases with stdin from /dev/null (unless its
# .cmd redirects it) and NO_COLOR/TERM cleared.
#
# It also checks that docs/rules.md is what `CLI rules --markdown` prints,
# and runs tests/docs/run.sh (every rule's examples, the citations).
#
# PATTERN (a shell pattern on "<dir>/<case>") selects cases.
# UPDATE=1 rewrites the expected files and docs/rules.md instead of
# comparing; review the result with git diff. To add a case, create an
# empty <case>.expected next to its input and run with UPDATE=1.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
cli_args "sh tests/cases/run.sh CLI [PATTERN]" "$@"
cd "$here" || exit 2
tmp=$(mktemp "${TMPDIR:-/tmp}/smp-golden.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT HUP INT TERM

unset NO_COLOR FORCE_COLOR CLICOLOR_FORCE
TERM=dumb
export TERM
# no refreshed data from the user's cache, and no data-stale warning
# that depends on today's date (tests/cases/data-stale sets --stale-days)
XDG_CACHE_HOME=$tmp.no-cache
SM_PREFLIGHT_STALE_DAYS=0
export XDG_CACHE_HOME SM_PREFLIGHT_STALE_DAYS
unset SM_PREFLIGHT_DATA_URL
# the region the jobs run in comes from the spec or a case's --region
unset AWS_REGION AWS_DEFAULT_REGION
# JUnit's timestamp (and hostname "localhost"): the same on every run
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH
# machine output is chosen by these (format.h): cases say what they want
unset GITHUB_ACTIONS GITHUB_WORKSPACE SM_PREFLIGHT_RULES_URI
if command -v timeout >/dev/null 2>&1; then
	limit="timeout 20"
else
	limit=
fi

passed=0
failed=0
updated=0

# compare NAME EXPECTED: $tmp holds the actual output
compare() {
	if [ -n "$UPDATE" ]; then
		if ! cmp -s "$tmp" "$2"; then
			cp "$tmp" "$2"
			echo "updated $1"
			updated=$((updated + 1))
		fi
		passed=$((passed + 1))
	elif cmp -s "$2" "$tmp"; then
		passed=$((passed + 1))
	else
		echo "FAIL $1"
		diff -u "$2" "$tmp" | sed -e "1s|.*|--- $2 (expected)|" \
			-e "2s|.*|+++ actual|"
		failed=$((failed + 1))
	fi
}

for expected in $(find . -mindepth 2 -maxdepth 2 -name '*.expected' |
	sed 's|^\./||' | LC_ALL=C sort); do
	name=${expected%.expected}
	# shellcheck disable=SC2254 # PATTERN is a glob on purpose
	case $name in
	$pattern) ;;
	*) continue ;;
	esac
	if [ -f "$name.cmd" ]; then
		line=$(sed -n 1p "$name.cmd")
		# shellcheck disable=SC2016
		case $line in
		*'$1'*) ;;
		*) line="\"\$1\" $line" ;;
		esac
		$limit sh -c "$line" sh "$cli" </dev/null >"$tmp" 2>&1
		rc=$?
	else
		input=
		for ext in yaml yml json py ipynb; do
			if [ -f "$name.$ext" ]; then
				input=$name.$ext
				break
			fi
		done
		if [ -z "$input" ]; then
			echo "FAIL $name: no $name.cmd, .yaml, .yml, .json, .py or .ipynb"
			failed=$((failed + 1))
			continue
		fi
		args=--no-script
		case $name in
		script-*) args= ;;
		esac
		[ -f "$name.with-scripts" ] && args=
		# the end-of-support notice is the same for every compiler job:
		# only its own cases show it
		case $name in
		compiler-end-of-support/*) ;;
		*) args="$args --ignore compiler-end-of-support" ;;
		esac
		if [ -f "$name.args" ]; then
			args="$args $(sed -n 1p "$name.args")"
		fi
		$limit sh -c "\"\$1\" check --color never $args \"\$2\"" sh \
			"$cli" "$input" </dev/null >"$tmp" 2>&1
		rc=$?
	fi
	printf '[exit %s]\n' "$rc" >>"$tmp"
	compare "$name" "$expected"
done

# docs/rules.md is generated from the rule table: it must not drift
docs=../../docs/rules.md
if [ "$pattern" = "*" ]; then
	if "$cli" rules --markdown >"$tmp" 2>&1; then
		if [ -n "$UPDATE" ]; then
			compare docs/rules.md "$docs"
		elif [ -f "$docs" ] && cmp -s "$docs" "$tmp"; then
			passed=$((passed + 1))
		else
			echo "FAIL docs/rules.md is out of date; run 'make docs'"
			[ -f "$docs" ] && diff -u "$docs" "$tmp" | head -n 40
			failed=$((failed + 1))
		fi
	else
		echo "FAIL '$cli rules --markdown' failed:"
		cat "$tmp"
		failed=$((failed + 1))
	fi
fi

# the rule examples and citations (tests/docs/run.sh) with the docs
if [ "$pattern" = "*" ] && [ -z "$UPDATE" ]; then
	if sh ../docs/run.sh "$cli" >"$tmp" 2>&1; then
		passed=$((passed + 1))
	else
		echo "FAIL tests/docs/run.sh:"
		grep -v '^skipped ' "$tmp"
		failed=$((failed + 1))
	fi
fi

if [ -n "$UPDATE" ]; then
	echo "$passed cases, $updated updated"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
