#!/bin/sh
# run.sh - `sm-preflight update-data` and `data` against real servers on
# loopback: sh tests/net/run.sh CLI [PATTERN]
#
# Starts tests/net/server.py (plain HTTP, HTTPS with a certificate made
# here by openssl for 127.0.0.1/localhost, HTTPS with a certificate for
# another name) on random ports of 127.0.0.1, runs every test_* function
# below (PATTERN, a shell pattern, selects them), stops the servers and
# prints "N passed, N failed". Nothing leaves the machine. Skips (exit 0,
# with a message) only when python3 or openssl is missing.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
cli_args "sh tests/net/run.sh CLI [PATTERN]" "$@"
for tool in python3 openssl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "run.sh: skipped: $tool is not installed (the loopback" \
			"servers need python3 and openssl: apt-get install python3 openssl)"
		exit 0
	fi
done

data=$(cd "$here/../../instance-data" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/smp-net.XXXXXX") || exit 2
server=
cleanup() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

# nothing from the caller's environment may steer the tests
unset SM_PREFLIGHT_DATA_URL SM_PREFLIGHT_STALE_DAYS http_proxy https_proxy \
	HTTPS_PROXY HTTP_PROXY ALL_PROXY all_proxy no_proxy NO_PROXY \
	CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
if command -v timeout >/dev/null 2>&1; then
	limit="timeout 60"
else
	limit=
fi

# --- certificates and servers -------------------------------------------
cert() { # NAME SUBJECT SAN
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
		-nodes -days 2 -keyout "$T/$1.key" -out "$T/$1.pem" \
		-subj "/CN=$2" -addext "subjectAltName=$3" >"$T/openssl.log" 2>&1
}
if ! cert good 127.0.0.1 "IP:127.0.0.1,DNS:localhost" ||
	! cert wrong wrong.example "DNS:wrong.example"; then
	echo "run.sh: openssl could not make a test certificate:"
	cat "$T/openssl.log"
	echo "0 passed, 1 failed"
	exit 1
fi
# the data publisher's Ed25519 key pair, made here: the servers sign
# every index with it, and update-data is given its public half
if ! openssl genpkey -algorithm ed25519 -out "$T/sign.key" >"$T/openssl.log" 2>&1 ||
	! openssl pkey -in "$T/sign.key" -pubout -out "$T/sign.pub" >>"$T/openssl.log" 2>&1 ||
	! openssl genpkey -algorithm ed25519 -out "$T/other.key" >>"$T/openssl.log" 2>&1 ||
	! openssl pkey -in "$T/other.key" -pubout -out "$T/other.pub" >>"$T/openssl.log" 2>&1; then
	echo "run.sh: openssl could not make a test Ed25519 key:"
	cat "$T/openssl.log"
	echo "0 passed, 1 failed"
	exit 1
fi
SM_PREFLIGHT_DATA_PUBLIC_KEY=$T/sign.pub
export SM_PREFLIGHT_DATA_PUBLIC_KEY
python3 "$here/server.py" --data "$data" --portfile "$T/ports" \
	--sign-key "$T/sign.key" \
	--cert "$T/good.pem" --key "$T/good.key" \
	--wrong-cert "$T/wrong.pem" --wrong-key "$T/wrong.key" \
	--lifetime 600 >"$T/server.log" 2>&1 &
server=$!
i=0
while [ ! -s "$T/ports" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -s "$T/ports" ]; then
	echo "run.sh: the test servers did not start:"
	cat "$T/server.log"
	echo "0 passed, 1 failed"
	exit 1
fi
read -r HTTP HTTPS WRONG REMOVED <"$T/ports"
H=http://127.0.0.1:$HTTP
S=https://127.0.0.1:$HTTPS
CA=$T/good.pem

# --- helpers --------------------------------------------------------------

# fresh: an empty cache for this test
fresh() {
	XDG_CACHE_HOME=$T/cache-$name
	export XDG_CACHE_HOME
	CACHE=$XDG_CACHE_HOME/sm-preflight
}

# in_use: "VERSION ORIGIN" of the data `check` would use
in_use() {
	"$cli" data | awk '/^data in use:/ {o=$4} /^version:/ {
		sub(",", "", $2); v=$2 } END {print v, o}'
}

