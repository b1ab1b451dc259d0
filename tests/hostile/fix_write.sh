#!/bin/sh
# fix_write.sh - how `check --fix` writes a file back, end to end:
# sh tests/hostile/fix_write.sh CLI [PATTERN]
#
# As tests/hostile/run.sh: each test_* function sets up a scratch folder
# under $T and runs the CLI against it. --fix must write like an editor
# that respects the file: in place (same inode, so owner, group, mode and
# links are kept, and nothing is created beside it), never a file the
# user may not write or one marked read-only, and a write that fails
# leaves the text as it was and reports the findings of that text. Tests
# that need another user run as root and switch with setpriv
# (util-linux); they skip with a message otherwise. The compare-and-swap
# against an edit made while the fix runs is tested on the write itself
# (tests/unit/test_fix_write.c). Prints "N passed, N failed, N skipped".

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
cli_args "sh tests/hostile/fix_write.sh CLI [PATTERN]" "$@"
# GPU_NUM_DEVICES "8" on a 4-GPU instance (an error) and debug: true,
# both fixed safely; the fix makes the text one byte longer
spec=$here/../cases/fix/walked/compiler.yaml
T=$(mktemp -d "${TMPDIR:-/tmp}/smp-fixwrite.XXXXXX") || exit 2
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
# the other user of these tests
uid=1234

# as_user: root, with setpriv to become $uid (else skips and fails)
as_user() {
	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
		skip "needs root and setpriv (util-linux) to run as uid $uid"
		return 1
	fi
	return 0
}

# run_as WANT ARGS...: as run, as uid $uid
run_as() {
	want=$1
	shift
	$limit setpriv --reuid=$uid --regid=$uid --clear-groups \
		"$cli" "$@" >"$T/out" 2>&1 </dev/null
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "'sm-preflight $*' as uid $uid exited $rc, expected $want"
		return 1
	fi
	return 0
}

# fixed FILE: FILE holds the fixed text; unfixed FILE: the original
fixed() {
	file_has "$1" 'GPU_NUM_DEVICES: "4"' && file_has "$1" 'debug: false'
}

unfixed() {
	cmp -s "$spec" "$1" || fail "$1 is not the original text any more"
}

# id_of FILE: inode, links, owner, group and mode, as stat prints them
id_of() {
	stat -c '%i %h %u %g %a' "$1"
}

# nothing_beside DIR NAMES: DIR holds exactly NAMES (sorted, one line)
nothing_beside() {
	got=$(cd "$1" && ls -A | tr '\n' ' ')
	[ "$got" = "$2 " ] || fail "$1 holds '$got', expected '$2 '"
}

# --- owner, group, mode (N8) ----------------------------------------------

# Root fixing another user's 0640 file keeps it theirs: same inode,
# owner, group and mode (it became root:root 0640 before).
test_root_keeps_owner_group_mode() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "needs root to give the file to uid $uid"
		return
	fi
	cp "$spec" "$T/a.yaml"
	chown $uid:$uid "$T/a.yaml"
	chmod 0640 "$T/a.yaml"
	before=$(id_of "$T/a.yaml")
	run 0 check --no-script --fix "$T/a.yaml" &&
		has 'fixed 2 problems in 1 file'
	fixed "$T/a.yaml"
	after=$(id_of "$T/a.yaml")
	[ "$before" = "$after" ] ||
		fail "inode, links, owner, group, mode: '$before' became '$after'"
}

# A read-only file (no write permission for anyone) is refused, even by
# root, who could write it by privilege; the findings are those of the
# text on disk.
test_read_only_file_refused() {
	cp "$spec" "$T/ro.yaml"
	chmod 0444 "$T/ro.yaml"
	run 1 check --no-script --fix "$T/ro.yaml" &&
		has "cannot write '.*ro.yaml': it is read-only \(mode 0444\); not fixed" &&
		has 'gpu-num-devices-mismatch' && has 'compiler-debug' &&
		has 'fixed 0 problems in 0 files'
	unfixed "$T/ro.yaml"
	[ "$(stat -c %a "$T/ro.yaml")" = 444 ] || fail "the mode changed"
}

# As uid 1234, in a folder it may write: its own 0444 file and a
# root-owned 0644 file are refused (both were rewritten through the
# folder before), and its own writable file in the same run is fixed.
test_user_refused_what_it_may_not_write() {
	as_user || return
	mkdir "$T/shared"
	chmod 0777 "$T/shared"
	cp "$spec" "$T/shared/mine-ro.yaml"
	cp "$spec" "$T/shared/roots.yaml"
	cp "$spec" "$T/shared/mine.yaml"
	chown $uid:$uid "$T/shared/mine-ro.yaml" "$T/shared/mine.yaml"
	chmod 0444 "$T/shared/mine-ro.yaml"
	chmod 0644 "$T/shared/roots.yaml" "$T/shared/mine.yaml"
	chmod 0711 "$T"
	run_as 1 check --no-script --fix "$T/shared/mine-ro.yaml" \
		"$T/shared/roots.yaml" "$T/shared/mine.yaml" &&
		has "cannot write '.*mine-ro.yaml': it is read-only \(mode 0444\); not fixed" &&
		has "cannot write '.*roots.yaml': Permission denied; not fixed" &&
		has 'roots.yaml:[0-9]+:[0-9]+: error: .*gpu-num-devices-mismatch' &&
		has 'fixed 2 problems in 1 file'
	unfixed "$T/shared/mine-ro.yaml"
	unfixed "$T/shared/roots.yaml"
	fixed "$T/shared/mine.yaml"
	[ "$(stat -c '%u %a' "$T/shared/roots.yaml")" = "0 644" ] ||
		fail "roots.yaml is now $(stat -c '%u %a' "$T/shared/roots.yaml")"
	nothing_beside "$T/shared" "mine-ro.yaml mine.yaml roots.yaml"
}

