#!/bin/sh
# run.sh - the rule documentation's own checks: sh tests/docs/run.sh CLI
#
# 1. Every rule's examples (docs/examples/<rule>/, embedded in the CLI
#    by cmd/sm-preflight/embed_examples.sh) go through the checker: the
#    failing example fires its rule, the fixed form does not fire it and
#    fires no error.
#    A script-* rule's bad.py/good.py is the entry script train.py of its
#    job (docs/examples/<rule>/job.yaml, else docs/examples/script-job.yaml);
#    a native.yaml is passed as --baseline. A rule that a snippet alone
#    cannot show has a note.txt instead and is listed in skip_reason below.
#    `explain RULE` must print the examples (or the note).
# 2. What users read cites public sources: `explain` of every rule,
#    docs/rules.md, the man page, every command's --help and the
#    instance data (README.md and the JSON files' sources) name no
#    internal ids (R12, D10), DESIGN.md,
#    CONVENTIONS.md, issue numbers, the developers' ../shared folder or
#    its reference files.
# 3. A README section a rule cites ('README, "Suppressing a finding"')
#    is a heading of README.md.
# 4. A rule's source names the SageMaker Python SDK with its version.
if [ $# -ne 1 ]; then
	echo "usage: sh tests/docs/run.sh CLI" >&2
	exit 2
fi
cli=$1
case $cli in
/*) ;;
*) cli=$(pwd)/$cli ;;
esac
if [ ! -x "$cli" ]; then
	echo "run.sh: '$cli' is not an executable" >&2
	exit 2
fi
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smp-docs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

unset NO_COLOR FORCE_COLOR CLICOLOR_FORCE GITHUB_ACTIONS SM_PREFLIGHT_DATA_URL
XDG_CACHE_HOME=$tmp/no-cache
SM_PREFLIGHT_STALE_DAYS=0
export XDG_CACHE_HOME SM_PREFLIGHT_STALE_DAYS

# The rules whose examples cannot be run, and why (each has a note.txt).
skip_reason() {
	case $1 in
	data-stale) echo "it is about the age of a refreshed data cache, not a job" ;;
	*) echo "" ;;
	esac
}

failed=0
checked=0
skipped=0
fail() {
	echo "FAIL $*"
	failed=$((failed + 1))
}

# run RULE FILE ARGS...: the findings of FILE as "rule severity" lines in
# $tmp/out, the exit status in $rc
run() {
	r=$1
	f=$2
	shift 2
	"$cli" check --color never --no-config --format json "$@" "$f" \
		>"$tmp/json" 2>"$tmp/err"
	rc=$?
	grep -v '"suppressed": true' "$tmp/json" |
		sed -n 's/^ *{"rule": "\([^"]*\)", "severity": "\([a-z]*\)".*/\1 \2/p' \
			>"$tmp/out"
}

# one PATTERN: the one file PATTERN matches, or fail
one() {
	# shellcheck disable=SC2086 # the pattern is a glob on purpose
	set -- $1
	[ $# -eq 1 ] && [ -f "$1" ] && echo "$1"
}

rules=$("$cli" rules | awk 'NR > 1 {print $1}')
[ -n "$rules" ] || fail "'$cli rules' lists no rule"
for d in docs/examples/*/; do
	r=${d%/}
	r=${r##*/}
	echo "$rules" | grep -qx "$r" || fail "docs/examples/$r: no such rule"
done

