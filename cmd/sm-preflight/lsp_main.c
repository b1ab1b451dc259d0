/*
 * lsp_main.c - `sm-preflight lsp`: the message loop, the lifecycle as LSP
 * 3.17 says it (nothing but initialize before initialize, -32002
 * otherwise; shutdown, then exit: status 0, exit without shutdown: 1;
 * after shutdown every request is -32600) and the dispatch of requests
 * and notifications. A body that is not JSON is answered -32700, one
 * that is no JSON-RPC message -32600; nothing a client sends ends the
 * server but exit or the end of its input.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "lsp.h"

enum { OPT_STDIO, OPT_HELP };

static const struct cli_option lsp_options[] = {
	{"--stdio", 0, OPT_STDIO, NULL,
	 "talk over stdin and stdout (the only transport; accepted for "
	 "clients that pass it)"},
	{"--help", 'h', OPT_HELP, NULL, "show this help"},
};

/* utf-8 when the client offers it (general.positionEncodings), else the
 * protocol's default, utf-16 */
static void
negotiate(struct lsp_server *s, const struct smp_json_value *caps)
{
	const struct smp_json_value *encs = smp_json_get(
		smp_json_get(caps, "general"), "positionEncodings");

	s->enc = LSP_UTF16;
	for (size_t i = 0; i < smp_json_length(encs); i++) {
		const char *e = smp_json_text(smp_json_at(encs, i), NULL);

		if (e && strcmp(e, "utf-8") == 0)
			s->enc = LSP_UTF8;
	}
}

static void
set_root(struct lsp_server *s, const struct smp_json_value *params)
{
	const char *uri = lsp_str(params, "rootUri");
	const struct smp_json_value *folders =
		smp_json_get(params, "workspaceFolders");

	if (!uri && smp_json_length(folders))
		uri = lsp_str(smp_json_at(folders, 0), "uri");
	free(s->root);
	s->root = uri ? lsp_uri_path(uri) : NULL;
	if (!s->root && lsp_str(params, "rootPath"))
		s->root = strdup(lsp_str(params, "rootPath"));
	/* relative names resolve from the workspace root, as `check` run
	 * there resolves them */
	if (s->root && chdir(s->root) != 0)
		lsp_log(s, 2, "cannot enter the workspace folder %s", s->root);
}

/* codeDescription.href's base: the client's option, the CLI's
 * SM_PREFLIGHT_RULES_URI, else the workspace's own docs/rules.md. */
static void
set_rules_uri(struct lsp_server *s, const struct smp_json_value *init)
{
	const char *o = lsp_str(init, "rulesUri");
	const char *env = getenv("SM_PREFLIGHT_RULES_URI");
	struct lsp_buf b = {0};

	free(s->rules_uri);
	s->rules_uri = NULL;
	if (o || (env && env[0])) {
		s->rules_uri = strdup(o ? o : env);
		return;
	}
	if (s->root && access("docs/rules.md", R_OK) == 0) {
		lsp_buf_file_uri(&b, s->root);
		lsp_buf_str(&b, "/docs/rules.md");
		s->rules_uri = b.data;
	}
}

static const char capabilities[] =
	",\"textDocumentSync\":{\"openClose\":true,\"change\":2,"
	"\"save\":{\"includeText\":false}},"
	"\"notebookDocumentSync\":{\"notebookSelector\":[{\"notebook\":"
	"\"*\",\"cells\":[{\"language\":\"python\"}]}]},"
	"\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\","
	"\"source.fixAll\"]},"
	"\"hoverProvider\":true,"
	"\"completionProvider\":{\"triggerCharacters\":[\".\",\":\",\" \","
	"\"\\\"\"]}},"
	"\"serverInfo\":{\"name\":\"sm-preflight\",\"version\":";

