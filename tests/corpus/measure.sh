#!/bin/sh
# measure.sh CLI TREE...: `CLI check .` in each TREE (a real repository
# exported as it is, e.g. `git archive HEAD | tar -x -C TREE`), and the
# counts the walk's targets are about: findings by severity and rule, the
# files that hold a Training Compiler job (named TrainingCompilerConfig or
# compiler_config) against the files with findings, and CPU time and peak
# RSS. Nothing here asserts: README.md records what was measured.
cli=$1
shift
case $cli in /*) ;; *) cli=$(pwd)/$cli ;; esac
for tree do
	echo "== $tree"
	(
		cd "$tree" || exit 2
		out=$(mktemp) err=$(mktemp)
		/usr/bin/time -f "cpu %U+%S s, peak RSS %M KiB" "$cli" check \
			--color never --no-script . >"$out" 2>"$err"
		echo "exit $?"
		grep -v '^Command exited' "$err" | tail -n 2
		grep -E ': (error|warning|info): .*\]$' "$out" |
			sed -E 's/.*: (error|warning|info): .*\[([a-z0-9-]+)\]$/\1 \2/' |
			sort | uniq -c | sort -rn
		grep -rlE 'TrainingCompilerConfig|compiler_config' \
			--include='*.py' --include='*.ipynb' --include='*.json' \
			--include='*.yaml' --include='*.yml' . | sed 's|^\./||' |
			sort >"$out.jobs"
		grep -E ': (error|warning|info): ' "$out" | sed -E 's/:(cell [0-9]+:)?[0-9]+:[0-9]+: .*//' |
			sort -u >"$out.files"
		echo "files naming the compiler: $(wc -l <"$out.jobs")"
		echo "files with findings that do not: $(grep -cvxF -f "$out.jobs" "$out.files")"
		rm -f "$out" "$err" "$out.jobs" "$out.files"
	)
done
