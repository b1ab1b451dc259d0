#!/bin/sh
# wheel.sh - the wheel test: sh tests/install/wheel.sh [BUILD]
#
# Builds the wheel (make wheel) and checks it:
#   - its files: the module, __main__, py.typed, the library, the command
#     in the scripts, and no shared object that needs anything outside the
#     C library but what the wheel bundles;
#   - its platform tag: manylinux_2_NN for the highest GLIBC_2.NN version
#     the bundled objects' undefined symbols need (readelf --dyn-syms, read
#     here independently of the build backend's objdump);
#   - in a minimal Debian root with python3 and nothing of the project's
#     (no libyaml, no cJSON, no source tree; debootstrap --variant=minbase,
#     built once into SMP_MINROOT, default /var/tmp/smp-minroot-bookworm):
#     pip install into a venv, import, check, __version__, and the
#     sm-preflight command on the venv's PATH.
# The minimal root needs root, chroot and debootstrap (and the network the
# first time); without them that part is skipped with the reason.
# Prints "N passed, N failed"; exits 1 when anything failed.
#
# shellcheck disable=SC2086

build=${1:-build}
make=${MAKE:-make}
python=${PYTHON:-python3}
[ -x /usr/bin/python3 ] && [ -z "$PYTHON" ] && python=/usr/bin/python3
suite=${SMP_MINROOT_SUITE:-bookworm}
minroot=${SMP_MINROOT:-/var/tmp/smp-minroot-$suite}
mirror=${SMP_DEBIAN_MIRROR:-http://deb.debian.org/debian}

cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smp-wheel.XXXXXX") || exit 2
work=
cleanup() {
	rm -rf "$tmp"
	[ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT HUP INT TERM
log=$tmp/log
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}
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

version=$(sed -n 's/^#define SMP_VERSION_STRING "\(.*\)"/\1/p' lib/smpreflight.h)
abi=$(sed -n 's/^#define SMP_ABI_VERSION \([0-9][0-9]*\).*/\1/p' lib/smpreflight.h)

rm -rf "$build/dist"
if ! $make --no-print-directory BUILD="$build" PYTHON="$python" wheel \
	>"$log" 2>&1; then
	cat "$log"
	echo "FAIL: make wheel"
	echo "wheel: 0 passed, 1 failed"
	exit 1
fi
wheel=$(echo "$build"/dist/smpreflight-*.whl)
check "make wheel wrote one wheel" test -f "$wheel"
unzipped=$tmp/unzipped
check "the wheel unpacks" "$python" -m zipfile -e "$wheel" "$unzipped"

for f in smpreflight/__init__.py smpreflight/__main__.py \
	smpreflight/py.typed "smpreflight/libsmpreflight.so.$abi" \
	"smpreflight-$version.data/scripts/sm-preflight" \
	"smpreflight-$version.dist-info/WHEEL"; do
	check "the wheel holds $f" test -f "$unzipped/$f"
done
check "__version__ is $version in the wheel's module" \
	grep -qx "__version__ = \"$version\"" "$unzipped/smpreflight/__init__.py"

# every ELF object of the wheel
objects=$(find "$unzipped" -type f | while read -r f; do
	head -c 4 "$f" | grep -q 'ELF' && echo "$f"
done)
check "the wheel holds two or more ELF objects" \
	test "$(echo "$objects" | wc -l)" -ge 2

# needs nothing outside the C library but what it bundles
bundled=$(for f in $objects; do basename "$f"; done)
self_contained() {
	for f in $objects; do
		for n in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case $n in
			libc.so.6 | libm.so.6 | libpthread.so.0 | libdl.so.2 | \
				librt.so.1 | ld-linux-*) ;;
			*)
				echo "$bundled" | grep -qx "$n" ||
					{ echo "$f needs $n, not in the wheel"; return 1; }
				;;
			esac
		done
	done
}
check "the wheel's objects need only the C library and what it bundles" \
	self_contained
