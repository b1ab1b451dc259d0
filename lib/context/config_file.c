/*
 * config_file.c - smp_config_parse(): a `.sm-preflight.yaml` read by the
 * spec loader and checked against schemas/config.schema.json (embedded)
 * by the spec schema checker, so a misspelled key gets the same
 * did-you-mean and position as in a spec. Rule ids are checked against
 * the rule table here rather than listed in the schema, which would
 * drift from rules.def.
 */
#include <stdio.h>
#include <string.h>

#include "smpreflight.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "doc/load.h"
#include "report/rule_table.h"
#include "schema/schema.h"
#include "util/text.h"
#include "util/error.h"

/* The public struct first, so that a pointer to it is one to this. */
struct config {
	struct smp_config pub;
	struct smp_allocator alloc;
	struct smp_arena arena;
};

static struct smp_config_pos
pos_of(const struct smp_node *n)
{
	struct smp_config_pos p;

	p.line = n->start.line;
	p.column = n->start.column;
	return p;
}

static const char *
dup(struct config *c, const struct smp_node *n)
{
	return smp__arena_strndup(&c->arena, n->u.scalar.value,
				  n->u.scalar.len);
}

/* The schema made sure that n is a string. */
static int
read_string(struct config *c, struct smp_config_string *out,
	    const struct smp_node *key, const struct smp_node *n)
{
	out->value = dup(c, n);
	out->pos = pos_of(key);
	return out->value ? 0 : SMP_ENOMEM;
}

/* The schema made sure that n is a list of strings. */
static int
read_list(struct config *c, struct smp_config_list *out,
	  const struct smp_node *key, const struct smp_node *n)
{
	const char **items;
	size_t i, count = n->u.sequence.count;

	out->set = 1;
	out->pos = pos_of(key);
	items = smp__arena_zalloc(&c->arena, (count + 1) * sizeof(*items));
	if (!items)
		return SMP_ENOMEM;
	for (i = 0; i < count; i++) {
		items[i] = dup(c, n->u.sequence.items[i]);
		if (!items[i])
			return SMP_ENOMEM;
	}
	out->items = items;
	out->count = count;
	return 0;
}

static int
read_rules(struct config *c, const struct smp_node *n, struct smp_error *err)
{
	struct smp_config_rule *rules;
	const char *ids[SMP_RULE_COUNT];
	size_t i, k, count = n->u.mapping.count;

	for (k = 0; k < SMP_RULE_COUNT; k++)
		ids[k] = smp__rule_id((enum smp_rule_id)k);
	rules = smp__arena_zalloc(&c->arena, (count + 1) * sizeof(*rules));
	if (!rules)
		return SMP_ENOMEM;
	for (i = 0; i < count; i++) {
		const struct smp_pair *p = &n->u.mapping.items[i];
		const char *id = p->key->u.scalar.value;
		enum smp_rule_id r;

		if (smp__rule_lookup(&r, id) != 0) {
			const char *best =
				smp__did_you_mean(id, ids, SMP_RULE_COUNT);
			char msg[512];

			if (best)
				snprintf(
					msg, sizeof(msg),
					"unknown rule '%.200s' in 'rules'; did "
					"you mean '%s'?",
					id, best);
			else
				snprintf(msg, sizeof(msg),
					 "unknown rule '%.200s' in 'rules'; "
					 "'sm-preflight rules' lists them",
					 id);
			smp__error_at(err, SMP_EPARSE, c->pub.name,
				      p->key->start.line, p->key->start.column,
				      msg);
			return SMP_EPARSE;
		}
		rules[i].rule = smp__rule_id(r);
		if (smp_severity_parse(&rules[i].severity,
				       p->value->u.scalar.value) != 0)
			return SMP_EINTERNAL; /* the schema's enum */
		rules[i].pos = pos_of(p->key);
	}
	c->pub.rules = rules;
	c->pub.rule_count = count;
	return 0;
}