static void
initialize(struct lsp_server *s, const struct smp_json_value *id,
	   const struct smp_json_value *params)
{
	const struct smp_json_value *init =
		smp_json_get(params, "initializationOptions");
	struct lsp_buf b = {0};

	negotiate(s, smp_json_get(params, "capabilities"));
	s->debounce_ms = lsp_int(init, "debounceMs", LSP_DEBOUNCE_MS);
	if (s->debounce_ms < 0 || s->debounce_ms > 10000)
		s->debounce_ms = LSP_DEBOUNCE_MS;
	set_root(s, params);
	set_rules_uri(s, init);
	lsp_result_open(&b, id);
	lsp_buf_printf(&b, "{\"capabilities\":{\"positionEncoding\":\"%s\"",
		       s->enc == LSP_UTF8 ? "utf-8" : "utf-16");
	lsp_buf_str(&b, capabilities);
	lsp_buf_json(&b, smp_version());
	lsp_buf_str(&b, "}}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
	s->initialized = 1;
}

/* After initialized: ask to hear of configuration files changing. */
static void
register_watchers(struct lsp_server *s)
{
	struct lsp_buf b = {0};

	lsp_buf_str(&b, "{\"jsonrpc\":\"2.0\",\"id\":\"sm-preflight-watch\","
			"\"method\":\"client/registerCapability\",\"params\":"
			"{\"registrations\":[{\"id\":\"sm-preflight-config\","
			"\"method\":\"workspace/didChangeWatchedFiles\","
			"\"registerOptions\":{\"watchers\":[{\"globPattern\":"
			"\"**/.sm-preflight.yaml\"},{\"globPattern\":"
			"\"**/pyproject.toml\"}]}}]}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}

static void
watched_files(struct lsp_server *s, const struct smp_json_value *params)
{
	const struct smp_json_value *changes = smp_json_get(params, "changes");

	for (size_t i = 0; i < smp_json_length(changes); i++) {
		const char *uri = lsp_str(smp_json_at(changes, i), "uri");
		char *path = uri ? lsp_uri_path(uri) : NULL;
		int cfg = path && lsp_config_is_file(path);

		free(path);
		if (cfg) {
			lsp_config_reset(s);
			for (struct lsp_doc *d = s->docs; d; d = d->next)
				lsp_mark_any(s, d);
			return;
		}
	}
}

static void
notification(struct lsp_server *s, const char *m,
	     const struct smp_json_value *params)
{
	if (strcmp(m, "exit") == 0)
		s->exit_now = 1;
	else if (!s->initialized || s->shutdown)
		return; /* dropped, as the spec says */
	else if (strcmp(m, "initialized") == 0)
		register_watchers(s);
	else if (strcmp(m, "textDocument/didOpen") == 0)
		lsp_did_open(s, params);
	else if (strcmp(m, "textDocument/didChange") == 0)
		lsp_did_change(s, params);
	else if (strcmp(m, "textDocument/didClose") == 0)
		lsp_did_close(s, params);
	else if (strcmp(m, "textDocument/didSave") == 0)
		lsp_did_save(s, params);
	else if (strcmp(m, "notebookDocument/didOpen") == 0)
		lsp_nb_did_open(s, params);
	else if (strcmp(m, "notebookDocument/didChange") == 0)
		lsp_nb_did_change(s, params);
	else if (strcmp(m, "notebookDocument/didClose") == 0)
		lsp_nb_did_close(s, params);
	else if (strcmp(m, "workspace/didChangeWatchedFiles") == 0)
		watched_files(s, params);
	/* anything else ($/cancelRequest, $/setTrace...) needs nothing */
}

static void
request(struct lsp_server *s, const char *m, const struct smp_json_value *id,
	const struct smp_json_value *params)
{
	if (strcmp(m, "initialize") == 0 && !s->initialized)
		initialize(s, id, params);
	else if (!s->initialized)
		lsp_send_error(s, id, -32002, "the server is not initialized");
	else if (s->shutdown)
		lsp_send_error(s, id, -32600, "the server is shut down");
	else if (strcmp(m, "initialize") == 0)
		lsp_send_error(s, id, -32600, "initialize was already sent");
	else if (strcmp(m, "shutdown") == 0) {
		s->shutdown = 1;
		lsp_send_result(s, id, "null");
	} else if (strcmp(m, "textDocument/codeAction") == 0)
		lsp_code_action(s, id, params);
	else if (strcmp(m, "textDocument/hover") == 0)
		lsp_hover(s, id, params);
	else if (strcmp(m, "textDocument/completion") == 0)
		lsp_completion(s, id, params);
	else
		lsp_send_error(s, id, -32601, "method not found");
}

static void
handle(struct lsp_server *s, const char *body, size_t len)
{
	struct smp_json *j = NULL;
	struct smp_error err;
	const struct smp_json_value *msg, *id, *method;
	enum smp_json_type it;

	memset(&err, 0, sizeof(err));
	if (smp_json_parse(&j, body, len, LSP_MAX_MESSAGE, NULL, &err)) {
		lsp_send_error(s, NULL, -32700, err.message);
		return;
	}
	msg = smp_json_root(j);
	id = smp_json_get(msg, "id");
	method = smp_json_get(msg, "method");
	it = smp_json_type(id);
	if (smp_json_type(msg) != SMP_JSON_OBJECT || !lsp_str(msg, "jsonrpc") ||
	    strcmp(lsp_str(msg, "jsonrpc"), "2.0") != 0 ||
	    (id && it != SMP_JSON_NUMBER && it != SMP_JSON_STRING &&
	     it != SMP_JSON_NULL)) {
		lsp_send_error(s,
			       it == SMP_JSON_NUMBER || it == SMP_JSON_STRING
				       ? id
				       : NULL,
			       -32600, "not a JSON-RPC 2.0 message");
	} else if (smp_json_type(method) == SMP_JSON_STRING) {
		if (id)
			request(s, smp_json_text(method, NULL), id,
				smp_json_get(msg, "params"));
		else
			notification(s, smp_json_text(method, NULL),
				     smp_json_get(msg, "params"));
	} else if (!id || (!smp_json_get(msg, "result") &&
			   !smp_json_get(msg, "error"))) {
		lsp_send_error(s, id, -32600, "a message without a method");
	} /* else a response to the server's own request: nothing to do */
	smp_json_free(j);
}

static void
server_free(struct lsp_server *s)
{
	while (s->docs) {
		struct lsp_doc *d = s->docs;

		s->docs = d->next;
		lsp_doc_free(d);
	}
	lsp_nb_free_all(s);
	lsp_config_free(s);
	free(s->root);
	free(s->rules_uri);
}

/* Checks what is due; the ms until the next check, or -1 for none. */
static int
check_due(struct lsp_server *s)
{
	int64_t now = lsp_now_ms(), next = lsp_docs_due(s, now);
	int64_t nb = lsp_nb_due(s, now);

	if (nb >= 0 && (next < 0 || nb < next))
		next = nb;
	return next < 0 ? -1 : (int)(next - now);
}

static int
serve(void)
{
	struct lsp_server s;
	struct lsp_reader *r = lsp_reader_new(0);
	char *body;
	size_t len;

	if (!r)
		return CLI_EXIT_INTERNAL;
	memset(&s, 0, sizeof(s));
	s.out_fd = 1;
	s.debounce_ms = LSP_DEBOUNCE_MS;
	signal(SIGPIPE, SIG_IGN); /* a gone client ends the read loop */
	while (!s.exit_now) {
		int k = lsp_read(r, check_due(&s), &body, &len);

		if (k == -1)
			break;
		if (k == 1) {
			handle(&s, body, len);
			free(body);
		}
	}
	lsp_reader_free(r);
	server_free(&s);
	return s.shutdown ? CLI_EXIT_OK : CLI_EXIT_FINDINGS;
}

static int
run_lsp(int argc, char **argv)
{
	struct cli_args it;
	const char *value;
	int id;

	cli_args_init(&it, argc, argv);
	while ((id = cli_args_next(&it, lsp_options,
				   sizeof(lsp_options) / sizeof(lsp_options[0]),
				   &value)) != CLI_ARG_END) {
		if (id == OPT_HELP)
			return cli_help(&cli_cmd_lsp);
		if (id == CLI_ARG_POSITIONAL)
			return cli_usage_error("'lsp' takes no file: the "
					       "editor sends the documents");
		if (id != OPT_STDIO)
			return CLI_EXIT_USAGE;
	}
	return serve();
}

const struct cli_command cli_cmd_lsp = {
	"lsp",
	"[--stdio]",
	"Run a Language Server Protocol server over stdin and stdout: "
	"findings as diagnostics while you type, fixes as code actions, "
	"hover and completion (docs/editors.md).",
	NULL,
	lsp_options,
	sizeof(lsp_options) / sizeof(lsp_options[0]),
	run_lsp,
};
