#!/bin/sh
# run.sh - the install test: sh tests/install/run.sh [BUILD]
#
# Runs `make install` into a temporary DESTDIR, checks that the binary,
# header, libraries (soname and development symlinks), pkg-config file and
# man page are in place, builds examples/embed.c against the staged copy
# with nothing but `pkg-config --cflags --libs smpreflight`, runs it on a
# clean and a broken example, loads the staged library from the Python
# binding through LD_LIBRARY_PATH, installs the binding with pip into a
# venv (the wheel bundles the library), and finally checks that `make
# uninstall` removes every file. Prints "N passed, N failed"; the exit
# status is 1 when anything failed. BUILD is the build folder (default
# build); MAKE, CC and PREFIX may be set.
#
# $make, $cc and the pkg-config flags are split into words on purpose.
# shellcheck disable=SC2086,SC2046

build=${1:-build}
make=${MAKE:-make}
cc=${CC:-cc}
prefix=${PREFIX:-/usr/local}
python=${PYTHON:-python3}
[ -x /usr/bin/python3 ] && [ -z "$PYTHON" ] && python=/usr/bin/python3

cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smp-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
dest=$tmp/dest
log=$tmp/log

passed=0
failed=0

# the test's own specs (examples/ changes with the documentation)
cat >"$tmp/clean.yaml" <<'EOF'
estimator: HuggingFace
entry_point: train.py
instance_type: ml.p3.2xlarge
instance_count: 1
transformers_version: "4.21.1"
pytorch_version: "1.11.0"
py_version: py38
compiler_config: {enabled: true, debug: false}
debugger_hook_config: false
disable_profiler: true
hyperparameters:
  preprocessing_num_workers: 8
  model_name_or_path: bert-base-uncased
  per_device_train_batch_size: 24
  max_seq_length: 512
EOF
cat >"$tmp/broken.yaml" <<'EOF'
estimator: HuggingFace
entry_point: train.py
instance_type: ml.p3.8xlarge
instance_count: 1
transformers_version: "4.17.0"
pytorch_version: "1.10.2"
py_version: py38
compiler_config: {enabled: true}
disable_profiler: true
debugger_hook_config: false
environment:
  GPU_NUM_DEVICES: "8"
hyperparameters:
  model_name_or_path: bert-base-cased
EOF

ok() {
	passed=$((passed + 1))
}

bad() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}

# check DESCRIPTION COMMAND...: one test
check() {
	what=$1
	shift
	if "$@" >"$log" 2>&1; then
		ok
	else
		bad "$what"
		sed 's/^/    /' "$log" | head -n 20
	fi
}

version_part() {
	sed -n "s/^#define SMP_VERSION_$1 \([0-9][0-9]*\).*/\1/p" lib/smpreflight.h
}
version=$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)
abi=$(sed -n 's/^#define SMP_ABI_VERSION \([0-9][0-9]*\).*/\1/p' lib/smpreflight.h)
lib=$dest$prefix/lib
soname=libsmpreflight.so.$abi
sofile=libsmpreflight.so.$abi.$(version_part MINOR).$(version_part PATCH)

check "make install DESTDIR=... PREFIX=$prefix" \
	$make --no-print-directory BUILD="$build" DESTDIR="$dest" \
	PREFIX="$prefix" install

# every installed file
for f in "bin/sm-preflight" "include/smpreflight.h" \
	"lib/libsmpreflight.a" "lib/$sofile" \
	"lib/pkgconfig/smpreflight.pc" "share/man/man1/sm-preflight.1" \
	"share/sm-preflight/schemas/report.schema.json" \
	"share/sm-preflight/schemas/estimator.schema.json" \
	"share/bash-completion/completions/sm-preflight" \
	"share/zsh/site-functions/_sm-preflight" \
	"share/fish/vendor_completions.d/sm-preflight.fish"; do
	check "installed: $prefix/$f" test -f "$dest$prefix/$f"
done
check "bin/sm-preflight is executable" test -x "$dest$prefix/bin/sm-preflight"
check "$soname -> $sofile" \
	test "$(readlink "$lib/$soname")" = "$sofile"
check "libsmpreflight.so -> $soname" \
	test "$(readlink "$lib/libsmpreflight.so")" = "$soname"
check "the shared library's soname is $soname" \
	sh -c "readelf -d '$lib/$sofile' |
		grep -q 'SONAME.*\[$soname\]'"
check "the installed binary runs" \
	sh -c "'$dest$prefix/bin/sm-preflight' --version | grep -q '$version'"
