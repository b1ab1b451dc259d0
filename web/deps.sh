#!/bin/sh
# deps.sh - what the playground needs: sh web/deps.sh check|install BUILD
#
#   emscripten  Debian's, to compile the library to WebAssembly
#   libyaml     its Debian source package, unpacked in BUILD/web-src
#               (apt-get source, with dpkg-dev's dpkg-source; a deb-src
#               entry for Debian's own archive is added when the machine
#               has none)
#   chromium    Debian's, for the browser test
#   nodejs      20 or later (playwright-core refuses Debian 12's 18)
#   playwright-core from the npm registry, pinned by tests/web/package-lock.json
#               (npm ci; make web itself downloads nothing)
#
# check: exit 0 when all are there, else print the missing ones and exit 1.
# install: as root, install what is missing (apt's output in BUILD/apt-web.log);
# otherwise print the commands to run and exit 1.
set -u
what=${1:-check}
build=${2:-build}
log=$build/apt-web.log
yaml=$build/web-src/libyaml-0.2.5

# playwright-core (tests/web/package-lock.json) refuses a Node.js older
# than 20, such as Debian 12's nodejs (18): the browser test needs 20
node_major() {
	v=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)
	case $v in '' | *[!0-9]*) echo 0 ;; *) echo "$v" ;; esac
}

missing() {
	m=
	command -v emcc >/dev/null 2>&1 || m="$m emscripten"
	command -v chromium >/dev/null 2>&1 || m="$m chromium"
	if ! command -v node >/dev/null 2>&1; then
		m="$m nodejs"
	elif [ "$(node_major)" -lt 20 ]; then
		m="$m nodejs-20"
	fi
	command -v npm >/dev/null 2>&1 || m="$m npm"
	[ -f "$yaml/src/parser.c" ] || m="$m libyaml-source"
	[ -d tests/web/node_modules/playwright-core ] || m="$m playwright-core"
	echo "${m# }"
}

m=$(missing)
[ -z "$m" ] && exit 0
if [ "$what" = check ]; then
	echo "$m"
	exit 1
fi

apt_pkgs=
for p in $m; do
	case $p in
	emscripten | chromium | nodejs | npm) apt_pkgs="$apt_pkgs $p" ;;
	libyaml-source)
		# apt-get source unpacks with dpkg-source (not on a minimal Debian)
		command -v dpkg-source >/dev/null 2>&1 ||
			apt_pkgs="$apt_pkgs dpkg-dev"
		;;
	esac
done
if [ "$(id -u)" != 0 ]; then
	echo "web: missing:$m"
	[ -n "$apt_pkgs" ] && echo "web: as root: apt-get install$apt_pkgs"
	echo "web: then: make web-deps (libyaml's source and playwright-core)"
	exit 1
fi
mkdir -p "$build"
if [ -n "$apt_pkgs" ]; then
	echo "web: installing$apt_pkgs (apt-get; log: $log)"
	{ apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $apt_pkgs; } >"$log" 2>&1 </dev/null ||
		{ tail -n 20 "$log"; exit 1; }
fi
if [ ! -f "$yaml/src/parser.c" ]; then
	if ! apt-cache showsrc libyaml >/dev/null 2>&1 ||
		[ -z "$(apt-cache showsrc libyaml 2>/dev/null)" ]; then
		echo "web: adding Debian's source archive (deb-src) to apt"
		cat >/etc/apt/sources.list.d/sm-preflight-deb-src.sources <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $(. /etc/os-release && echo "$VERSION_CODENAME")
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
		apt-get update -qq >>"$log" 2>&1 </dev/null
	fi
	echo "web: apt-get source libyaml (into $build/web-src)"
	mkdir -p "$build/web-src"
	(cd "$build/web-src" && apt-get source -qq libyaml) >>"$log" 2>&1 ||
		{ tail -n 20 "$log"; exit 1; }
	d=$(ls -d "$build"/web-src/libyaml-0.* 2>/dev/null | head -n 1)
	[ -n "$d" ] && [ "$d" != "$yaml" ] && mv "$d" "$yaml"
fi
if [ ! -d tests/web/node_modules/playwright-core ]; then
	echo "web: npm ci (tests/web: playwright-core, from its lockfile)"
	(cd tests/web && npm ci --no-audit --no-fund --ignore-scripts) \
		>>"$log" 2>&1 || { tail -n 20 "$log"; exit 1; }
fi
m=$(missing)
case " $m " in
*" nodejs-20 "*)
	echo "web: the browser test's playwright-core needs Node.js 20 or" \
		"later; this node is $(node --version) (Debian 12's nodejs is 18):" \
		"install a newer Node.js, then run make web-deps again"
	;;
esac
[ -z "$m" ] || { echo "web: still missing: $m"; exit 1; }
