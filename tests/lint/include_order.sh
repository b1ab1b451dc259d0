#!/bin/sh
# include_order.sh - fails when a file in lib/<stage>/ includes a header of
# a later stage (or of a peer stage). The order is the one lib/README.md
# describes; keep the two in step. Usage: sh tests/lint/include_order.sh [LIB]
#
# Each line: a rank and the stages at that rank. Stages of one rank are
# peers and may not include each other.
lib=${1:-lib}
ranks='0 util
1 doc
2 report
3 schema
4 script catalog
5 job
6 tune
7 context
8 rules
9 emit
10 fix
11 advise'

rank_of() {
	printf '%s\n' "$ranks" | awk -v s="$1" \
		'{ for (i = 2; i <= NF; i++) if ($i == s) print $1 }'
}

status=0
known=$(printf '%s\n' "$ranks" | awk '{ for (i = 2; i <= NF; i++) print $i }')
for dir in "$lib"/*/; do
	stage=$(basename "$dir")
	case " $(echo $known) " in
	*" $stage "*) ;;
	*)
		echo "$dir: a folder that is not a stage of lib/README.md"
		status=1
		continue
		;;
	esac
done
for f in "$lib"/*/*.c "$lib"/*/*.h; do
	[ -f "$f" ] || continue
	stage=$(basename "$(dirname "$f")")
	mine=$(rank_of "$stage")
	[ -n "$mine" ] || continue
	# "stage/file.h" includes; the public header and system headers pass
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$f" |
		sed 's/^\([0-9]*\):.*"\([a-z_]*\)\/\([^"]*\)".*/\1 \2 \3/' >"${TMPDIR:-/tmp}/incl.$$"
	while read -r line other file; do
		[ "$other" = "$stage" ] && continue
		theirs=$(rank_of "$other")
		if [ -z "$theirs" ]; then
			echo "$f:$line: includes \"$other/$file\": no such stage"
			status=1
		elif [ "$theirs" -ge "$mine" ]; then
			echo "$f:$line: $stage/ includes \"$other/$file\":" \
				"$other/ is not an earlier stage (lib/README.md)"
			status=1
		fi
	done <"${TMPDIR:-/tmp}/incl.$$"
	rm -f "${TMPDIR:-/tmp}/incl.$$"
done
[ "$status" -eq 0 ] && echo "include order: every include is of an earlier stage"
exit "$status"
