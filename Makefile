# sm-preflight - plain GNU make
#
#   make run     build, then check the bundled examples/
#   make test    build, then run every test (unit, golden, fuzz replay)
#   make asan    the same tests under ASan+UBSan; fails on any report
#   make lint    clang-tidy, cppcheck, format check, header checks, nm
#   make format  clang-format every C file in place

SHELL = /bin/bash
PREFIX ?= /usr/local
CC ?= cc
BUILD ?= build
# the project's reference folder (schemas, corpora) some tests read; they
# skip with a message without it. SMP_SHARED_DIR, which they name, works too.
SHARED ?= $(or $(SMP_SHARED_DIR),../shared)

# libcurl: headers only; lib/fetch_curl.c loads it with dlopen() when a
# download starts, so that no other command pays for loading it.
PKGS = yaml-0.1 libcurl
PKG_CONFIG ?= pkg-config
# the Debian package of each (make probe names them)
DEB_yaml-0.1 = libyaml-dev
DEB_libcjson = libcjson-dev
DEB_libcurl = libcurl4-openssl-dev
LINK_PKGS = yaml-0.1
# cJSON is only the unit tests' oracle for the project's JSON reader
# (tests/unit/test_json_oracle.c): never linked into the command, the
# library or the wheel.
TEST_PKGS = criterion libcjson

WARN = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Wcast-qual -Wformat=2 -Wvla \
	-Wundef -fno-common $(if $(filter 1,$(WERROR)),-Werror)

# Warnings are errors in make test, lint, asan, tsan, .ci/run and a
# WERROR=1 build; a plain make or make install (a user with a newer
# compiler) only shows them. Each object's warnings are kept beside it
# ($@.warn), so that make test also fails on a warning printed by an
# earlier plain make without rebuilding anything.
WERROR ?= 0

# Quiet output as git and the kernel print it ("CC lib/doc/load.o");
# make V=1 shows every command in full.
V ?= 0
ifeq ($(V),1)
Q =
say =
else
Q = @
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif
# compile: $(call compile,EXTRA FLAGS) from $< to $@, warnings in $@.warn
compile = $(call say,CC,$(@:$(BUILD)/%=%))mkdir -p $(@D) && \
	{ $(CC) $(ALL_CFLAGS) $(1) -c -o $@ $< 2>$@.warn; rc=$$?; \
	cat $@.warn >&2; exit $$rc; }
CFLAGS ?= -O2 -g
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# dlopen() is in the C library from glibc 2.34 (and in musl); older glibc
# needs -ldl.
DL_LIBS := $(shell echo 'void *dlopen(const char *, int); int main(void) \
	{ return !dlopen(0, 0); }' | $(CC) -x c -o /dev/null - \
	>/dev/null 2>&1 || echo -ldl)
DEP_LIBS = $(shell $(PKG_CONFIG) --libs $(LINK_PKGS) 2>/dev/null) $(DL_LIBS)
# What a start costs in memory (README "Performance"): link options the
# toolchain may lack, each kept only when a test link takes it without a
# warning. Packed relative relocations (DT_RELR, binutils 2.38 and glibc
# 2.36) hold the ~15,000 pointers of the built-in tables in 8 KiB instead
# of 350 KiB; not in the wheel's files, whose manylinux tag counts only
# GLIBC_2.N symbol versions. libm is linked only while an object still
# calls it (--as-needed): the library needs none (sqrt is an instruction
# under -fno-math-errno, pow and fmod are util/fmath.c's), and loading
# it costs ~0.4 MiB resident.
comma := ,
link_probe = $(shell echo 'int main(void) { return 0; }' | $(CC) -x c \
	-Wl,--fatal-warnings $(1) -o /dev/null - >/dev/null 2>&1 && echo '$(1)')
RELR_LDFLAGS := $(call link_probe,-Wl$(comma)-z$(comma)pack-relative-relocs)
LIBM := $(or $(call link_probe,-Wl$(comma)--push-state$(comma)--as-needed -lm -Wl$(comma)--pop-state),-lm)
TEST_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS = $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
ALL_CFLAGS = $(WARN) -fno-math-errno -D_POSIX_C_SOURCE=200809L -Ilib -I$(BUILD)/gen \
	$(DEP_CFLAGS) $(CPPFLAGS) $(CFLAGS)