/* select / ignore-rules: a list whose every name the rule table knows. */
static int
read_selectors(struct config *c, struct smp_config_list *out,
	       const struct smp_node *key, const struct smp_node *n,
	       struct smp_error *err)
{
	size_t i;
	int rc = read_list(c, out, key, n);

	for (i = 0; rc == 0 && i < out->count; i++) {
		const struct smp_node *item = n->u.sequence.items[i];
		const char *best;
		char msg[512];

		if (smp__rule_selector_known(out->items[i]))
			continue;
		best = smp__rule_selector_closest(out->items[i]);
		if (best)
			snprintf(msg, sizeof(msg),
				 "unknown rule or group '%.200s' in '%s'; did "
				 "you mean '%s'?",
				 out->items[i], key->u.scalar.value, best);
		else
			snprintf(msg, sizeof(msg),
				 "unknown rule or group '%.200s' in '%s'; "
				 "'sm-preflight rules' lists them",
				 out->items[i], key->u.scalar.value);
		smp__error_at(err, SMP_EPARSE, c->pub.name, item->start.line,
			      item->start.column, msg);
		rc = SMP_EPARSE;
	}
	return rc;
}

static int
read_names(struct config *c, const struct smp_node *n)
{
	static const char *const keys[] = {"batch-size", "learning-rate",
					   "model", "global-batch"};
	struct smp_config_list *lists[4];
	size_t i, k;
	int rc;

	lists[0] = &c->pub.batch_size_names;
	lists[1] = &c->pub.learning_rate_names;
	lists[2] = &c->pub.model_names;
	lists[3] = &c->pub.global_batch_names;
	for (i = 0; i < n->u.mapping.count; i++) {
		const struct smp_pair *p = &n->u.mapping.items[i];

		for (k = 0; k < 4; k++) {
			if (!smp__scalar_is(p->key, keys[k]))
				continue;
			rc = read_list(c, lists[k], p->key, p->value);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Everything the schema let through, into the public struct. */
static int
read_config(struct config *c, const struct smp_node *root,
	    struct smp_error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < root->u.mapping.count; i++) {
		const struct smp_node *k = root->u.mapping.items[i].key;
		const struct smp_node *v = root->u.mapping.items[i].value;

		if (smp__scalar_is(k, "all-jobs")) {
			c->pub.all_jobs = smp__scalar_bool(v) == 1;
			c->pub.all_jobs_pos = pos_of(k);
		} else if (smp__scalar_is(k, "force-exclude")) {
			c->pub.force_exclude = smp__scalar_bool(v) == 1;
			c->pub.force_exclude_pos = pos_of(k);
		} else if (smp__scalar_is(k, "respect-gitignore")) {
			c->pub.respect_gitignore = smp__scalar_bool(v) == 1;
			c->pub.respect_gitignore_pos = pos_of(k);
		} else if (smp__scalar_is(k, "root")) {
			c->pub.root = smp__scalar_bool(v) == 1;
			c->pub.root_pos = pos_of(k);
		} else if (smp__scalar_is(k, "fail-on")) {
			rc = read_string(c, &c->pub.fail_on, k, v);
		} else if (smp__scalar_is(k, "lr-scaling")) {
			rc = read_string(c, &c->pub.lr_scaling, k, v);
		} else if (smp__scalar_is(k, "instance-overlay")) {
			rc = read_string(c, &c->pub.instance_overlay, k, v);
		} else if (smp__scalar_is(k, "data-url")) {
			rc = read_string(c, &c->pub.data_url, k, v);
		} else if (smp__scalar_is(k, "rules")) {
			rc = read_rules(c, v, err);
		} else if (smp__scalar_is(k, "hyperparameters")) {
			rc = read_names(c, v);
		} else if (smp__scalar_is(k, "ignore")) {
			rc = read_list(c, &c->pub.ignore, k, v);
		} else if (smp__scalar_is(k, "exclude")) {
			rc = read_list(c, &c->pub.exclude, k, v);
		} else if (smp__scalar_is(k, "extend-exclude")) {
			rc = read_list(c, &c->pub.extend_exclude, k, v);
		} else if (smp__scalar_is(k, "select")) {
			rc = read_selectors(c, &c->pub.select, k, v, err);
		} else if (smp__scalar_is(k, "ignore-rules")) {
			rc = read_selectors(c, &c->pub.ignore_rules, k, v, err);
		} else if (smp__scalar_is(k, "extensions")) {
			rc = read_list(c, &c->pub.extensions, k, v);
		}
	}
	return rc;
}

/* Loads, checks against the schema and reads; c->pub.name is set. */
static int
parse(struct config *c, const char *buf, size_t len, struct smp_error *err)
{
	struct smp_schema *schema = NULL;
	const struct smp_node *root;
	struct smp_docs docs;
	int rc;

	smp__docs_init(&docs, &c->alloc);
	rc = smp__load_strict(&docs, c->pub.name, buf, len, 0, err);
	if (rc)
		goto out;
	if (docs.count > 1) {
		smp__error_at(
			err, SMP_EPARSE, c->pub.name, docs.items[1].start.line,
			docs.items[1].start.column,
			"a configuration is one document; remove the second");
		rc = SMP_EPARSE;
		goto out;
	}
	root = docs.count ? docs.items[0].root : NULL;
	if (!root)
		goto out; /* empty: every default */
	rc = smp__schema_embedded(&schema, &c->alloc, "config.schema.json",
				  err);
	if (rc)
		goto out;
	if (!schema) {
		smp__error_at(err, SMP_EINTERNAL, c->pub.name, 0, 0,
			      "the configuration schema is not built in");
		rc = SMP_EINTERNAL;
		goto out;
	}
	if (root->kind != SMP_NODE_MAPPING) {
		smp__error_at(err, SMP_EPARSE, c->pub.name, root->start.line,
			      root->start.column,
			      "a configuration must be a mapping of settings");
		rc = SMP_EPARSE;
		goto out;
	}
	rc = smp__schema_validate(schema, NULL, root, c->pub.name, err);
	if (rc)
		goto out;
	rc = read_config(c, root, err);
out:
	if (rc == SMP_ENOMEM)
		smp__error_at(err, rc, c->pub.name, 0, 0, "out of memory");
	smp__schema_free(schema);
	smp__docs_release(&docs);
	return rc;
}

int
smp_config_parse(struct smp_config **out, const char *name, const char *buf,
		 size_t len, const struct smp_allocator *alloc,
		 struct smp_error *err)
{
	struct smp_allocator a;
	struct config *c;
	int rc;

	smp__error_clear(err);
	if (!out)
		return SMP_EINVAL;
	*out = NULL;
	if (!name || (!buf && len)) {
		smp__error_at(err, SMP_EINVAL, name ? name : "", 0, 0,
			      "invalid argument");
		return SMP_EINVAL;
	}
	if (smp__allocator_resolve(&a, alloc)) {
		smp__error_at(err, SMP_EINVAL, name, 0, 0,
			      "the allocator needs all three hooks");
		return SMP_EINVAL;
	}
	c = smp__calloc(&a, 1, sizeof(*c));
	if (!c) {
		smp__error_at(err, SMP_ENOMEM, name, 0, 0, "out of memory");
		return SMP_ENOMEM;
	}
	c->alloc = a;
	smp__arena_init(&c->arena, &c->alloc);
	c->pub.name = smp__arena_strndup(&c->arena, name, strlen(name));
	c->pub.all_jobs = -1;
	c->pub.force_exclude = -1;
	c->pub.respect_gitignore = -1;
	rc = c->pub.name ? parse(c, buf ? buf : "", len, err) : SMP_ENOMEM;
	if (rc) {
		if (rc == SMP_ENOMEM && !c->pub.name)
			smp__error_at(err, rc, name, 0, 0, "out of memory");
		smp_config_free(&c->pub);
		return rc;
	}
	*out = &c->pub;
	return 0;
}

void
smp_config_free(struct smp_config *config)
{
	struct config *c = (struct config *)config;
	struct smp_allocator a;

	if (!c)
		return;
	a = c->alloc;
	smp__arena_release(&c->arena);
	smp__free(&a, c);
}
