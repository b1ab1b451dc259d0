#!/bin/sh
# rule_ids.sh - fails when code in lib/ matches a finding's rule
# against an id string: a finding is final when its rule emits it, and
# what other code needs to know of a rule is declared in rules.def (its
# S, O, F and U rows) and asked by enum. rules.def and rule_table.c (the
# table's own text) are the only places that spell the ids of the spec
# rules. Usage: sh tests/lint/rule_ids.sh [DIR...]
status=0
dirs=${*:-lib}
# a rule compared with a string literal, whichever rule it is
hits=$(grep -rnE --include='*.c' --include='*.h' \
	'(->|\.)rule *(,|==|!=) *"' $dirs)
if [ -n "$hits" ]; then
	echo "a finding's rule matched against a string (ask rules.def by enum):"
	echo "$hits"
	status=1
fi
# the loaders' and the schema's rules, spelt outside the table
hits=$(grep -rnE --include='*.c' --include='*.h' --include='*.def' \
	'"(syntax|input-limit|duplicate-key|unknown-key|wrong-type)"' $dirs |
	grep -v '^lib/report/rules\.def:\|^lib/report/rule_table\.c:')
if [ -n "$hits" ]; then
	echo "a rule id spelt outside lib/report/rules.def:"
	echo "$hits"
	status=1
fi
exit $status