# same_in_use EXPECTED: the data in use did not change
same_in_use() {
	got=$(in_use)
	[ "$got" = "$1" ] || fail "data in use is '$got', expected '$1'"
}

# stat KEY: a counter of the servers
stat() {
	python3 -c 'import json, sys, urllib.request
print(json.load(urllib.request.urlopen(sys.argv[1]))[sys.argv[2]])' \
		"$H/stats" "$1"
}

# no_litter: nothing half-written left in the cache
no_litter() {
	left=$(find "$CACHE" -mindepth 1 -maxdepth 1 \( -name '.tmp-*' -o \
		-name '.current-*' -o -name '.checked-*' \))
	[ -z "$left" ] || fail "left in the cache: $left"
}

# --- tests ----------------------------------------------------------------
test_https_with_cacert() {
	fresh
	run 0 update-data --url "$S/good/" --cacert "$CA" &&
		has "^instance data is up to date: .* from $S/good/$"
	same_in_use "$(awk -F'"' '/"data_version"/ {print $4; exit}' \
		"$data/instances.json") refreshed"
}

test_https_localhost_name() {
	fresh
	run 0 update-data --url "https://localhost:$HTTPS/v2" --cacert "$CA" &&
		has "^updated the instance data from https://localhost:$HTTPS/v2/"
}

test_https_self_signed_refused_without_cacert() {
	fresh
	run 1 update-data --url "$S/good/" &&
		has "update-data failed: .*certificate" &&
		has "in use is unchanged: .* \(built-in\)"
	[ ! -e "$CACHE/current" ] || fail "a cache was written"
}

test_https_certificate_for_another_name_refused() {
	fresh
	run 0 update-data -q --url "$S/v2/" --cacert "$CA"
	run 1 update-data --url "https://127.0.0.1:$WRONG/good/" \
		--cacert "$T/wrong.pem" &&
		has "no alternative certificate subject name matches"
	same_in_use "2100.01.01 refreshed"
}

test_changes_listed() {
	fresh
	run 0 update-data --url "$H/good/" &&
		run 0 update-data --url "$H/v2/" &&
		has "^updated the instance data from $H/v2/: .* -> 2100\.01\.01" &&
		has "^  added:   ml\.p4d\.48xlarge$" &&
		has "^  removed: $REMOVED$" &&
		has "^  changed: ml\.p3\.2xlarge: network_gbps 10 -> 11$" &&
		has "stored in $CACHE/current"
	run 0 data && has "^data in use:  refreshed copy" &&
		has "^version:      2100\.01\.01, generated 2100-01-01" &&
		has "^source:       $H/v2/$" && has "^downloaded:   20"
}

test_conditional_request_304() {
	fresh
	run 0 update-data --url "$H/good/"
	before=$(stat not_modified)
	run 0 update-data --url "$H/good/" && has "\(not modified\)$"
	after=$(stat not_modified)
	# the three files and index.json; the signature is always fetched
	[ $((after - before)) -eq 4 ] ||
		fail "expected 4 answers 304, got $((after - before))"
}

test_if_modified_since_304() {
	fresh
	run 0 update-data --url "$H/lm/" && hasnt "not modified"
	run 0 update-data --url "$H/lm/" && has "\(not modified\)$"
}

test_plain_http_only_to_loopback() {
	fresh
	run 0 update-data --url "http://localhost:$HTTP/good/"
	run 2 update-data --url "http://data.example.invalid/instance-data/" &&
		has "plain http:// is allowed only to a loopback host"
}

test_redirect_https_followed() {
	fresh
	run 0 update-data --url "$S/redirect/" --cacert "$CA" &&
		has "up to date"
}