LIB_SRC = $(sort $(wildcard lib/*/*.c))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/embedded_data.o \
	$(BUILD)/gen/embedded_catalog.o $(BUILD)/gen/embedded_schemas.o
CLI_SRC = $(sort $(wildcard cmd/sm-preflight/*.c))
# the rule examples (docs/examples/<rule>/), embedded for explain and docs
CLI_OBJ = $(CLI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/rule_examples.o
EXAMPLES = $(sort $(wildcard docs/examples/*)) $(sort $(wildcard docs/examples/*/*))
UNIT_SRC = $(sort $(wildcard tests/unit/*.c))
# the CLI's objects the unit tests test directly (cmd/ is not in the library)
UNIT_OBJ = $(UNIT_SRC:%.c=$(BUILD)/%.o) $(BUILD)/cmd/sm-preflight/fix_write.o
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAY = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/replay_%)
# The schemas the library uses, in one place: every schemas/*.schema.json
# is embedded as text and compiled into C tables at build time
# (lib/schema/gen/embed_schemas.c); code asks for one by its base name
# (smp__schema_embedded(), a dialect's in lib/context/context.c).
SCHEMAS = $(sort $(wildcard schemas/*.schema.json))
EMBED = $(sort $(wildcard instance-data/*.json)) $(SCHEMAS)
# the built-in catalog, precompiled by the library's own loader
CATALOG_JSON = instance-data/instances.json \
	instance-data/tested-models.json instance-data/frameworks.json

LIBA = $(BUILD)/libsmpreflight.a
CLI = $(BUILD)/sm-preflight
UNIT = $(BUILD)/unit-tests

# The shared library (make shared): file names from the version in the
# public header, PIC objects in their own folder, exports limited to smp_
# by the version script.
VERSION_PART = $(shell sed -n 's/^[#]define SMP_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' lib/smpreflight.h)
MAJOR := $(call VERSION_PART,MAJOR)
MINOR := $(call VERSION_PART,MINOR)
PATCH := $(call VERSION_PART,PATCH)
# the soname follows SMP_ABI_VERSION, raised on every incompatible change
ABI := $(shell sed -n 's/^[#]define SMP_ABI_VERSION \([0-9][0-9]*\).*/\1/p' lib/smpreflight.h)
SONAME = libsmpreflight.so.$(ABI)
SOFILE = libsmpreflight.so.$(ABI).$(MINOR).$(PATCH)
SOLIB = $(BUILD)/$(SOFILE)
PIC_OBJ = $(LIB_SRC:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/gen/embedded_data.o \
	$(BUILD)/pic/gen/embedded_catalog.o $(BUILD)/pic/gen/embedded_schemas.o

# make install: where things go (DESTDIR is prepended only there).
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# Debian's python3 runs the binding's tests (standard library only).
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
# A sanitizer build's shared library cannot be loaded by an uninstrumented
# program (python3, the installed example): those tests are skipped there.
SANITIZED = $(findstring -fsanitize,$(CFLAGS) $(LDFLAGS))

.PHONY: all run test check-all deps deps-test asan lint format clean fuzz docs docs-check
.PHONY: warnings-check generated-check completions
.PHONY: shared install uninstall tsan bench wheel wheel-files probe
.PHONY: web web-deps test-web

all: $(LIBA) $(CLI)

# probe (before the first object is compiled): pkg-config is there and
# finds every library the build needs; otherwise say which Debian packages
# to install, not a compiler error about a missing header.
probe:
	@if ! command -v $(PKG_CONFIG) >/dev/null 2>&1; then \
		echo "make: '$(PKG_CONFIG)' is not installed: it finds the build's libraries"; \
		echo "  Debian/Ubuntu, as root: apt-get install pkg-config $(foreach p,$(PKGS),$(DEB_$(p)))"; \
		echo "  or 'make deps' (as root) installs what is missing; 'make run' also builds and checks examples/"; \
		exit 1; \
	fi; \
	missing=; debs=; \
	for p in $(foreach p,$(PKGS),$(p):$(DEB_$(p))); do \
		$(PKG_CONFIG) --exists "$${p%%:*}" || \
			{ missing="$$missing $${p%%:*}"; debs="$$debs $${p#*:}"; }; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make: $(PKG_CONFIG) finds no$$missing (the build needs their headers)"; \
		echo "  Debian/Ubuntu, as root: apt-get install$$debs"; \
		echo "  or 'make deps' (as root) installs what is missing; 'make run' also builds and checks examples/"; \
		exit 1; \
	fi

# Install missing Debian packages when root; otherwise say which
# (.ci/deps.sh: the build's for make run, the tests' for make test).
deps:
	@sh .ci/deps.sh build $(BUILD)/apt.log

deps-test:
	@sh .ci/deps.sh test $(BUILD)/apt.log

run: deps
	@$(MAKE) --no-print-directory all
	@echo "== sm-preflight check examples/ examples/bert-side-by-side.ipynb"
	@$(CLI) check examples/ examples/bert-side-by-side.ipynb; rc=$$?; \
	echo "== exit status $$rc (1 = findings at or above --fail-on)"; \
	[ $$rc -le 1 ]

test: deps-test
	@$(MAKE) --no-print-directory WERROR=1 check-all

# Criterion builds the unit tests; without it (not root, no
# libcriterion-dev) they are skipped with a message.
HAVE_CRITERION := $(shell $(PKG_CONFIG) --exists $(TEST_PKGS) 2>/dev/null && echo 1)
HAVE_PYTHON := $(shell command -v $(PYTHON) >/dev/null 2>&1 && echo 1)
skip = echo "skipped $(1): $(2) is not installed (apt-get install $(2))"

check-all: all $(if $(SANITIZED),,shared) $(if $(HAVE_CRITERION),$(UNIT)) \
		$(FUZZ_REPLAY)
	@$(MAKE) --no-print-directory warnings-check
	@echo "== unit tests"
	@if [ -n "$(HAVE_CRITERION)" ]; then \
		echo "SMP_SHARED_DIR=$(SHARED) $(UNIT) --jobs 2"; \
		SMP_SHARED_DIR=$(SHARED) $(UNIT) --jobs 2; \
	else $(call skip,the unit tests,libcriterion-dev libcjson-dev); fi
	@echo "== golden CLI cases, rule examples and citations"
	sh tests/cases/run.sh $(CLI)
	@if [ -n "$(HAVE_PYTHON)" ]; then \
		echo "sh tests/schemas/validate.sh --if-available --cli $(CLI)"; \
		sh tests/schemas/validate.sh --if-available --cli $(CLI) && \
		echo "sh tests/schemas/check_instance_data.sh --if-available --cli $(CLI)" && \
		sh tests/schemas/check_instance_data.sh --if-available --cli $(CLI) && \
		echo "SMP_SHARED_DIR=$(SHARED) sh tests/sarif/validate.sh --if-available $(CLI)" && \
		SMP_SHARED_DIR=$(SHARED) sh tests/sarif/validate.sh --if-available $(CLI); \
	else $(call skip,the schema and SARIF validation,python3); fi
	SMP_SHARED_DIR=$(SHARED) sh tests/junit/validate.sh --if-available $(CLI)
	sh tests/net/run.sh $(CLI)
	sh tests/hostile/run.sh $(CLI)
	sh tests/hostile/fix_write.sh $(CLI)
	@if [ -n "$(HAVE_PYTHON)" ]; then \
		echo "$(PYTHON) tests/walk/gitignore_vs_git.py $(CLI)"; \
		$(PYTHON) tests/walk/gitignore_vs_git.py $(CLI); \
	else $(call skip,the .gitignore differential test,python3); fi
	@if [ -n "$(HAVE_PYTHON)" ]; then \
		echo "sh tests/suggestions/check.sh $(CLI)"; \
		sh tests/suggestions/check.sh $(CLI); \
	else $(call skip,the suggestion checks,python3); fi
	@if [ -n "$(HAVE_PYTHON)" ]; then \
		echo "$(PYTHON) tests/fix/converge.py $(CLI)"; \
		$(PYTHON) tests/fix/converge.py $(CLI); \
	else $(call skip,the fix convergence test,python3); fi
	@if [ -n "$(HAVE_PYTHON)" ]; then \
		echo "$(PYTHON) tests/fix/fresh.py $(CLI)"; \
		$(PYTHON) tests/fix/fresh.py $(CLI); \
	else $(call skip,the fix-against-a-fresh-check test,python3); fi
	@if [ -n "$(HAVE_PYTHON)" ]; then \
		echo "$(PYTHON) tests/integrations/run.py $(CLI)"; \
		$(PYTHON) tests/integrations/run.py $(CLI); \
	else $(call skip,the GitHub Action and pre-commit tests,python3); fi
	@echo "== the language server: protocol, Neovim, Emacs eglot"
	sh tests/lsp/run.sh $(CLI)
	@echo "== generated files"
	@$(MAKE) --no-print-directory generated-check
	@echo "== fuzz corpus replay"
	@for r in $(FUZZ_REPLAY); do \
		n=$${r##*/replay_fuzz_}; \
		$$r tests/fuzz/corpus/$$n || exit 1; \
	done
	@# large inputs, many findings: the report's cap (tests/fuzz/fuzz_check.c)
	@SMP_FUZZ_LARGE=1 $(BUILD)/fuzz/replay_fuzz_check tests/fuzz/corpus-large/check
	@echo "== the playground (WebAssembly, in chromium)"
	@if [ -n "$(SANITIZED)" ]; then \
		echo "skipped in a sanitizer build (run by make test)"; \
	elif m=$$(sh web/deps.sh check $(BUILD)); then \
		$(MAKE) --no-print-directory test-web; \
	else \
		echo "skipped the playground tests: $$m not installed (make web-deps, as root, installs them: emscripten and chromium with apt-get, libyaml's source, playwright-core with npm ci; nodejs-20 is Node.js 20 or later)"; \
	fi
	@echo "== install into a DESTDIR, the wheel, Python binding"
	@if [ -n "$(SANITIZED)" ]; then \
		echo "skipped in a sanitizer build (run by make test)"; \
	else \
		MAKE="$(MAKE)" PYTHON="$(PYTHON)" sh tests/install/run.sh $(BUILD) && \
		MAKE="$(MAKE)" PYTHON="$(PYTHON)" sh tests/install/wheel.sh $(BUILD) && \
		MAKE="$(MAKE)" sh tests/install/first_run.sh && \
		if [ -n "$(HAVE_PYTHON)" ]; then \
			SMPREFLIGHT_LIBRARY=$(abspath $(SOLIB)) \
				$(PYTHON) -B bindings/python/test_smpreflight.py; \
		else \
			$(call skip,the Python binding's tests,python3); \
		fi; \
	fi

# The playground (web/): the library in WebAssembly and a static page in
# $(BUILD)/web. web-deps installs what it needs (web/deps.sh, as root);
# test-web compares it with the CLI and drives it in Debian's chromium.
WEB_SRC = $(wildcard web/*.c web/*.js web/*.html web/*.py web/*.sh)
WEB_YAML = $(BUILD)/web-src/libyaml-0.2.5

web-deps:
	@sh web/deps.sh install $(BUILD)

web: web-deps $(BUILD)/web/sm-preflight.js

$(BUILD)/web/sm-preflight.js: $(WEB_SRC) $(LIB_SRC) $(BUILD)/gen/embedded_data.c \
		$(BUILD)/gen/embedded_catalog.c $(BUILD)/gen/embedded_schemas.c \
		$(wildcard examples/*) docs/rules.md
	$(call say,WEB,$(BUILD)/web)sh web/build.sh $(BUILD) $(WEB_YAML) $(BUILD)/web

test-web: web all
	node tests/web/same_as_cli.js $(BUILD)/web/sm-preflight.js $(CLI)
	NODE_PATH=tests/web/node_modules node tests/web/browser.js \
		$(BUILD)/web $(CLI) $(BUILD)/web-shots

$(BUILD)/%.o: %.c | probe
	$(call compile,-MMD -MP)

$(BUILD)/gen/embedded_data.c: lib/catalog/embed.sh $(EMBED)
	$(call say,GEN,$@)mkdir -p $(@D) && sh lib/catalog/embed.sh $@ $(EMBED)

$(BUILD)/gen/embedded_data.o: $(BUILD)/gen/embedded_data.c
	$(call compile,-Wno-overlength-strings)

# The catalog and the schemas as C tables (lib/catalog/gen/embed_catalog.c,
# lib/schema/gen/embed_schemas.c): the generators link what they need of
# the library from an archive without the tables; the catalog's loader
# validates with the compiled schemas.
$(BUILD)/gen/stage.a: $(filter-out $(BUILD)/gen/embedded_catalog.o $(BUILD)/gen/embedded_schemas.o,$(LIB_OBJ))
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/gen/embed_schemas: $(BUILD)/lib/schema/gen/embed_schemas.o $(BUILD)/gen/stage.a
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(DEP_LIBS) $(LIBM) -lpthread

$(BUILD)/gen/embedded_schemas.c: $(BUILD)/gen/embed_schemas $(SCHEMAS)
	$(call say,GEN,$@)$(BUILD)/gen/embed_schemas $@ $(SCHEMAS)

$(BUILD)/gen/embedded_schemas.o: $(BUILD)/gen/embedded_schemas.c
	$(call compile,-Wno-overlength-strings)

$(BUILD)/gen/embed_catalog: $(BUILD)/lib/catalog/gen/embed_catalog.o $(BUILD)/gen/embedded_schemas.o $(BUILD)/gen/stage.a
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(DEP_LIBS) $(LIBM) -lpthread

$(BUILD)/gen/embedded_catalog.c: $(BUILD)/gen/embed_catalog $(CATALOG_JSON)
	$(call say,GEN,$@)$(BUILD)/gen/embed_catalog $@ $(CATALOG_JSON)

$(BUILD)/gen/embedded_catalog.o: $(BUILD)/gen/embedded_catalog.c
	$(call compile,-Wno-overlength-strings)

$(LIBA): $(LIB_OBJ)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

shared: $(SOLIB) $(BUILD)/$(SONAME) $(BUILD)/libsmpreflight.so

$(BUILD)/pic/%.o: %.c | probe
	$(call compile,-fPIC -MMD -MP)

$(BUILD)/pic/gen/embedded_data.o: $(BUILD)/gen/embedded_data.c
	$(call compile,-fPIC -Wno-overlength-strings)

$(BUILD)/pic/gen/embedded_catalog.o: $(BUILD)/gen/embedded_catalog.c
	$(call compile,-fPIC -Wno-overlength-strings)

$(BUILD)/pic/gen/embedded_schemas.o: $(BUILD)/gen/embedded_schemas.c
	$(call compile,-fPIC -Wno-overlength-strings)

$(SOLIB): $(PIC_OBJ) lib/smpreflight.map
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) $(RELR_LDFLAGS) -shared \
		-Wl,-soname,$(SONAME) \
		-Wl,--version-script=lib/smpreflight.map -Wl,--no-undefined \
		-o $@ $(PIC_OBJ) $(DEP_LIBS) \
		$(LIBM) -lpthread

$(BUILD)/$(SONAME): $(SOLIB)
	$(Q)ln -sf $(SOFILE) $@

$(BUILD)/libsmpreflight.so: $(BUILD)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

# The wheel's files (make wheel-files, run by bindings/python/
# build_backend.py): the library and the command with libyaml's static
# archive linked in (Debian's libyaml-dev ships it), so that they need
# nothing but the C library (the JSON reader is the project's own: cJSON
# is only a unit test's oracle), and libcurl
# is loaded by update-data with dlopen() when a download starts. The run
# path $$ORIGIN is where the backend would put (as auditwheel does) any
# other shared library they came to need; it refuses to guess otherwise.
WHEEL_DIR = $(BUILD)/wheel
LIBYAML_A = $(shell $(PKG_CONFIG) --variable=libdir yaml-0.1 2>/dev/null)/libyaml.a
WHEEL_LIBS = $(LIBYAML_A) $(DL_LIBS) $(LIBM) -lpthread
wheel-files: $(WHEEL_DIR)/$(SONAME) $(WHEEL_DIR)/bin/sm-preflight

$(WHEEL_DIR)/$(SONAME): $(PIC_OBJ) lib/smpreflight.map
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(LDFLAGS) -shared \
		-Wl,-soname,$(SONAME) -Wl,--version-script=lib/smpreflight.map \
		-Wl,--no-undefined -Wl,-rpath,'$$ORIGIN' -o $@ $(PIC_OBJ) $(WHEEL_LIBS)

$(WHEEL_DIR)/bin/sm-preflight: $(CLI_OBJ) $(LIBA)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(LDFLAGS) \
		-Wl,-rpath,'$$ORIGIN/..' -o $@ $(CLI_OBJ) $(LIBA) $(WHEEL_LIBS)

# make wheel: the wheel in $(BUILD)/dist (what pip install ./bindings/python
# builds), without pip
wheel:
	$(Q)mkdir -p $(BUILD)/dist && cd bindings/python && BUILD=$(BUILD) \
		MAKE="$(MAKE)" $(PYTHON) -B -c 'import build_backend, sys; \
		print(build_backend.build_wheel(sys.argv[1]))' $(abspath $(BUILD)/dist)

# the folders too: a file removed from one changes its time
$(BUILD)/gen/rule_examples.c: cmd/sm-preflight/embed_examples.sh docs/examples $(EXAMPLES)
	$(call say,GEN,$@)mkdir -p $(@D) && sh cmd/sm-preflight/embed_examples.sh $@ docs/examples

$(BUILD)/gen/rule_examples.o: $(BUILD)/gen/rule_examples.c cmd/sm-preflight/examples.h
	$(call compile,-Icmd/sm-preflight -Wno-overlength-strings)

$(CLI): $(CLI_OBJ) $(LIBA)
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) $(RELR_LDFLAGS) -o $@ \
		$(CLI_OBJ) $(LIB_OBJ) $(DEP_LIBS) \
		$(LIBM) -lpthread

$(BUILD)/tests/%.o: tests/%.c
	$(call compile,$(TEST_CFLAGS) -MMD -MP)

$(UNIT): $(UNIT_OBJ) $(LIBA)
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(LIBA) $(DEP_LIBS) $(TEST_LIBS) $(LIBM) -lpthread

$(BUILD)/test-threads: tests/unit/test_threads.c $(LIBA)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -DSMP_TEST_STANDALONE $(LDFLAGS) -o $@ $< $(LIBA) \
		$(DEP_LIBS) $(LIBM) -lpthread

# The fuzz targets' objects are kept (not deleted as intermediates), so
# make test relinks nothing that did not change.
FUZZ_OBJ = $(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/replay.o
.SECONDARY: $(FUZZ_OBJ)

$(BUILD)/fuzz/replay_%: $(BUILD)/tests/fuzz/%.o $(BUILD)/tests/fuzz/replay.o $(LIBA)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(DEP_LIBS) $(LIBM) -lpthread

# warnings-check (make test, WERROR=1): no object was compiled with a
# warning, also by an earlier plain make whose objects are reused.
warnings-check:
	@w=$$(find $(BUILD) -name '*.o.warn' -size +0c 2>/dev/null | sort); \
	if [ -n "$$w" ]; then \
		for f in $$w; do cat "$$f"; done; \
		echo "warnings are errors here: fix the above (objects: $$w)"; \
		exit 1; \
	fi

# ASan+UBSan in its own build folder; Criterion lets leaking tests pass,
# so the log is searched for any sanitizer report.
ASAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
asan: deps-test
	@mkdir -p $(BUILD)/asan
	@set -o pipefail 2>/dev/null; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	$(MAKE) --no-print-directory BUILD=$(BUILD)/asan WERROR=1 \
		CFLAGS="$(ASAN_FLAGS)" CPPFLAGS="-DSMP_ARENA_DEBUG" \
		LDFLAGS="-fsanitize=address,undefined" check-all \
		> $(BUILD)/asan/log 2>&1; rc=$$?; \
	tail -n 20 $(BUILD)/asan/log; \
	if grep -nE 'ERROR: [A-Za-z]*Sanitizer|LeakSanitizer|runtime error:' $(BUILD)/asan/log; then \
		echo "asan: sanitizer reports above (full log: $(BUILD)/asan/log)"; exit 1; \
	fi; \
	[ $$rc -eq 0 ] || { echo "asan: tests failed (log: $(BUILD)/asan/log)"; exit 1; }; \
	echo "asan: clean"

# ThreadSanitizer in its own build folder, running the thread test (one
# context checked from 8 threads); fails on any ThreadSanitizer report.
# Criterion cannot run under TSan (its arena fails to map), so the test
# is built alone as a plain program (SMP_TEST_STANDALONE).
TSAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=thread
tsan: deps
	@mkdir -p $(BUILD)/tsan
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan WERROR=1 CFLAGS="$(TSAN_FLAGS)" \
		LDFLAGS="-fsanitize=thread" $(BUILD)/tsan/test-threads \
		> $(BUILD)/tsan/build.log 2>&1 || { tail -n 30 $(BUILD)/tsan/build.log; \
		echo "tsan: build failed (log: $(BUILD)/tsan/build.log)"; exit 1; }
	@TSAN_OPTIONS="halt_on_error=0" $(BUILD)/tsan/test-threads \
		> $(BUILD)/tsan/log 2>&1; rc=$$?; \
	tail -n 5 $(BUILD)/tsan/log; \
	if grep -n 'ThreadSanitizer' $(BUILD)/tsan/log; then \
		echo "tsan: reports above (full log: $(BUILD)/tsan/log)"; exit 1; \
	fi; \
	[ $$rc -eq 0 ] || { echo "tsan: tests failed (log: $(BUILD)/tsan/log)"; exit 1; }; \
	echo "tsan: clean"

# libFuzzer builds: each tests/fuzz/fuzz_<name>.c with
# the library sources, instrumented, into $(BUILD)/fuzz/fuzz_<name>; arena
# allocations are separate blocks so ASan sees overflows. Run one with its
# seeds and dictionary, new inputs going to a scratch folder, e.g.
#   mkdir -p build/fuzz/new-json && build/fuzz/fuzz_json \
#     -dict=tests/fuzz/json.dict -max_total_time=60 build/fuzz/new-json \
#     tests/fuzz/corpus/json
fuzz: $(BUILD)/gen/embedded_data.c $(BUILD)/gen/embedded_catalog.c \
		$(BUILD)/gen/embedded_schemas.c
	@mkdir -p $(BUILD)/fuzz
	@for src in $(FUZZ_SRC); do \
		n=$${src##*/}; n=$${n%.c}; \
		echo "clang -fsanitize=fuzzer,address,undefined -o $(BUILD)/fuzz/$$n"; \
		clang $(filter-out -Werror,$(WARN)) -Wno-overlength-strings \
			-D_POSIX_C_SOURCE=200809L -DSMP_ARENA_DEBUG -Ilib \
			-I$(BUILD)/gen $(DEP_CFLAGS) -g -O1 -fno-omit-frame-pointer \
			-fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=all -o $(BUILD)/fuzz/$$n $$src \
			$(LIB_SRC) $(BUILD)/gen/embedded_data.c \
			$(BUILD)/gen/embedded_catalog.c \
			$(BUILD)/gen/embedded_schemas.c $(DEP_LIBS) \
			$(LIBM) -lpthread || exit 1; \
	done

C_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find cmd lib tests -name '*.[ch]')

format:
	clang-format -i $(C_FILES)

lint:
	@$(MAKE) --no-print-directory WERROR=1 all shared warnings-check
	@echo "== clang-format"
	clang-format --dry-run -Werror $(C_FILES)
	@echo "== include order of the stages (lib/README.md)"
	sh tests/lint/include_order.sh lib
	@echo "== file names in opening comments; no document outside the repository cited"
	sh tests/lint/file_names.sh lib cmd tests/unit tests/fuzz tests/lint
	@echo "== rule ids: asked of rules.def by enum, never matched as strings"
	sh tests/lint/rule_ids.sh lib
	@echo "== files a spec names: opened by smp__open_beneath() alone"
	$(PYTHON) tests/lint/file_openers.py lib
	@echo "== call cycles between the library's files, and the CLI's"
	$(PYTHON) tests/lint/call_cycles.py $(LIB_SRC:%.c=$(BUILD)/%.o)
	$(PYTHON) tests/lint/call_cycles.py $(CLI_SRC:%.c=$(BUILD)/%.o)
	@echo "== public header alone, as C11 and as C++"
	echo '#include "smpreflight.h"' | $(CC) -std=c11 -Wall -Wextra -Werror -pedantic -Ilib -x c -fsyntax-only -
	echo '#include "smpreflight.h"' | c++ -Wall -Wextra -Werror -Ilib -x c++ -fsyntax-only -
	@echo "== cppcheck"
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr --suppress=missingIncludeSystem -Ilib -I$(BUILD)/gen \
		-D__GNUC__ lib cmd
	@echo "== clang-tidy"
	clang-tidy --quiet --warnings-as-errors='*' $(LIB_SRC) $(CLI_SRC) -- \
		$(ALL_CFLAGS) 2>&1 | grep -v 'warnings generated' ; \
		test $${PIPESTATUS[0]:-0} -eq 0
	@echo "== exported symbols"
	@bad=$$(nm -g --defined-only $(LIBA) | awk 'NF==3 {print $$3}' | grep -v '^smp_' || true); \
	if [ -n "$$bad" ]; then echo "symbols without smp_ prefix:"; echo "$$bad"; exit 1; fi
	@echo "== dynamic symbols of $(SOLIB)"
	@syms=$$(nm -D --defined-only $(SOLIB) | awk 'NF==3 && $$2 != "A" {print $$3}'); \
	bad=$$(printf '%s\n' "$$syms" | grep -v '^smp_[a-z]' || true); \
	if [ -n "$$bad" ]; then echo "exported outside the API (only smp_ names):"; echo "$$bad"; exit 1; fi; \
	decl=$$(grep -oE '^[a-z].*\bsmp_[a-z0-9_]+\(' lib/smpreflight.h | \
		grep -oE 'smp_[a-z0-9_]+\($$' | tr -d '(' | sort -u); \
	if [ "$$decl" != "$$(printf '%s\n' "$$syms" | sed 's/@.*//' | sort -u)" ]; then \
		echo "declared in lib/smpreflight.h (<) and exported (>) differ:"; \
		diff <(echo "$$decl") <(printf '%s\n' "$$syms" | sed 's/@.*//' | sort -u); exit 1; \
	fi; \
	echo "$$(printf '%s\n' "$$syms" | wc -l) symbols, all smp_ and all declared in the header"

# make bench (README "Performance"; never part of make test): first the
# reference corpus of $(SHARED)/bench (its gen_corpus.py, 1,000 files,
# seed 0; skipped with a message without it) in instructions against a
# fair floor (floor.c: libyaml, and its --json tokenizer for JSON files);
# then generated specs in $(BENCH_DIR), the libyaml-only floor, and where
# they can be had the JSON Schema CLI (npm, into $(BENCH_DIR)/npm only) and PyYAML +
# python3-jsonschema; hyperfine is installed when root and missing.
# BENCH_ARGS="--runs 9 --sizes 1,1000" passes options to the harness;
# BENCH_ARGS=--reference-only prints the reference corpus's table alone.
BENCH_DIR = $(BUILD)/bench
JSONSCHEMA_NPM = @sourcemeta/jsonschema@16.11.0
bench: all $(BENCH_DIR)/floor
	@command -v hyperfine >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		apt-get install -y -qq hyperfine >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq hyperfine \
			>/dev/null 2>&1; } || true
	@js=; arch=$$(uname -m | sed 's/aarch64/arm64/'); \
	pkg=$(BENCH_DIR)/npm/node_modules/@sourcemeta/jsonschema; \
	if [ ! -d $$pkg ] && command -v npm >/dev/null 2>&1; then \
		echo "npm install $(JSONSCHEMA_NPM) (into $(BENCH_DIR)/npm)"; \
		npm install --silent --no-audit --no-fund \
			--prefix $(BENCH_DIR)/npm $(JSONSCHEMA_NPM) || true; \
	fi; \
	bin=$$pkg/build/github-releases/jsonschema-linux-$$arch; \
	if [ -x $$bin ]; then js="--jsonschema $$bin"; \
	else echo "bench: no JSON Schema CLI (npm missing or offline)"; fi; \
	$(PYTHON) tests/bench/bench.py --cli $(CLI) \
		--floor $(BENCH_DIR)/floor --work $(BENCH_DIR) \
		--reference $(SHARED)/bench $$js $(BENCH_ARGS)
	$(PYTHON) tests/lsp/bench.py $(CLI)
	@if m=$$(sh web/deps.sh check $(BUILD)); then \
		$(MAKE) --no-print-directory web && \
		sh tests/web/bench.sh $(BUILD) $(CLI); \
	else echo "bench: no playground row ($$m not installed: make web-deps)"; fi

$(BENCH_DIR)/floor: tests/bench/floor.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< \
		$(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null)

# generated-check (part of make test): the committed generated files match
# what their generators make now: docs/rules.md (from the rule table),
# schemas/<dialect>.schema.json and instance-data/*.json (from the
# reference folder in $(SHARED); skipped, with a message, without it).
GEN_SCHEMAS = estimator model-trainer create-training-job create-hyper-parameter-tuning-job
generated-check: docs-check
	@if [ ! -f $(SHARED)/reference/spec-fields.json ]; then \
		echo "skipped the schemas/ and instance-data/ staleness check: no $(SHARED)/reference"; \
	elif [ -z "$(HAVE_PYTHON)" ]; then \
		$(call skip,the schemas/ and instance-data/ staleness check,python3); \
	else \
		t=$$(mktemp -d) && mkdir $$t/schemas $$t/data && \
		$(PYTHON) -B schemas/generate.py $(SHARED)/reference/spec-fields.json $$t/schemas >/dev/null && \
		$(PYTHON) -B instance-data/generate.py $(SHARED)/reference --sdk-tables instance-data/frameworks.json --out $$t/data >/dev/null || \
			{ rm -rf $$t; echo "a generator failed"; exit 1; }; \
		stale=; \
		for n in $(GEN_SCHEMAS); do \
			cmp -s $$t/schemas/$$n.schema.json schemas/$$n.schema.json || stale="$$stale schemas/$$n.schema.json"; \
		done; \
		for f in $(CATALOG_JSON); do \
			cmp -s $$t/data/$${f#instance-data/} $$f || stale="$$stale $$f"; \
		done; \
		rm -rf $$t; \
		if [ -n "$$stale" ]; then \
			echo "stale generated files:$$stale (run schemas/generate.py, instance-data/generate.py)"; exit 1; \
		fi; \
		echo "generated files are up to date (docs/rules.md, schemas/, instance-data/)"; \
	fi

# docs/rules.md is generated from the rule table;
# docs-check (also part of tests/cases/run.sh) fails when it is stale.
# The README's rules table too (tests/docs/readme.sh, which also checks
# the README's snippets' refs and examples).
docs: $(CLI)
	@mkdir -p docs
	$(CLI) rules --markdown > docs/rules.md.tmp
	mv docs/rules.md.tmp docs/rules.md
	sh tests/docs/readme.sh $(CLI) --write

docs-check: $(CLI)
	@$(CLI) rules --markdown | cmp -s - docs/rules.md || \
		{ echo "docs/rules.md is out of date; run 'make docs'"; exit 1; }
	@sh tests/docs/readme.sh $(CLI)

# Shell completions, generated from the CLI's option tables (its --help).
COMPLETIONS = $(BUILD)/completions/sm-preflight.bash \
	$(BUILD)/completions/_sm-preflight $(BUILD)/completions/sm-preflight.fish
completions: $(COMPLETIONS)

$(BUILD)/completions/sm-preflight.bash: $(CLI) cmd/sm-preflight/completions.sh
	$(call say,GEN,$@)mkdir -p $(@D) && sh cmd/sm-preflight/completions.sh $(CLI) bash > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/_sm-preflight: $(CLI) cmd/sm-preflight/completions.sh
	$(call say,GEN,$@)mkdir -p $(@D) && sh cmd/sm-preflight/completions.sh $(CLI) zsh > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/sm-preflight.fish: $(CLI) cmd/sm-preflight/completions.sh
	$(call say,GEN,$@)mkdir -p $(@D) && sh cmd/sm-preflight/completions.sh $(CLI) fish > $@.tmp && mv $@.tmp $@

# The pkg-config file names its folders relative to ${prefix} when they lie
# under PREFIX, so that pkg-config --define-prefix finds a staged or moved
# install.
# The header needs no other library's headers, so the libraries it links
# are Libs.private, not Requires.private (whose Cflags pkg-config would add,
# relocated wrongly by --define-prefix).
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
$(BUILD)/smpreflight.pc: lib/smpreflight.pc.in lib/smpreflight.h FORCE
	$(call say,GEN,$@)sed -e 's|@PREFIX@|$(PREFIX)|g' \
		-e 's|@LIBDIR@|$(call pc_dir,$(LIBDIR))|g' \
		-e 's|@INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|g' \
		-e 's|@VERSION@|$(MAJOR).$(MINOR).$(PATCH)|g' \
		-e 's|@PRIVATE_LIBS@|$(shell $(PKG_CONFIG) --libs $(LINK_PKGS) 2>/dev/null)|g' \
		-e 's|@DL_LIBS@|$(DL_LIBS)|g' $< > $@

# make install [PREFIX=/usr/local] [DESTDIR=staging folder]: CLI, static
# and shared library (soname and development symlinks), header,
# pkg-config file, man page, the JSON Schemas
# ($(PREFIX)/share/sm-preflight/schemas/) and bash, zsh and fish
# completions. ldconfig only for a real install as root.
SCHEMADIR ?= $(PREFIX)/share/sm-preflight/schemas
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
SCHEMA_FILES = $(SCHEMAS)
install: all shared completions $(BUILD)/smpreflight.pc
	$(call say,INSTALL,$(DESTDIR)$(PREFIX))install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(SCHEMADIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	$(Q)install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/sm-preflight
	$(Q)install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/libsmpreflight.a
	$(Q)install -m 755 $(SOLIB) $(DESTDIR)$(LIBDIR)/$(SOFILE)
	$(Q)ln -sf $(SOFILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libsmpreflight.so
	$(Q)install -m 644 lib/smpreflight.h $(DESTDIR)$(INCLUDEDIR)/smpreflight.h
	$(Q)install -m 644 $(BUILD)/smpreflight.pc $(DESTDIR)$(PKGCONFIGDIR)/smpreflight.pc
	$(Q)install -m 644 docs/sm-preflight.1 $(DESTDIR)$(MANDIR)/man1/sm-preflight.1
	$(Q)install -m 644 $(SCHEMA_FILES) $(DESTDIR)$(SCHEMADIR)/
	$(Q)install -m 644 $(BUILD)/completions/sm-preflight.bash $(DESTDIR)$(BASHCOMPDIR)/sm-preflight
	$(Q)install -m 644 $(BUILD)/completions/_sm-preflight $(DESTDIR)$(ZSHCOMPDIR)/_sm-preflight
	$(Q)install -m 644 $(BUILD)/completions/sm-preflight.fish $(DESTDIR)$(FISHCOMPDIR)/sm-preflight.fish
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
		command -v ldconfig >/dev/null 2>&1; then ldconfig; fi

uninstall:
	$(call say,RM,$(DESTDIR)$(PREFIX))rm -f $(DESTDIR)$(BINDIR)/sm-preflight \
		$(DESTDIR)$(LIBDIR)/libsmpreflight.a \
		$(DESTDIR)$(LIBDIR)/$(SOFILE) $(DESTDIR)$(LIBDIR)/$(SONAME) \
		$(DESTDIR)$(LIBDIR)/libsmpreflight.so \
		$(DESTDIR)$(INCLUDEDIR)/smpreflight.h \
		$(DESTDIR)$(PKGCONFIGDIR)/smpreflight.pc \
		$(DESTDIR)$(MANDIR)/man1/sm-preflight.1 \
		$(SCHEMA_FILES:schemas/%=$(DESTDIR)$(SCHEMADIR)/%) \
		$(DESTDIR)$(BASHCOMPDIR)/sm-preflight \
		$(DESTDIR)$(ZSHCOMPDIR)/_sm-preflight \
		$(DESTDIR)$(FISHCOMPDIR)/sm-preflight.fish
	$(Q)rmdir $(DESTDIR)$(SCHEMADIR) $(DESTDIR)$(PREFIX)/share/sm-preflight 2>/dev/null || true

FORCE:

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
