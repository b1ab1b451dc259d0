#!/bin/sh
# hook.sh - the entry of the pre-commit hook: build sm-preflight
# in this checkout (pre-commit's clone of the repository) when it is not
# built yet, then check the files pre-commit passes as a walk would
# (--as-walk: files without a training job are skipped, only Training
# Compiler jobs judged). Arguments before the files (args: in
# .pre-commit-config.yaml) go to 'sm-preflight check'; give option values
# with '=' (--fail-on=warning). The files go after '--', so that a staged
# file named like an option ('--config=x.yaml') is read as a file.
here=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cli=$here/build/sm-preflight
if [ ! -x "$cli" ]; then
	make -C "$here" --no-print-directory all >&2 ||
		{ echo "sm-preflight: the build failed (see above)" >&2; exit 2; }
fi
[ $# -gt 0 ] || exit 0
# pre-commit puts the files last: the arguments after the last one that
# is not an existing file are the files
k=0
i=0
for a do
	i=$((i + 1))
	[ -f "$a" ] || [ -L "$a" ] || k=$i
done
# rotate the arguments once, putting '--' after the k-th
if [ "$k" -eq 0 ]; then
	set -- -- "$@"
else
	i=0
	n=$#
	while [ "$i" -lt "$n" ]; do
		a=$1
		shift
		set -- "$@" "$a"
		i=$((i + 1))
		[ "$i" -ne "$k" ] || set -- "$@" --
	done
fi
exec "$cli" check --color never --as-walk --force-exclude "$@"
