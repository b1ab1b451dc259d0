/*
 * lsp.h - `sm-preflight lsp`: a Language Server Protocol 3.17 server over
 * stdio on the library (no process per check). The files:
 *   lsp_main.c    the command, the message loop, lifecycle and dispatch
 *   lsp_proto.c   framing (Content-Length), the JSON writer, responses
 *   lsp_pos.c     positions: LSP (UTF-16 or UTF-8 units) <-> bytes/chars
 *   lsp_sync.c    text documents: open, full and incremental change, close
 *   lsp_text.c    the text document notifications
 *   lsp_notebook.c notebook documents: cells, the .ipynb they make
 *   lsp_diag.c    checking a document and publishing its diagnostics
 *   lsp_actions.c code actions: fixes, fix all, ignore with a reason
 *   lsp_hover.c   hover and completion
 *   lsp_config.c  the workspace's configuration (config_*.c) -> contexts
 * Every JSON read goes through the library's reader (smp_json_parse),
 * every string written through its escaper (smp_json_write_string).
 */
#ifndef CLI_LSP_H
#define CLI_LSP_H

#include <stddef.h>
#include <stdint.h>

#include "smpreflight.h"

/* the largest message body read (a bigger one is skipped unread) */
#define LSP_MAX_MESSAGE ((size_t)64 << 20)
/* the largest document kept: a bigger one is not checked, a diagnostic
 * says so (the library's own limit, 4 MiB, gives input-limit below it) */
#define LSP_MAX_DOCUMENT ((size_t)16 << 20)
#define LSP_DEBOUNCE_MS 200

/* A growable output buffer; oom is sticky. */
struct lsp_buf {
	char *data;
	size_t len, cap;
	int oom;
};

