# lib.sh - what the shell suites share, sourced by tests/cases/run.sh
# (cli_args only), tests/hostile/run.sh and tests/net/run.sh: reading a
# suite's arguments, running the CLI into $T/out and checking that
# output, and driving the test_* functions of the suite. A suite sets T (a
# scratch folder) and limit (a timeout command, or empty) before it runs
# tests.

# cli_args USAGE CLI [PATTERN]: sets cli (absolute) and pattern, or
# exits 2 with USAGE when CLI is missing or not an executable.
cli_args() {
	usage=$1
	shift
	if [ $# -lt 1 ]; then
		echo "usage: $usage" >&2
		exit 2
	fi
	cli=$1
	pattern=${2:-*}
	case $cli in
	/*) ;;
	*) cli=$(pwd)/$cli ;;
	esac
	if [ ! -x "$cli" ]; then
		echo "run.sh: '$cli' is not an executable" >&2
		exit 2
	fi
}

passed=0
failed=0
skipped=0
name=
broken=0
skip=0

fail() {
	echo "FAIL $name: $*"
	sed 's/^/    | /' "$T/out"
	broken=1
	return 1
}

skip() {
	echo "skip $name: $*"
	skip=1
}

# run WANT ARGS...: runs the CLI, output (both streams) in $T/out
run() {
	want=$1
	shift
	$limit "$cli" "$@" >"$T/out" 2>&1 </dev/null
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "'sm-preflight $*' exited $rc, expected $want"
		return 1
	fi
	return 0
}

# has PATTERN: the last output matches the extended regular expression
has() {
	grep -qE -- "$1" "$T/out" || fail "no line matches '$1'"
}

# file_has FILE PATTERN: FILE matches the extended regular expression
file_has() {
	grep -qE -- "$2" "$1" || fail "no line of $1 matches '$2'"
}

# hasnt PATTERN
hasnt() {
	if grep -qE -- "$1" "$T/out"; then
		fail "a line matches '$1'"
		return 1
	fi
	return 0
}

# run_tests: every test_NAME() of the suite ($0) whose NAME matches
# $pattern, counted in passed, failed and skipped.
run_tests() {
	for t in $(sed -n 's/^\(test_[a-z0-9_]*\)() {$/\1/p' "$0"); do
		name=${t#test_}
		# shellcheck disable=SC2254 # PATTERN is a glob on purpose
		case $name in
		$pattern) ;;
		*) continue ;;
		esac
		broken=0
		skip=0
		: >"$T/out"
		$t
		if [ $skip -eq 1 ]; then
			skipped=$((skipped + 1))
		elif [ $broken -eq 0 ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	done
}
