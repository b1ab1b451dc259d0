#!/bin/sh
# run.sh - the language server's tests: sh tests/lsp/run.sh CLI
#   the protocol test over stdio (python3), then Neovim's built-in client
#   (nvim, headless) and Emacs eglot (emacs in batch mode) on a broken
#   spec; a client that is not installed is skipped with a message.
set -u
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
status=0

# a workspace of its own: a git repository (the clients' project root and
# the configuration's) with the broken example and its entry script
workspace() {
	ws=$(mktemp -d "${TMPDIR:-/tmp}/smp-lsp.XXXXXX")
	if command -v git >/dev/null 2>&1; then
		git -C "$ws" init -q
	else
		mkdir "$ws/.git"
	fi
	cp -r "$repo/examples/scripts" "$ws/"
	cp "$repo/examples/broken-gpu-num-devices.yaml" "$ws/spec.yaml"
}

if command -v "$python" >/dev/null 2>&1; then
	echo "$python tests/lsp/test_protocol.py $1"
	"$python" -B "$here/test_protocol.py" "$cli" || status=1
else
	echo "skipped the LSP protocol test: python3 is not installed"
fi

if command -v nvim >/dev/null 2>&1; then
	workspace
	echo "nvim --headless --clean -c 'luafile tests/lsp/nvim.lua'"
	SMP_CLI=$cli SMP_SPEC=$ws/spec.yaml SMP_ROOT=$ws timeout 120 \
		nvim --headless --clean -c "luafile $here/nvim.lua" \
		</dev/null || status=1
	rm -rf "$ws"
else
	echo "skipped the Neovim LSP test: nvim is not installed" \
		"(apt-get install neovim)"
fi

if command -v emacs >/dev/null 2>&1 &&
	ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1; then
	workspace
	echo "emacs --batch -Q -l tests/lsp/eglot.el"
	out=$(SMP_CLI=$cli SMP_SPEC=$ws/spec.yaml timeout 120 \
		emacs --batch -Q -l "$here/eglot.el" 2>&1)
	rc=$?
	# eglot's own messages are noise here; the checks' lines are not
	printf '%s\n' "$out" | grep -E '^(ok  |FAIL|Debugger|.*error)' | cut -c1-160
	[ $rc -eq 0 ] || status=1
	rm -rf "$ws"
else
	echo "skipped the Emacs eglot test: emacs or eglot is not installed" \
		"(apt-get install emacs-nox elpa-eglot)"
fi
exit $status