test_redirect_to_http_refused() {
	fresh
	run 1 update-data --url "$S/redirect-http/" --cacert "$CA" &&
		has "refused the redirect to 'http://127\.0\.0\.1:$HTTP/good/"
	run 1 update-data --url "$H/redirect/" &&
		has "only https:// redirects are followed"
}

test_retry_500_then_200() {
	fresh
	before=$(stat errors)
	run 0 update-data --url "$H/flaky-$$/"
	after=$(stat errors)
	# the three files and index.json.sig (index.json never fails here)
	[ $((after - before)) -eq 4 ] ||
		fail "expected 4 answers 500 before success, got" \
			"$((after - before))"
}

test_5xx_gives_up() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	run 1 update-data --url "$H/down/" --retries 1 &&
		has "HTTP 503 \(2 attempts\)"
	same_in_use "2100.01.01 refreshed"
}

test_timeout() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	t0=$(date +%s)
	run 1 update-data --url "$H/slow/" --timeout 1 --retries 0 &&
		has "timed out"
	t1=$(date +%s)
	[ $((t1 - t0)) -le 3 ] || fail "took $((t1 - t0)) s with --timeout 1"
	run 1 update-data --url "$H/slow/" --timeout 1 --retries 1 &&
		has "timed out .*\(2 attempts\)"
	same_in_use "2100.01.01 refreshed"
}

test_oversize_refused() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	run 1 update-data --url "$H/big/" &&
		has "big/instances\.json: the document is larger than the limit"
	run 1 update-data --url "$H/big-chunked/" &&
		has "big-chunked/instances\.json: the document is larger"
	same_in_use "2100.01.01 refreshed"
}

test_invalid_json_refused() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	run 1 update-data --url "$H/badjson/" &&
		has "failed: $H/badjson/instances\.json:[0-9]+:[0-9]+: "
	same_in_use "2100.01.01 refreshed"
	no_litter
}

test_wrong_schema_version_refused() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	run 1 update-data --url "$H/schema/" &&
		has "instances\.json:1:[0-9]+: unsupported schema_version 99"
	same_in_use "2100.01.01 refreshed"
}

test_inconsistent_data_version_refused() {
	fresh
	run 1 update-data --url "$H/mixed/" &&
		has "tested-models\.json:[0-9]+:[0-9]+: 'data_version' is"
	same_in_use "$(in_use | cut -d' ' -f1) built-in"
	[ ! -e "$CACHE/current" ] || fail "a cache was written"
}

# The data is taken only when its index is signed by the publisher's key.
test_signature_checked() {
	run 0 update-data --url "$H/good/" &&
		has "index\.json is signed by the public key given" &&
		has "sha256 of every file matches index\.json"
}

test_unsigned_data_refused() {
	fresh
	run 1 update-data --url "$H/unsigned/" &&
		has "serves no index\.json, so the data's signature cannot be checked" &&
		run 0 data && has "source: +built-in"
}

test_insecure_unsigned_takes_it_with_a_warning() {
	run 0 update-data --insecure-unsigned --url "$H/unsigned/" &&
		has "warning: --insecure-unsigned" &&
		hasnt "is signed by"
}

# A mirror that changes a fact and the digest that vouches for it cannot
# forge the signature.
test_forged_mirror_refused() {
	fresh
	run 1 update-data --url "$H/forged/" &&
		has "index\.json\.sig: the signature does not match: index\.json was not signed by the public key given" &&
		run 0 data && has "source: +built-in"
}

test_another_key_refused() {
	run 1 update-data --public-key "$T/other.pub" --url "$H/good/" &&
		has "not signed by the public key given"
}

test_no_key_is_a_usage_error() {
	SM_PREFLIGHT_DATA_PUBLIC_KEY= run 2 update-data --url "$H/good/" &&
		has "no public key to check the data's signature with"
	run 2 update-data --public-key "$T/nonexistent.pub" --url "$H/good/" &&
		has "cannot read the public key"
	printf 'not a key\n' >"$T/bad.pub"
	run 2 update-data --public-key "$T/bad.pub" --url "$H/good/" &&
		has "neither a PEM public key nor 32 bytes in base64"
}