if command -v man >/dev/null 2>&1; then
	check "the man page renders without warnings" \
		sh -c "! LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l \
			'$dest$prefix/share/man/man1/sm-preflight.1' 2>&1 \
			>/dev/null | grep ."
else
	echo "skipped the man page rendering: no man (apt-get install man-db)"
fi

# the man page is kept in step with --help: every command and long option
man_has_help() {
	bin=$dest$prefix/bin/sm-preflight
	page=$dest$prefix/share/man/man1/sm-preflight.1
	missing=
	for opt in $("$bin" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		sed 's/\\-/-/g' "$page" | grep -qe "$opt" ||
			missing="$missing $opt"
	done
	for cmd in $("$bin" --help |
		sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p'); do
		grep -qE "^\.B[RI]? \"?$cmd( |\"|\$)" "$page" ||
			missing="$missing $cmd"
	done
	[ -z "$missing" ] || { echo "not in the man page:$missing"; return 1; }
}
check "the man page names every command and option of --help" man_has_help
check "the man page is for version $version" \
	grep -q "^\.TH SM-PREFLIGHT 1 .*\"sm-preflight $version\"" \
	"$dest$prefix/share/man/man1/sm-preflight.1"

# every schema of the repository is installed
for f in schemas/*.schema.json; do
	check "installed: $prefix/share/sm-preflight/$f" \
		cmp -s "$f" "$dest$prefix/share/sm-preflight/$f"
done

# the completions know every command and every option of --help
bin=$dest$prefix/bin/sm-preflight
completes_all() {
	file=$1
	missing=
	for opt in $("$bin" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		case $opt in --help | --version | --opt) continue ;; esac
		grep -qe "${opt#--}" "$file" || missing="$missing $opt"
	done
	for cmd in $("$bin" --help |
		sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p'); do
		grep -qw -e "$cmd" "$file" || missing="$missing $cmd"
	done
	[ -z "$missing" ] || { echo "not completed:$missing"; return 1; }
}
comp=$dest$prefix/share
check "bash completion: every command and option" \
	completes_all "$comp/bash-completion/completions/sm-preflight"
check "zsh completion: every command and option" \
	completes_all "$comp/zsh/site-functions/_sm-preflight"
check "fish completion: every command and option" \
	completes_all "$comp/fish/vendor_completions.d/sm-preflight.fish"
if command -v bash >/dev/null 2>&1; then
	# what bash offers for "sm-preflight check --f<TAB>"
	complete_bash() {
		bash -c '. "$1"; COMP_WORDS=(sm-preflight check --f); COMP_CWORD=2
			_sm_preflight; printf "%s\n" "${COMPREPLY[@]}"' sh \
			"$comp/bash-completion/completions/sm-preflight" >"$tmp/compl" &&
			grep -qx -- --format "$tmp/compl" &&
			grep -qx -- --fail-on "$tmp/compl"
	}
	check "bash completes 'check --f' to --fail-on and --format" complete_bash
fi

# pkg-config sees the staged copy: PKG_CONFIG_SYSROOT_DIR puts DESTDIR in
# front of the -I and -L paths the .pc file gives for the real prefix
PKG_CONFIG_PATH=$lib/pkgconfig
PKG_CONFIG_SYSROOT_DIR=$dest
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
check "pkg-config --modversion smpreflight is $version" \
	test "$(pkg-config --modversion smpreflight)" = "$version"
flags=$(pkg-config --cflags --libs smpreflight)
check "examples/embed.c builds with only pkg-config's flags" \
	$cc -o "$tmp/embed" examples/embed.c $flags
check "embed links the shared library" \
	sh -c "LD_LIBRARY_PATH='$lib' ldd '$tmp/embed' |
		grep -q '$soname => $lib/$soname'"

# the .pc file is relocatable: its folders follow ${prefix}, so that
# --define-prefix on the staged copy (no sysroot) points into it
define_prefix() {
	out=$(env -u PKG_CONFIG_SYSROOT_DIR pkg-config --define-prefix \
		--cflags --libs smpreflight) || return 1
	echo "$out"
	[ "$(echo $out)" = "-I$dest$prefix/include -L$lib -lsmpreflight" ]
}
check "pkg-config --define-prefix gives the staged folders" define_prefix

# run_embed WANT SPEC: embed's exit status must be WANT
run_embed() {
	LD_LIBRARY_PATH=$lib "$tmp/embed" "$2" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$1" ]; then
		cat "$tmp/out"
		echo "exit $rc, want $1"
		return 1
	fi
}
check "embed: a clean spec exits 0" \
	run_embed 0 "$tmp/clean.yaml"
check "embed: an error-level finding exits 1" \
	run_embed 1 "$tmp/broken.yaml"
check "embed names the error's rule" \
	grep -q 'gpu-num-devices-mismatch' "$tmp/out"
check "embed: an unreadable file exits 2" run_embed 2 "$tmp/missing.yaml"
# a finding in the entry script is named by the script's file and line
mkdir "$tmp/scripted"
cp "$tmp/clean.yaml" "$tmp/scripted/job.yaml"
printf 'import os\nos.environ["GPU_NUM_DEVICES"] = "8"\n' \
	>"$tmp/scripted/train.py"
check "embed: a script's error exits 1" \
	run_embed 1 "$tmp/scripted/job.yaml"
check "embed names a script finding by the script's file" \
	grep -q "script-gpu-num-devices in $tmp/scripted/train.py:2\$" \
	"$tmp/out"

# libcurl is loaded by the fetcher when a download starts, never linked
# (it costs every process milliseconds and megabytes)
no_curl() {
	readelf -d "$1" >"$tmp/dynamic" && grep -q 'NEEDED' "$tmp/dynamic" &&
		! grep -q 'NEEDED.*libcurl' "$tmp/dynamic"
}
check "sm-preflight does not link libcurl" no_curl "$dest$prefix/bin/sm-preflight"
check "$soname does not link libcurl" no_curl "$lib/$soname"

# the static archive, with the libraries the .pc file names as private
check "Libs.private names -lyaml and not -lcjson (a test oracle only)" \
	sh -c "pkg-config --static --libs smpreflight | grep -q -- '-lyaml' &&
		! pkg-config --static --libs smpreflight | grep -q -- '-lcjson'"
static_flags="$(pkg-config --cflags smpreflight) $lib/libsmpreflight.a
	$(pkg-config --static --libs-only-l smpreflight | sed 's/-lsmpreflight//')"
check "examples/embed.c links the static archive" \
	$cc -o "$tmp/embed-static" examples/embed.c $static_flags
check "the statically linked embed runs" \
	sh -c "'$tmp/embed-static' '$tmp/clean.yaml' >/dev/null"

# the Python binding finds the staged library on LD_LIBRARY_PATH
if command -v "$python" >/dev/null 2>&1; then
	check "python: import and check through LD_LIBRARY_PATH" \
		env -u SMPREFLIGHT_LIBRARY LD_LIBRARY_PATH="$lib" \
		PYTHONPATH="$root/bindings/python" "$python" -B -c '
import smpreflight, sys
fs = smpreflight.check_file(sys.argv[2])
assert any(f.rule == "gpu-num-devices-mismatch" for f in fs), fs
sys.exit(0 if smpreflight.version() == sys.argv[1] else 1)
' "$version" "$tmp/broken.yaml"
else
	echo "skipped the Python check: no $python (apt-get install python3)"
fi

# pip install ./bindings/python into a venv, offline: the wheel bundles
# the library, and import smpreflight loads that copy first (even with
# another one on LD_LIBRARY_PATH)
if command -v "$python" >/dev/null 2>&1 &&
	"$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
	venv=$tmp/venv
	check "python -m venv" "$python" -m venv "$venv"
	check "pip install --no-build-isolation ./bindings/python (offline)" \
		env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_PATH \
		BUILD="$build" MAKE="$make" PIP_NO_INDEX=1 \
		PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/pip" install \
		--no-build-isolation --no-index "$root/bindings/python"
	bundled() {
		(cd "$tmp" && env -u SMPREFLIGHT_LIBRARY LD_LIBRARY_PATH="$lib" \
			"$venv/bin/python" -B -c '
import os, smpreflight, sys
here = os.path.dirname(smpreflight.__file__)
assert os.path.dirname(smpreflight.library_path) == here, smpreflight.library_path
fs = smpreflight.check_file(sys.argv[1])
assert any(f.rule == "gpu-num-devices-mismatch" for f in fs), fs
' "$tmp/broken.yaml")
	}
	check "the venv's smpreflight loads its bundled library first" bundled
	check "the wheel holds the library and the module" \
		test -f "$(echo "$venv"/lib/python3*/site-packages/smpreflight/$soname)"
else
	echo "skipped the pip install test: no python3 venv (apt-get install python3-venv)"
fi

check "make uninstall removes every file" \
	$make --no-print-directory BUILD="$build" DESTDIR="$dest" \
	PREFIX="$prefix" uninstall
left=$(find "$dest" ! -type d)
check "nothing left after uninstall" test -z "$left"
[ -z "$left" ] || echo "$left"

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
