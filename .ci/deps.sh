#!/bin/sh
# deps.sh - the Debian packages `make run` and `make test` need:
#   sh .ci/deps.sh build|test [LOG]
#
# build: the C libraries' headers and pkg-config (make run, make all).
# test:  those, plus what the tests run: Criterion (unit tests), python3
#        (golden-case helpers, the binding, the loopback servers, schema
#        checks), openssl (test certificates), python3-jsonschema and
#        python3-yaml (schema validation), python3-venv (pip install of
#        the binding into a venv),
#        libxml2-utils (xmllint, the JUnit schemas), debootstrap (the
#        minimal Debian root the wheel is installed into, built once into
#        /var/tmp by tests/install/wheel.sh), time (/usr/bin/time: the
#        hostile inputs' memory bounds), man-db (the man page renders
#        without warnings), neovim, emacs-nox and elpa-eglot (the
#        language server's tests with real clients, tests/lsp/run.sh:
#        about 52 MB to download, 190 MB installed, with
#        --no-install-recommends).
#
# As root, the missing ones are installed with apt-get, quietly (apt's
# and debconf's output go to LOG, default build/apt.log, shown only when
# apt-get fails). Otherwise a missing build package stops with the
# command to run as root, naming every missing package (the tests' too
# for make test, so that one command is enough); a missing test package
# alone is named and the checks that need it are skipped. Machines
# without dpkg are left alone.

what=${1:-build}
log=${2:-build/apt.log}

build_pkgs="libyaml-dev libcurl4-openssl-dev pkg-config"
test_pkgs="libcriterion-dev libcjson-dev python3 openssl python3-jsonschema python3-yaml
python3-venv libxml2-utils debootstrap time man-db neovim emacs-nox
elpa-eglot"

case $what in
build) want=$build_pkgs ;;
test) want="$build_pkgs $test_pkgs" ;;
*)
	echo "usage: sh .ci/deps.sh build|test [LOG]" >&2
	exit 2
	;;
esac

command -v dpkg-query >/dev/null 2>&1 || exit 0

missing=
for p in $want; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q 'ok installed' || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
missing=${missing# }

if [ "$(id -u)" = 0 ]; then
	echo "deps: installing $missing (apt-get; log: $log)"
	mkdir -p "$(dirname "$log")"
	if ! { apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $missing; } >"$log" 2>&1 </dev/null; then
		tail -n 20 "$log"
		echo "deps: apt-get failed (full log: $log)"
		exit 1
	fi
	exit 0
fi

need_build=
need_test=
for p in $missing; do
	case " $build_pkgs " in
	*" $p "*) need_build="$need_build $p" ;;
	*) need_test="$need_test $p" ;;
	esac
done
if [ -n "$need_build" ]; then
	echo "deps: the build needs$need_build (not installed)"
	[ -z "$need_test" ] || echo "deps: the tests need$need_test (not installed)"
	echo "deps: as root, run: apt-get install $missing"
	echo "deps: (or run this make as root: it installs them itself)"
	exit 1
fi
echo "deps: missing $missing: the checks that need them are skipped" \
	"(as root, run: apt-get install $missing)"
exit 0