# --- links (N9) -------------------------------------------------------------

# A symbolic link named on the command line is written through: the
# link stays a link, its target holds the fixed text.
test_symlink_written_through() {
	mkdir "$T/s"
	cp "$spec" "$T/s/real.yaml"
	ln -s real.yaml "$T/s/link.yaml"
	run 0 check --no-script --fix "$T/s/link.yaml" &&
		has 'fixed 2 problems in 1 file'
	[ -L "$T/s/link.yaml" ] || fail "link.yaml is no longer a link"
	fixed "$T/s/real.yaml"
}

# A folder with a hard link and a symbolic link to one file: the walk
# meets it three times; it is fixed once, stays one inode with two
# names and the link, and no name is an error.
test_links_in_a_walk_kept() {
	mkdir "$T/w"
	cp "$spec" "$T/w/a.yaml"
	ln "$T/w/a.yaml" "$T/w/hard.yaml"
	ln -s a.yaml "$T/w/soft.yaml"
	ino=$(stat -c %i "$T/w/a.yaml")
	run 0 check --no-script --fix "$T/w" &&
		has 'fixed 2 problems in 1 file' && hasnt 'cannot write'
	[ "$(stat -c '%i %h' "$T/w/hard.yaml")" = "$ino 2" ] ||
		fail "hard.yaml: inode and links $(stat -c '%i %h' "$T/w/hard.yaml"), expected $ino 2"
	[ -L "$T/w/soft.yaml" ] || fail "soft.yaml is no longer a link"
	fixed "$T/w/a.yaml"
}

# --- edits made while --fix runs (N10) --------------------------------------

# A program that holds the spec open (an editor writing in place, a
# generator appending) and writes after the fix: its edit is in the file
# (with a rename it went to the replaced inode, which no name reaches).
# An edit made between the read and the write is refused instead; that
# is tested on the write itself (tests/unit/test_fix_write.c).
test_edit_through_open_descriptor_kept() {
	mkdir "$T/e"
	cp "$spec" "$T/e/a.yaml"
	exec 3>>"$T/e/a.yaml"
	run 0 check --no-script --fix "$T/e/a.yaml"
	echo '# appended by another program' >&3
	exec 3>&-
	fixed "$T/e/a.yaml"
	file_has "$T/e/a.yaml" '^# appended by another program$'
}

# --- nothing beside the file (N14) -----------------------------------------

# The folder is never written: no temporary file is made beside the
# spec (which a SIGKILL could leave behind), so the folder's time and
# entries do not change.
test_folder_untouched() {
	mkdir "$T/d"
	cp "$spec" "$T/d/a.yaml"
	touch -d '2001-02-03 04:05:06' "$T/d"
	run 0 check --no-script --fix "$T/d/a.yaml" &&
		has 'fixed 2 problems in 1 file'
	fixed "$T/d/a.yaml"
	nothing_beside "$T/d" "a.yaml"
	[ "$(stat -c %Y "$T/d")" = "$(date -d '2001-02-03 04:05:06' +%s)" ] ||
		fail "the folder was written (its time changed)"
}

# block_size: the unit of ulimit -f in this shell, in bytes (found by
# writing past a 1-block limit with SIGXFSZ ignored)
block_size() {
	(ulimit -f 1 && trap '' XFSZ &&
		head -c 4096 /dev/zero >"$T/probe") 2>/dev/null
	wc -c <"$T/probe"
	rm -f "$T/probe"
}

# A file size limit (ulimit -f) the fixed text would pass: the run is
# not killed by SIGXFSZ, leaves no temporary file, keeps the text as it
# was and reports that text's findings with the write error (N14, N15).
test_file_size_limit() {
	bs=$(block_size)
	case $bs in
	512 | 1024) ;;
	*)
		skip "ulimit -f does not limit writes here"
		return
		;;
	esac
	mkdir "$T/l"
	# padded to 4 blocks exactly: the fix (one byte more) passes them
	size=$(wc -c <"$spec")
	{
		cat "$spec"
		pad=$((4 * bs - size - 1))
		printf '#%*s' "$pad" '' | tr ' ' x
	} >"$T/l/big.yaml"
	cp "$T/l/big.yaml" "$T/l.orig"
	{
		(ulimit -f 4 && exec "$cli" check --no-script --fix "$T/l/big.yaml")
		echo "exit $?"
	} 2>&1 </dev/null | cat >"$T/out"
	has '^exit 1$' &&
		has "cannot write '.*big.yaml': File too large; not fixed" &&
		has 'big.yaml:17:20: error: .*gpu-num-devices-mismatch' &&
		has 'compiler-debug'
	cmp -s "$T/l.orig" "$T/l/big.yaml" || fail "big.yaml changed"
	nothing_beside "$T/l" "big.yaml"
}

# --- driver ---------------------------------------------------------------

run_tests

echo "fix_write: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
