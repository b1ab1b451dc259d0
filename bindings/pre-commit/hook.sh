#!/bin/sh
# hook.sh - the entry of the pre-commit hook: build sm-preflight
# in this checkout (pre-commit's clone of the repository) when it is not
# built yet, then check the files pre-commit passes. Arguments before the
# files (args: in .pre-commit-config.yaml) go to 'sm-preflight check'.
here=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cli=$here/build/sm-preflight
if [ ! -x "$cli" ]; then
	make -C "$here" --no-print-directory all >&2 ||
		{ echo "sm-preflight: the build failed (see above)" >&2; exit 2; }
fi
[ $# -gt 0 ] || exit 0
exec "$cli" check --color never "$@"
