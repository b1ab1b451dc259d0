#!/bin/sh
# build.sh - the playground: the library compiled to WebAssembly with
# Debian's emscripten, libyaml from its Debian source package, and the
# page around it. Usage: web/build.sh BUILD_DIR LIBYAML_SRC OUT_DIR
# (make web passes them). Nothing is downloaded here.
set -eu
build=$1 yaml=$2 out=$3
obj=$build/web-obj
mkdir -p "$obj" "$out"

# the sources of libsmpreflight.a, less the libcurl transport and the
# libcrypto signature check (no network in a page: web/fetch_none.c says
# so), plus the generated data
srcs=$(ls lib/*/*.c | grep -v '^lib/catalog/\(fetch_curl\|signature_crypto\)\.c$')
# emscripten's tools run on node and need Debian's acorn
NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
export NODE_PATH
emcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -I"$build/gen" \
	-I"$yaml/include" -DYAML_DECLARE_STATIC \
	-DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 -DYAML_VERSION_PATCH=5 \
	'-DYAML_VERSION_STRING="0.2.5"' -Wno-everything \
	$srcs "$build/gen/embedded_data.c" "$build/gen/embedded_catalog.c" \
	"$build/gen/embedded_schemas.c" \
	web/entry.c web/fetch_none.c "$yaml"/src/*.c \
	-o "$obj/smp.js" -sMODULARIZE=1 -sEXPORT_NAME=createSmp \
	-sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 \
	-sENVIRONMENT=web,worker,node \
	-sEXPORTED_FUNCTIONS=_smpw_check,_smpw_suggest,_smpw_versions,_smpw_free,_malloc,_free \
	-sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,FS

python3 web/bundle.py "$obj/smp.js" "$obj/smp.wasm" "$out"