void lsp_buf_add(struct lsp_buf *b, const char *s, size_t n);
void lsp_buf_str(struct lsp_buf *b, const char *s);
void lsp_buf_printf(struct lsp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* s as a quoted JSON string (the library's escaper); NULL as null */
void lsp_buf_json(struct lsp_buf *b, const char *s);
void lsp_buf_free(struct lsp_buf *b);

/* How LSP counts the characters of a line (negotiated). */
enum lsp_encoding { LSP_UTF16, LSP_UTF8 };

struct lsp_notebook;

/* An open text document (or a notebook's cell). */
struct lsp_doc {
	char *uri;
	char *path; /* the file path of a file: URI, else the URI */
	char *text;
	size_t len;
	long version;
	int too_big; /* over LSP_MAX_DOCUMENT: text dropped */
	int dirty;   /* changed since the last check */
	int64_t due; /* when a dirty document is checked (ms) */
	/* the last check of text (NULL when dirty or a cell) */
	struct smp_report *report;
	const struct smp_context *ctx; /* that check's context */
	struct lsp_notebook *nb;       /* a cell: its notebook */
	/* the dialect the text last showed (completion of its keys) */
	enum smp_dialect dialect;
	struct lsp_doc *next;
};

/* An LSP position. */
struct lsp_position {
	uint32_t line, character;
};

struct lsp_configs; /* lsp_config.c */

struct lsp_server {
	enum lsp_encoding enc;
	int initialized; /* initialize answered */
	int shutdown;    /* shutdown answered */
	int exit_now;
	long debounce_ms;
	char *root;      /* the workspace folder, or NULL */
	char *rules_uri; /* base of codeDescription.href, or NULL */
	struct lsp_configs *configs;
	struct lsp_doc *docs;
	struct lsp_notebook *notebooks;
	int out_fd;
};

/* lsp_proto.c */
/* Reads one message body into *body (malloc'd, NUL-terminated): 1; 0
 * when nothing came within timeout_ms (-1: wait); -1 at the end of the
 * input; -2 for a malformed header or an oversized body (skipped, said
 * on stderr). */
struct lsp_reader;
struct lsp_reader *lsp_reader_new(int fd);
void lsp_reader_free(struct lsp_reader *r);
int lsp_read(struct lsp_reader *r, int timeout_ms, char **body, size_t *len);
/* Writes b as one framed message; b is emptied. */
void lsp_send(struct lsp_server *s, struct lsp_buf *b);
/* The id of a request, written as it came (number or string), or null. */
void lsp_buf_id(struct lsp_buf *b, const struct smp_json_value *id);
/* {"jsonrpc":"2.0","id":id,"result": then the caller's result and "}" */
void lsp_result_open(struct lsp_buf *b, const struct smp_json_value *id);
void lsp_send_result(struct lsp_server *s, const struct smp_json_value *id,
		     const char *result);
void lsp_send_error(struct lsp_server *s, const struct smp_json_value *id,
		    int code, const char *message);
/* {"jsonrpc":"2.0","method":method,"params": then the caller's params */
void lsp_notify_open(struct lsp_buf *b, const char *method);
/* window/logMessage of a message to the client (and stderr) */
void lsp_log(struct lsp_server *s, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int64_t lsp_now_ms(void);
/* A string member of an object, or NULL. */
const char *lsp_str(const struct smp_json_value *v, const char *key);
/* An integer member of an object, or dflt. */
long lsp_int(const struct smp_json_value *v, const char *key, long dflt);

/* lsp_pos.c */
/* The byte offset of an LSP position in text (clamped to the line's end
 * and the text's end). */
size_t lsp_offset(const struct lsp_server *s, const char *text, size_t len,
		  struct lsp_position p);
/* The LSP position of a byte offset. */
struct lsp_position lsp_position_at(const struct lsp_server *s,
				    const char *text, size_t len, size_t off);
/* The LSP position of a 1-based line and 1-based column in characters
 * (a finding's); line 0 is the start of the text. */
struct lsp_position lsp_position_chars(const struct lsp_server *s,
				       const char *text, size_t len,
				       uint32_t line, uint32_t column);
/* Writes {"line":..,"character":..}. */
void lsp_buf_position(struct lsp_buf *b, struct lsp_position p);
void lsp_buf_range(struct lsp_buf *b, struct lsp_position a,
		   struct lsp_position z);
/* Reads a Position object; 0, or -1 when it is not one. */
int lsp_read_position(const struct smp_json_value *v, struct lsp_position *p);
/* The path of a file: URI (percent-decoded), malloc'd; NULL otherwise. */
char *lsp_uri_path(const char *uri);
/* A file: URI of an absolute path into b (percent-encoded). */
void lsp_buf_file_uri(struct lsp_buf *b, const char *path);

/* lsp_sync.c */
struct lsp_doc *lsp_doc_find(struct lsp_server *s, const char *uri);
/* Makes or replaces a document; NULL when out of memory. */
struct lsp_doc *lsp_doc_open(struct lsp_server *s, const char *uri,
			     const char *text, size_t len, long version);
void lsp_doc_close(struct lsp_server *s, const char *uri);
/* Applies a contentChanges array (full or incremental): 0, or -1 when a
 * change is malformed (the document then keeps what applied). */
int lsp_doc_change(struct lsp_server *s, struct lsp_doc *d,
		   const struct smp_json_value *changes);
void lsp_doc_set_text(struct lsp_doc *d, char *text, size_t len);
void lsp_doc_free(struct lsp_doc *d);

/* lsp_text.c */
/* Marks a document, or a cell's notebook, to be checked. */
void lsp_mark_any(struct lsp_server *s, struct lsp_doc *d);
void lsp_did_open(struct lsp_server *s, const struct smp_json_value *params);
void lsp_did_change(struct lsp_server *s, const struct smp_json_value *params);
void lsp_did_close(struct lsp_server *s, const struct smp_json_value *params);
void lsp_did_save(struct lsp_server *s, const struct smp_json_value *params);

/* lsp_notebook.c */
void lsp_nb_did_open(struct lsp_server *s, const struct smp_json_value *p);
void lsp_nb_did_change(struct lsp_server *s, const struct smp_json_value *p);
void lsp_nb_did_close(struct lsp_server *s, const struct smp_json_value *p);
/* Checks and publishes a notebook whose cells changed. */
void lsp_nb_check(struct lsp_server *s, struct lsp_notebook *nb);
void lsp_nb_mark(struct lsp_server *s, struct lsp_notebook *nb);
void lsp_nb_free_all(struct lsp_server *s);
/* The last check of a cell's notebook (checked now when it changed) and
 * the cell's 1-based number; NULL when cell_uri is none of its cells. */
const struct smp_report *lsp_nb_report(struct lsp_server *s,
				       struct lsp_notebook *nb,
				       const char *cell_uri, uint32_t *cell);
/* A fix's byte edit of the notebook's JSON [*start, *end) -> text, as an
 * edit of the cell's text: 0 with *start, *end and *out (malloc'd) set;
 * -1 when it is not inside the cell's source. */
int lsp_nb_map_edit(const struct lsp_notebook *nb, uint32_t cell, size_t *start,
		    size_t *end, const char *text, char **out);
/* The notebook's file path (its configuration's place). */
const char *lsp_nb_path(const struct lsp_notebook *nb);
/* The notebooks due now are checked; the earliest deadline left, or -1 */
int64_t lsp_nb_due(struct lsp_server *s, int64_t now);

/* lsp_diag.c */
/* Marks d (not a cell) changed: checked after the debounce delay. */
void lsp_doc_mark(struct lsp_server *s, struct lsp_doc *d);
/* Checks d (not a cell) now when it is dirty, and publishes its
 * diagnostics. */
void lsp_doc_check(struct lsp_server *s, struct lsp_doc *d);
/* Checks the dirty documents whose time came; returns when the next one
 * is due (ms), or -1 when none is dirty. */
int64_t lsp_docs_due(struct lsp_server *s, int64_t now);
/* Publishes the findings of rep over text for uri; cell: only the
 * findings of that 1-based notebook cell (0: all). */
void lsp_publish(struct lsp_server *s, const char *uri, const char *path,
		 const char *text, size_t len, const struct smp_report *rep,
		 uint32_t cell);
/* The Diagnostic of finding f over text. */
void lsp_buf_diagnostic(struct lsp_server *s, struct lsp_buf *b,
			const char *text, size_t len, const char *path,
			const struct smp_finding *f, uint32_t cell);
/* The check options of a document at path (its folder for scripts). */
int lsp_check_text(struct lsp_server *s, const char *path, const char *text,
		   size_t len, struct smp_report **out,
		   const struct smp_context **ctx);

/* lsp_actions.c */
void lsp_code_action(struct lsp_server *s, const struct smp_json_value *id,
		     const struct smp_json_value *params);
/* The byte edits of a finding (one today; a list when findings carry
 * several): each handed to fn; the number handed. */
size_t lsp_finding_edits(const struct smp_finding *f,
			 void (*fn)(void *ud, size_t start, size_t end,
				    const char *text),
			 void *ud);

/* lsp_hover.c */
void lsp_hover(struct lsp_server *s, const struct smp_json_value *id,
	       const struct smp_json_value *params);
void lsp_completion(struct lsp_server *s, const struct smp_json_value *id,
		    const struct smp_json_value *params);

/* lsp_config.c */
/* (Re)reads the workspace configuration on the next check. */
void lsp_config_reset(struct lsp_server *s);
/* The context governing the spec at path (the CLI's profile of it), and
 * the check flags a walk of it would use (flags may be NULL). */
const struct smp_context *lsp_config_context(struct lsp_server *s,
					     const char *path, unsigned *flags);
void lsp_config_free(struct lsp_server *s);
/* When path is a .sm-preflight.yaml: checks text as a configuration,
 * publishes what is wrong with it, 1; else 0. */
int lsp_config_check(struct lsp_server *s, const char *uri, const char *path,
		     const char *text, size_t len);
/* 1 when path names a configuration file (.sm-preflight.yaml,
 * pyproject.toml) */
int lsp_config_is_file(const char *path);

#endif