test_index_sha256() {
	fresh
	run 0 update-data --url "$H/index/" &&
		has "sha256 of every file matches index\.json"
	run 1 update-data --url "$H/index-bad/" &&
		has "tested-models\.json: sha256 [0-9a-f]{64} does not match"
}

# The limit of data-stale is the one the data's source declares: none for
# the built-in data or a source that declares none.
test_stale_limit_from_source() {
	fresh
	run 0 data && has "stale check: +off \(the built-in data is frozen"
	run 0 update-data --url "$H/index/" &&
		run 0 data && has "stale check: +off \(the data's source declares"
	run 0 update-data --url "$H/index-age/" && run 0 data &&
		has "stale check: +(fresh \(limit 1 day\)|stale: older than 1 day)"
	run 1 update-data --url "$H/index-age-bad/" &&
		has "'max_age_days' must be a whole number of days from 1 to 36500"
}

test_http_404() {
	fresh
	run 1 update-data --url "$H/notfound/" && has "HTTP 404"
}

test_kill_mid_download_keeps_old_data() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	before=$(stat stalls)
	"$cli" update-data --url "$H/stall/" >"$T/out" 2>&1 &
	pid=$!
	i=0
	while [ "$(stat stalls)" -eq "$before" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 100 ] || fail "the download never reached the stall"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	same_in_use "2100.01.01 refreshed"
	run 0 check --stale-days 0 "$here/../cases/cli/good.yaml"
	run 0 update-data --url "$H/good/" && no_litter
}

test_write_failure_keeps_old_data() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	# files over 64 KiB cannot be written: tested-models.json fails
	# midway (EFBIG; SIGXFSZ ignored so the write returns an error)
	(
		trap '' XFSZ
		ulimit -f 128
		exec "$cli" update-data --url "$H/good/"
	) >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc with a failing write, expected 1"
	has "tested-models\.json: cannot write: File too large"
	same_in_use "2100.01.01 refreshed"
	no_litter
	cmp -s "$CACHE/current/instances.json" /dev/null &&
		fail "instances.json is empty"
}

# wait_each OUT MESSAGE PID...: each PID (whose output is $T/OUT.N, N
# its place in the list) must succeed
wait_each() {
	out=$1
	msg=$2
	shift 2
	k=0
	for p in "$@"; do
		k=$((k + 1))
		wait "$p" || {
			cp "$T/$out.$k" "$T/out"
			fail "$msg"
		}
	done
}

# Six writers switch the copy back and forth while two readers look at
# it: every writer succeeds, every reader sees a whole refreshed copy,
# and one copy is left without litter.
test_concurrent_updates() {
	fresh
	run 0 update-data -q --url "$H/good/" || return
	pids=
	i=0
	for u in good v2 good v2 good v2; do
		i=$((i + 1))
		$limit "$cli" update-data -q --url "$H/$u/" >"$T/up.$i" 2>&1 &
		pids="$pids $!"
	done
	rpids=
	for r in 1 2; do
		(
			for k in 1 2 3 4 5; do
				$limit "$cli" data >"$T/rd.$r" 2>&1 &&
					grep -q '^data in use:  refreshed copy' \
						"$T/rd.$r" || exit 1
			done
		) &
		rpids="$rpids $!"
	done
	wait_each up "a concurrent update-data failed" $pids
	wait_each rd "a reader did not see a whole refreshed copy" $rpids
	: >"$T/out"
	run 0 data && has "^data in use:  refreshed copy"
	n=$(find "$CACHE" -mindepth 1 -maxdepth 1 -name 'data-*' | wc -l)
	[ "$n" -eq 1 ] || fail "$n data folders left, expected 1"
	no_litter
}

