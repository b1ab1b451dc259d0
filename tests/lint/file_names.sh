#!/bin/sh
# file_names.sh - fails when a source file's opening comment names another
# file ("rules_tune.c - ..." in batch_size.c): the name a reader greps for
# must be the file's own; and when a comment cites a document that is not
# in the repository (the design notes and SDK digest the project was
# written from): cite the README, docs/ or the public AWS and SDK sources.
# Usage: sh tests/lint/file_names.sh [DIR...]
status=0
for f in $(find ${*:-lib cmd} -name '*.[ch]' -o -name '*.sh' | sort); do
	b=$(basename "$f")
	named=$(sed -n '1,3{s/^\(\/\*\| \*\|#\) *\([A-Za-z0-9_.-]*\.\(c\|h\|sh\)\) - .*/\2/p}' "$f" |
		head -n 1)
	if [ -n "$named" ] && [ "$named" != "$b" ]; then
		echo "$f: its opening comment names $named"
		status=1
	fi
done
hits=$(grep -rnI 'DESIGN\.md\|CONVENTIONS\.md\|sdk-rules\.md' ${*:-lib cmd})
if [ -n "$hits" ]; then
	echo "a document outside the repository cited:"
	echo "$hits"
	status=1
fi
exit $status