check "libyaml is linked into the library, not needed" \
	sh -c "! readelf -d '$unzipped/smpreflight/libsmpreflight.so.$abi' |
		grep -q 'NEEDED.*yaml' &&
		nm -D --undefined-only '$unzipped/smpreflight/libsmpreflight.so.$abi' |
		grep -qv yaml_parser_"

# the tag: the highest GLIBC_2.N among the undefined dynamic symbols
glibc_minor() {
	for f in $objects; do
		readelf --dyn-syms -W "$f" | awk '$7 == "UND" { print $8 }'
	done | sed -n 's/.*@GLIBC_2\.\([0-9][0-9]*\).*/\1/p' | sort -n | tail -n 1
}
need=$(glibc_minor)
machine=$(uname -m)
tag=$(sed -n 's/^Tag: //p' "$unzipped/smpreflight-$version.dist-info/WHEEL")
check "the tag is py3-none-manylinux_2_${need}_$machine (GLIBC_2.$need is the highest needed; it says $tag)" \
	test "$tag" = "py3-none-manylinux_2_${need}_$machine"
check "the file name carries the tag" \
	test "$(basename "$wheel")" = "smpreflight-$version-$tag.whl"

# the minimal root
have_minroot() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	command -v chroot >/dev/null 2>&1 || { echo "no chroot"; return 1; }
	[ -x "$minroot/usr/bin/python3" ] && return 0
	command -v debootstrap >/dev/null 2>&1 ||
		{ echo "no debootstrap (apt-get install debootstrap)"; return 1; }
	echo "building the minimal root $minroot (debootstrap --variant=minbase; once)" >&2
	rm -rf "$minroot.new"
	if ! debootstrap --variant=minbase --include=python3,python3-venv \
		"$suite" "$minroot.new" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
		tail -n 5 "$tmp/debootstrap.log" >&2
		rm -rf "$minroot.new"
		echo "debootstrap failed (offline?)"
		return 1
	fi
	mv "$minroot.new" "$minroot"
}
if why=$(have_minroot); then
	check "the minimal root has no libyaml, cJSON or libcurl" \
		sh -c "! ls '$minroot'/usr/lib/*/ 2>/dev/null | grep -qE '^lib(yaml|cjson|curl)'"
	work=$(mktemp -d "$minroot/tmp/smp-wheel.XXXXXX")
	in=${work#"$minroot"}
	cp "$wheel" "$work/" && cp tests/install/wheel_check.py "$work/"
	cat >"$work/broken.yaml" <<'YAML'
estimator: HuggingFace
entry_point: train.py
instance_type: ml.p3.8xlarge
instance_count: 1
transformers_version: "4.17.0"
pytorch_version: "1.10.2"
py_version: py38
compiler_config: {enabled: true}
environment:
  GPU_NUM_DEVICES: "8"
YAML
	chroot=$(command -v chroot)
	inroot() {
		env -i PATH=/usr/bin:/bin HOME=/root LC_ALL=C.UTF-8 \
			"$chroot" "$minroot" /bin/sh -c "cd '$in' && $1"
	}
	check "minimal root: python3 -m venv" inroot "python3 -m venv venv"
	check "minimal root: pip install the wheel (offline)" \
		inroot "venv/bin/pip install --no-index --disable-pip-version-check -q ./$(basename "$wheel")"
	check "minimal root: import, check_kwargs, errors, __version__" \
		inroot "venv/bin/python -B wheel_check.py '$version' broken.yaml"
	command_runs() {
		inroot "venv/bin/sm-preflight check broken.yaml >out.txt; echo \$? >rc"
		cat "$work/out.txt"
		[ "$(cat "$work/rc")" = 1 ] && grep -q gpu-num-devices-mismatch "$work/out.txt"
	}
	check "minimal root: sm-preflight on the venv's PATH checks a spec (exit 1)" \
		command_runs
	check "minimal root: sm-preflight --version" \
		sh -c "'$chroot' '$minroot' '$in/venv/bin/sm-preflight' --version | grep -q '$version'"
	check "minimal root: python -m smpreflight runs the command" \
		inroot "venv/bin/python -m smpreflight --version | grep -q '$version'"
else
	echo "skipped the wheel in a minimal root: $why"
fi

echo "wheel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