# What a data server sends is printed escaped: no terminal escape and
# no GitHub workflow command at the start of a line reaches the output.
test_downloaded_text_printed_escaped() {
	fresh
	run 1 update-data --url "$H/escape/" &&
		has "tested-models\.json:1:[0-9]+: 'models\[0\]\.framework' must be one of 'pytorch', 'tensorflow', found a string \(\"\\\\x1B\]0;pwned\\\\x07\\\\n::error::pwned\"\)"
	if LC_ALL=C grep -q "$(printf '[\033\007]')" "$T/out"; then
		fail "a raw escape or bell character was printed"
	fi
	hasnt "^::error::"
	same_in_use "$(awk -F'"' '/"data_version"/ {print $4; exit}' \
		"$data/instances.json") built-in"
}

test_bad_cache_falls_back_to_builtin() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	printf '{"broken": ' >"$CACHE/current/instances.json"
	run 0 data && has "^data in use:  built-in" &&
		has "^cache: .* is not used: .*instances\.json:1:[0-9]+: "
	run 0 check --stale-days 0 "$here/../cases/cli/good.yaml"
	run 0 update-data --url "$H/v2/" && has "^updated"
	same_in_use "2100.01.01 refreshed"
}

test_older_than_builtin_not_used() {
	fresh
	run 0 update-data --url "$H/old/" &&
		has "built-in data is newer than 2020\.01\.01 and stays in use"
	run 0 data && has "^data in use:  built-in" &&
		has "2020\.01\.01\) is not used: the built-in data is newer"
}

test_url_from_env_and_last_refresh() {
	fresh
	run 2 update-data &&
		has "no data URL: give --url URL, set 'data-url' in"
	SM_PREFLIGHT_DATA_URL=$H/v2/
	export SM_PREFLIGHT_DATA_URL
	run 0 update-data && has "from $H/v2/"
	unset SM_PREFLIGHT_DATA_URL
	run 0 update-data && has "from $H/v2/ \(not modified\)" &&
		has "no 'data-url' in .sm-preflight.yaml and no SM_PREFLIGHT_DATA_URL"
}

test_url_from_config() {
	fresh
	mkdir -p "$T/proj-$name/.git"
	printf 'data-url: %s/v2/\n' "$H" >"$T/proj-$name/.sm-preflight.yaml"
	old=$(pwd)
	cd "$T/proj-$name" || return
	run 0 update-data && has "from $H/v2/" &&
		hasnt "no 'data-url'"
	SM_PREFLIGHT_DATA_URL=$H/good/
	export SM_PREFLIGHT_DATA_URL
	run 0 update-data && has "from $H/good/"
	unset SM_PREFLIGHT_DATA_URL
	cd "$old" || return
}

test_offline() {
	fresh
	run 0 update-data -q --url "$H/v2/"
	run 2 update-data --offline --url "$H/v2/" &&
		has "needs the network, which --offline forbids"
	before=$(stat requests)
	run 0 check --offline --stale-days 0 "$here/../cases/cli/good.yaml"
	run 0 data --offline && has "^version:      2100\.01\.01"
	after=$(stat requests)
	[ "$after" -eq "$before" ] || fail "--offline made $((after - before))" \
		"requests"
}

test_stale_days_option_and_env() {
	fresh
	run 2 check --stale-days -1 "$here/../cases/cli/good.yaml" &&
		has "invalid value '-1' for '--stale-days'"
	SM_PREFLIGHT_STALE_DAYS=x
	export SM_PREFLIGHT_STALE_DAYS
	run 2 check "$here/../cases/cli/good.yaml" &&
		has "invalid value 'x' for 'SM_PREFLIGHT_STALE_DAYS'"
	run 0 data --stale-days 0 && has "^stale check:  off$"
	unset SM_PREFLIGHT_STALE_DAYS
	run 0 data --stale-days 10 && has "^stale check:  fresh \(limit 10 days\)$"
}

run_tests

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
