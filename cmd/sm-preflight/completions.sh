#!/bin/sh
# completions.sh - shell completions from the CLI's own option tables:
#   sh cmd/sm-preflight/completions.sh CLI bash|zsh|fish > FILE
#
# The commands come from `CLI --help` ("Commands:"), each command's options
# from `CLI COMMAND --help`: both are printed from the option tables in
# cmd/sm-preflight/, so a new option is completed without editing this.
# An option whose value is a FILE or DIR completes paths; the others take
# any word. POSIX sh and awk only (make install runs it).

cli=$1
shell=$2
if [ ! -x "$cli" ] || [ -z "$shell" ]; then
	echo "usage: sh cmd/sm-preflight/completions.sh CLI bash|zsh|fish" >&2
	exit 2
fi

commands=$("$cli" --help | awk '/^Commands:/ {on = 1; next}
	on && /^$/ {exit}
	on && /^  [a-z]/ {print $1}')
[ -n "$commands" ] || { echo "completions.sh: no commands in --help" >&2; exit 1; }

# options CMD: "LONG SHORT VALUE" per line (SHORT and VALUE "-" if none)
options() {
	[ "$1" = help ] && return
	"$cli" "$1" --help | awk '/^Options:/ {on = 1; next}
		on && /^$/ {exit}
		on && /^(  -[a-zA-Z], |      )--[a-z]/ {
			short = "-"; i = 1
			if ($1 ~ /^-[a-zA-Z],$/) { short = substr($1, 2, 1); i = 2 }
			long = substr($i, 3); value = "-"
			if ($(i + 1) ~ /^[A-Z][A-Z=_]*$/) value = $(i + 1)
			print long, short, value
		}'
}

# the options of the default command, usable without a command name
global_opts="--help --version"

case $shell in
bash)
	echo "# bash completion for sm-preflight (generated from its --help)"
	echo "_sm_preflight() {"
	echo '	local cur prev cmd i opts'
	echo '	cur=${COMP_WORDS[COMP_CWORD]}'
	echo '	prev=${COMP_WORDS[COMP_CWORD-1]}'
	echo '	cmd=check'
	echo '	for ((i = 1; i < COMP_CWORD; i++)); do'
	echo '		case ${COMP_WORDS[i]} in'
	printf '\t\t%s) cmd=${COMP_WORDS[i]}; break ;;\n' \
		"$(echo $commands | tr ' ' '|')"
	echo '		esac'
	echo '	done'
	echo '	case $cmd in'
	for c in $commands; do
		opts=$(options "$c" | awk '{printf "%s--%s", sep, $1; sep = " "
			if ($2 != "-") printf " -%s", $2}')
		paths=$(options "$c" | awk '$3 ~ /FILE|DIR/ {
			printf "%s--%s", sep, $1; sep = "|"
			if ($2 != "-") printf "|-%s", $2}')
		printf '\t%s)\n' "$c"
		[ -n "$paths" ] && printf '\t\tcase $prev in %s) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac\n' "$paths"
		printf '\t\topts="%s" ;;\n' "$opts"
	done
	echo '	esac'
	echo '	if [[ $cur == -* ]]; then'
	echo "		COMPREPLY=(\$(compgen -W \"\$opts $global_opts\" -- \"\$cur\"))"
	echo '	elif [ "$COMP_CWORD" -eq 1 ]; then'
	echo "		COMPREPLY=(\$(compgen -W \"$(echo $commands)\" -- \"\$cur\") \$(compgen -f -- \"\$cur\"))"
	echo '	else'
	echo '		COMPREPLY=($(compgen -f -- "$cur"))'
	echo '	fi'
	echo '}'
	echo 'complete -o filenames -F _sm_preflight sm-preflight'
	;;
zsh)
	echo "#compdef sm-preflight"
	echo "# zsh completion for sm-preflight (generated from its --help)"
	echo "_sm_preflight() {"
	echo '	local -a commands'
	printf '\tcommands=(%s)\n' "$(echo $commands)"
	echo '	if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then'
	echo "		_alternative 'commands:command:compadd -a commands' 'files:file:_files'"
	echo '		return'
	echo '	fi'
	echo '	local cmd=check'
	echo '	(( ${commands[(Ie)$words[2]]} )) && cmd=$words[2]'
	echo '	case $cmd in'
	for c in $commands; do
		printf '\t%s)\n\t\t_arguments -S \\\n' "$c"
		options "$c" | while read -r long short value; do
			case $value in
			*FILE* | *DIR*) act=":${value}:_files" ;;
			-) act= ;;
			*) act=":${value}:" ;;
			esac
			if [ "$short" != - ]; then
				printf "\t\t\t'(-%s --%s)'{-%s,--%s}'%s' \\\\\n" \
					"$short" "$long" "$short" "$long" "$act"
			else
				printf "\t\t\t'--%s%s' \\\\\n" "$long" "$act"
			fi
		done
		printf "\t\t\t'*:file:_files' ;;\n"
	done
	echo '	esac'
	echo '}'
	echo '_sm_preflight "$@"'
	;;
fish)
	echo "# fish completion for sm-preflight (generated from its --help)"
	echo "complete -c sm-preflight -l version -d 'print the version'"
	for c in $commands; do
		echo "complete -c sm-preflight -n __fish_use_subcommand -a $c"
	done
	for c in $commands; do
		cond="__fish_seen_subcommand_from $c"
		[ "$c" = check ] && cond="not __fish_seen_subcommand_from $(echo $commands | sed 's/check //')"
		options "$c" | while read -r long short value; do
			line="complete -c sm-preflight -n '$cond' -l $long"
			[ "$short" != - ] && line="$line -s $short"
			case $value in
			*FILE* | *DIR*) line="$line -r -F" ;;
			-) ;;
			*) line="$line -x" ;;
			esac
			echo "$line"
		done
	done
	;;
*)
	echo "completions.sh: unknown shell '$shell' (bash, zsh or fish)" >&2
	exit 2
	;;
esac
