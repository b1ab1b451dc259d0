#!/bin/sh
# hot.sh CLI SPEC... - writes lib/hot.list: the C files whose code a
# check of each SPEC runs (valgrind's callgrind names the file of each
# function that ran, called or inlined). The Makefile links their
# objects first, so that the code a check never runs lies together after
# them and is never mapped (README "Performance"). Run it from the top of
# the repository on a spec of each kind when the code moves, e.g.
#   python3 ../shared/bench/gen_corpus.py /tmp/c 8 0
#   sh tests/bench/hot.sh build/sm-preflight /tmp/c/job000000.yaml \
#       /tmp/c/job000003.json
set -eu
cli=$1
shift
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for f in "$@"; do
	i=$((i + 1))
	valgrind --tool=callgrind --callgrind-out-file="$tmp/$i.out" \
		"$cli" check --color never --jobs 1 "$f" >/dev/null 2>&1 ||
		[ -s "$tmp/$i.out" ]
done
{
	echo "# made by tests/bench/hot.sh: the files a check of a spec runs"
	cat "$tmp"/*.out | sed -n 's|^c\{0,1\}f[lie]=([0-9]*) ||p' |
		sed -n "s|^$root/||p" | grep -E '^(lib|cmd)/.*\.c$' | sort -u
} >lib/hot.list.tmp
mv lib/hot.list.tmp lib/hot.list
