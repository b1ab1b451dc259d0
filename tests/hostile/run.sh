#!/bin/sh
# run.sh - hostile inputs and hostile environments, end to end:
# sh tests/hostile/run.sh CLI [PATTERN]
#
# Each test_* function below sets up a scratch folder under $T and runs
# the CLI against it: device files and FIFOs as --output targets and as
# inputs, symlinks in the data cache, signals, pathological globs,
# folders owned by another user, unreadable files and folders. Tests that
# need something the machine may not give (root for mknod and chown, a
# mount namespace) skip with a message. PATTERN (a shell pattern)
# selects tests. Prints "N passed, N failed, N skipped".

if [ $# -lt 1 ]; then
	echo "usage: sh tests/hostile/run.sh CLI [PATTERN]" >&2
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

here=$(cd "$(dirname "$0")" && pwd)
good=$here/../cases/cli/good.yaml
T=$(mktemp -d "${TMPDIR:-/tmp}/smp-hostile.XXXXXX") || exit 2
cleanup() {
	chmod -R u+rwx "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

unset SM_PREFLIGHT_DATA_URL GITHUB_ACTIONS SM_PREFLIGHT_RULES_URI NO_COLOR
SM_PREFLIGHT_STALE_DAYS=0
XDG_CACHE_HOME=$T/no-cache
export SM_PREFLIGHT_STALE_DAYS XDG_CACHE_HOME
if command -v timeout >/dev/null 2>&1; then
	limit="timeout 20"
else
	limit=
fi

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

hasnt() {
	if grep -qE -- "$1" "$T/out"; then
		fail "a line matches '$1'"
		return 1
	fi
	return 0
}

# is_root: mknod, chown and unshare need it
is_root() {
	[ "$(id -u)" -eq 0 ]
}

# --- --output -------------------------------------------------------------

# A character device as the target is written in place, never replaced
# by a regular file (run in a private mount namespace on a tmpfs).
test_output_char_device_written_in_place() {
	if ! is_root || ! unshare -m true 2>/dev/null; then
		skip "needs root and unshare -m for mknod on a private tmpfs"
		return
	fi
	unshare -m sh -c 'mount -t tmpfs none "$1" && mknod "$1/null" c 1 3 &&
		"$2" check --format sarif --output "$1/null" "$3"
		echo "exit $?"
		ls -l "$1/null"; ls "$1"' sh "$T" "$cli" "$good" >"$T/out" 2>&1
	has '^exit 0$' && has '^c' && hasnt 'null\.'
}

# A FIFO as the target receives the report through the FIFO.
test_output_fifo_written_in_place() {
	mkfifo "$T/fifo" || { skip "no mkfifo"; return; }
	$limit cat "$T/fifo" >"$T/got" &
	reader=$!
	run 0 check --format json --output "$T/fifo" "$good"
	if [ -p "$T/fifo" ]; then
		wait $reader
		file_has "$T/got" '"schema_version"'
	else
		kill $reader
		wait $reader 2>/dev/null
		fail "the FIFO was replaced by a file"
	fi
}

# A symlink to a regular file: the link is replaced, its target kept.
test_output_symlink_replaced_target_untouched() {
	echo keep >"$T/target"
	ln -s target "$T/link"
	run 0 check --format json --output "$T/link" "$good"
	[ -L "$T/link" ] && fail "the symlink is still there"
	file_has "$T/link" '"schema_version"'
	file_has "$T/target" '^keep$'
}

# /dev/stdout-like: a symlink to a device is written through.
test_output_symlink_to_device_written_through() {
	ln -s /dev/null "$T/devlink"
	run 0 check --format json --output "$T/devlink" "$good"
	[ -L "$T/devlink" ] || fail "the symlink to /dev/null was replaced"
}

# One file under two spellings is refused before anything is written.
test_output_same_file_two_spellings() {
	mkdir "$T/sub"
	(cd "$T" && $limit "$cli" check --format json --output r.out \
		--format sarif --output ./sub/../r.out "$good") >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "exited $rc, expected 2"
	has "are the same file"
	echo x >"$T/exists"
	ln "$T/exists" "$T/hardlink"
	run 2 check --format json --output "$T/exists" --format sarif \
		--output "$T/hardlink" "$good" && has "are the same file"
}

# SIGTERM while a check runs: the temporaries beside the targets go.
test_signal_removes_temporaries() {
	mkdir "$T/o"
	(sleep 2; cat "$good") | "$cli" check --format json --output "$T/o/r.json" \
		--format sarif --output "$T/o/r.sarif" - >"$T/out" 2>&1 &
	pid=$!
	sleep 1
	kill -TERM $pid
	wait $pid 2>/dev/null
	left=$(ls "$T/o")
	[ -z "$left" ] || fail "left beside the targets: $left"
}

# --- FIFOs as inputs -------------------------------------------------------

# Every file the CLI reads, given as a FIFO nobody writes to, is refused
# at once with a clear error (each run is under a 20 s timeout).
test_fifo_inputs_refused() {
	mkfifo "$T/spec.yaml" "$T/base.yaml" || { skip "no mkfifo"; return; }
	run 2 check "$T/spec.yaml" && has "a FIFO, not a regular file"
	run 2 check --baseline "$T/base.yaml" "$good" &&
		has "baseline.*a FIFO, not a regular file"
	mkdir "$T/data"
	for f in instances tested-models frameworks; do
		mkfifo "$T/data/$f.json"
	done
	run 2 check --instance-data "$T/data" "$good" &&
		has "a FIFO, not a regular file"
	mkdir -p "$T/cfg/.git"
	mkfifo "$T/cfg/.sm-preflight.yaml" "$T/cfg/overlay.json"
	cp "$good" "$T/cfg/a.yaml"
	# found by the search: not a regular file, so not a configuration
	run 0 check "$T/cfg/a.yaml"
	run 2 check --config "$T/cfg/.sm-preflight.yaml" "$T/cfg/a.yaml" &&
		has "configuration.*a FIFO"
	rm "$T/cfg/.sm-preflight.yaml"
	echo "instance-overlay: overlay.json" >"$T/cfg/.sm-preflight.yaml"
	run 2 check "$T/cfg/a.yaml" && has "overlay.*a FIFO"
	# a cache whose files (and lock) are FIFOs: the built-in data is used
	XDG_CACHE_HOME=$T/fifo-cache
	mkdir -p "$XDG_CACHE_HOME/sm-preflight/data-x"
	for f in instances tested-models frameworks meta; do
		mkfifo "$XDG_CACHE_HOME/sm-preflight/data-x/$f.json"
	done
	mkfifo "$XDG_CACHE_HOME/sm-preflight/lock"
	ln -s data-x "$XDG_CACHE_HOME/sm-preflight/current"
	run 0 check "$good"
	run 0 data && has "a FIFO, not a regular file"
	XDG_CACHE_HOME=$T/no-cache
}

# A missing instance overlay says it is missing.
test_overlay_missing_says_so() {
	mkdir -p "$T/ov/.git"
	cp "$good" "$T/ov/a.yaml"
	echo "instance-overlay: nowhere.json" >"$T/ov/.sm-preflight.yaml"
	run 2 check "$T/ov/a.yaml" &&
		has "nowhere.json': No such file or directory"
}

# --- configuration -------------------------------------------------------

# files_checked DIR: how many files `check` checked in DIR (JSON summary)
files_checked() {
	$limit "$cli" check --format json "$1" 2>/dev/null |
		sed -n 's/.*"summary": {"files": \([0-9]*\).*/\1/p'
}

# ignore_case PATTERN WANT: with `ignore: [PATTERN]` in a small tree,
# WANT of its 5 specs are checked
ignore_case() {
	rm -rf "$T/tree"
	mkdir -p "$T/tree/.git" "$T/tree/a/b" "$T/tree/d/e/f"
	for f in top.yaml a/x.yaml a/b/c.yaml d/e/f/g.yaml d/g.yaml; do
		cp "$good" "$T/tree/$f"
	done
	printf 'ignore: ["%s"]\n' "$1" >"$T/tree/.sm-preflight.yaml"
	got=$(files_checked "$T/tree")
	[ "$got" = "$2" ] || fail "ignore '$1': $got files checked, expected $2"
}

# The ignore globs keep their meaning ...
test_ignore_glob_semantics() {
	ignore_case 'c.yaml' 4
	ignore_case '*.yaml' 0
	ignore_case '**/c.yaml' 4
	ignore_case 'a/**' 3
	ignore_case 'd/**/g.yaml' 3
	ignore_case '/g.yaml' 5
	ignore_case '/d/g.yaml' 4
	ignore_case 'a/' 3
	ignore_case 'a/*.yaml' 4
	ignore_case '*/*/c.yaml' 4
	ignore_case '?.yaml' 1
	ignore_case '[gx].yaml' 2
	ignore_case '[!gx]*.yaml' 3
	ignore_case 'd/*' 3
	ignore_case 'd/**' 3
	ignore_case '**' 0
	ignore_case 't*p.y*l' 4
}

# ... and take linear time: this pattern took minutes with the
# recursive matcher against a name of 100 characters.
test_ignore_glob_linear_time() {
	mkdir -p "$T/slow/.git"
	n=$(printf '%0100d' 0 | tr 0 a)
	cp "$good" "$T/slow/$n.yaml"
	printf 'ignore: ["*a*a*a*a*a*a*a*a*a*a*a*a*b"]\n' \
		>"$T/slow/.sm-preflight.yaml"
	got=$(files_checked "$T/slow")
	[ "$got" = 1 ] || fail "$got files checked, expected 1 (timeout?)"
}

# --- driver ---------------------------------------------------------------

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

echo "hostile: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