for r in $rules; do
	d=docs/examples/$r
	reason=$(skip_reason "$r")
	"$cli" explain "$r" >"$tmp/explain" 2>&1 || fail "explain $r failed"
	if [ -n "$reason" ]; then
		[ -s "$d/note.txt" ] || fail "$r: skipped ($reason) but no $d/note.txt"
		grep -q '^Example: ' "$tmp/explain" ||
			fail "$r: 'explain $r' shows no note"
		echo "skipped $r: $reason"
		skipped=$((skipped + 1))
		continue
	fi
	bad=$(one "$d/bad.*") || {
		fail "$r: no $d/bad.{yaml,json,py} (or a skip_reason)"
		continue
	}
	good=$(one "$d/good.*") || {
		fail "$r: no $d/good.{yaml,json,py}"
		continue
	}
	grep -q '^Fixed:$' "$tmp/explain" ||
		fail "$r: 'explain $r' shows no fixed form"
	grep -qF -- "    $(sed -n '/./{p;q;}' "$bad")" "$tmp/explain" ||
		fail "$r: 'explain $r' does not show $bad"
	set --
	[ -f "$d/native.yaml" ] && set -- --baseline "$d/native.yaml"
	case $r:$bad in
	script-*:*.py)
		job=$d/job.yaml
		[ -f "$job" ] || job=docs/examples/script-job.yaml
		;;
	script-*) job= ;;
	*)
		job=
		set -- "$@" --no-script
		;;
	esac
	for kind in bad good; do
		if [ "$kind" = bad ]; then f=$bad; else f=$good; fi
		target=$f
		if [ -n "$job" ]; then
			rm -rf "$tmp/job" && mkdir "$tmp/job" &&
				cp "$job" "$tmp/job/job.yaml" &&
				cp "$f" "$tmp/job/train.py" || exit 2
			target=$tmp/job/job.yaml
		fi
		run "$r" "$target" "$@"
		if [ "$rc" -gt 1 ]; then
			fail "$r: $f: exit $rc"
			cat "$tmp/err"
			continue
		fi
		if [ "$kind" = bad ]; then
			grep -q "^$r " "$tmp/out" ||
				{ fail "$r: $f does not fire $r:"; cat "$tmp/out"; }
		else
			if grep -q "^$r " "$tmp/out"; then
				fail "$r: $f (the fixed form) fires $r"
			fi
			if grep -q " error$" "$tmp/out"; then
				fail "$r: $f (the fixed form) has errors:"
				cat "$tmp/out"
			fi
		fi
	done
	checked=$((checked + 1))
done

# 2. internal ids, internal documents, issue numbers, ../shared
internal='\b[RD][0-9]+\b|DESIGN|CONVENTIONS|\.\./shared|shared/reference|sdk-rules|reference/README|read_file|[Ii]ssue #?[0-9]|§'
for r in $rules; do
	"$cli" explain "$r"
done >"$tmp/texts" 2>&1
cat docs/rules.md docs/sm-preflight.1 instance-data/README.md \
	instance-data/*.json >>"$tmp/texts"
"$cli" --help >>"$tmp/texts" 2>&1
for c in $("$cli" --help 2>&1 | sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p'); do
	"$cli" "$c" --help >>"$tmp/texts" 2>&1
done
if grep -nE "$internal" "$tmp/texts" >"$tmp/hits"; then
	fail "user-facing text cites internal documents or ids:"
	head -n 20 "$tmp/hits"
fi

# 3. a README section cited by a rule exists
sed -n 's/.*README, "\([^"]*\)".*/\1/p' docs/rules.md | sort -u |
	while IFS= read -r section; do
		grep -qxF "## $section" README.md ||
			grep -qxF "### $section" README.md ||
			echo "$section"
	done >"$tmp/sections"
if [ -s "$tmp/sections" ]; then
	fail "docs/rules.md cites README sections that do not exist:"
	cat "$tmp/sections"
fi

# 4. the SageMaker Python SDK is cited at a version
if grep '^Source: ' docs/rules.md | grep -oE 'SageMaker Python SDK.{0,3}' |
	grep -v 'SageMaker Python SDK v[0-9]' >"$tmp/sdk"; then
	fail "docs/rules.md cites the SageMaker Python SDK without a version:"
	cat "$tmp/sdk"
fi

echo "$checked rules' examples checked, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
