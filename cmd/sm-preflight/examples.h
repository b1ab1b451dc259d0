/*
 * examples.h - every rule's failing example and its fixed form, from
 * docs/examples/<rule>/ (embed_examples.sh writes the table at build
 * time), for `explain` and `rules --markdown`.
 */
#ifndef CLI_EXAMPLES_H
#define CLI_EXAMPLES_H

/* A field the rule's folder does not have is NULL. */
struct cli_rule_example {
	const char *rule;
	/* one paragraph shown before the examples, or instead of them */
	const char *note;
	/* what the examples are checked with: a baseline or the job */
	const char *context_title;
	const char *context_lang; /* "yaml", "json" or "python" */
	const char *context;
	const char *bad_lang;
	const char *bad; /* fires the rule */
	const char *good_lang;
	const char *good; /* the same job fixed: the rule is quiet */
};

/* Terminated by an entry whose rule is NULL. */
extern const struct cli_rule_example cli_rule_examples[];

#endif
