/* settings.c - hyperparameter name lists and thresholds of a context */
#include <string.h>

#include "job/settings.h"
#include "util/text.h"

static const char *const default_batch[] = {"per_device_train_batch_size",
					    "train_batch_size", "batch_size"};
static const char *const default_lr[] = {"learning_rate", "lr"};
static const char *const default_model[] = {"model_name_or_path", "model_name",
					    "model_id", "model_type", "model"};

static int
copy_list(struct smp_name_list *out, const struct smp_names *in,
	  const char *const *def, size_t defcount,
	  const struct smp_allocator *a)
{
	const char *const *src = in && in->count ? in->names : def;
	size_t n = in && in->count ? in->count : defcount, i;

	out->names = NULL;
	out->count = 0;
	if (in && in->count && !in->names)
		return SMP_EINVAL; /* a NULL list with a count */
	if (!n)
		return 0;
	out->names = smp__calloc(a, n, sizeof(*out->names));
	if (!out->names)
		return SMP_ENOMEM;
	for (i = 0; i < n; i++) {
		if (!src[i])
			return SMP_EINVAL;
		out->names[i] = smp__strndup(a, src[i], strlen(src[i]));
		if (!out->names[i])
			return SMP_ENOMEM;
		out->count = i + 1;
	}
	return 0;
}

int
smp__settings_init(struct smp_settings *s, const struct smp_options *o,
		   const struct smp_allocator *a)
{
	int rc;

	memset(s, 0, sizeof(*s));
	rc = copy_list(&s->hp[SMP_HP_BATCH_SIZE], &o->batch_size_names,
		       default_batch, sizeof(default_batch) / sizeof(char *),
		       a);
	if (!rc)
		rc = copy_list(&s->hp[SMP_HP_LEARNING_RATE],
			       &o->learning_rate_names, default_lr,
			       sizeof(default_lr) / sizeof(char *), a);
	if (!rc)
		rc = copy_list(&s->hp[SMP_HP_MODEL], &o->model_names,
			       default_model,
			       sizeof(default_model) / sizeof(char *), a);
	if (!rc)
		rc = copy_list(&s->hp[SMP_HP_GLOBAL_BATCH],
			       &o->global_batch_names, NULL, 0, a);
	if (rc)
		return rc;
	if ((unsigned)o->lr_scaling > SMP_LR_SCALING_SQRT ||
	    o->short_run_steps < 0)
		return SMP_EINVAL;
	s->lr_scaling = o->lr_scaling;
	s->short_run_steps = o->short_run_steps ? o->short_run_steps : 100;
	return 0;
}

void
smp__settings_release(struct smp_settings *s, const struct smp_allocator *a)
{
	size_t k, i;

	for (k = 0; k < SMP_HP_KIND_COUNT; k++) {
		for (i = 0; i < s->hp[k].count; i++)
			smp__free(a, s->hp[k].names[i]);
		smp__free(a, s->hp[k].names);
		s->hp[k].names = NULL;
		s->hp[k].count = 0;
	}
}

int
smp__hparam_is(const struct smp_settings *s, const struct smp_node *key,
	       enum smp_hparam_kind kind)
{
	const struct smp_name_list *l = &s->hp[kind];
	size_t i;

	if (!key || key->kind != SMP_NODE_SCALAR)
		return 0;
	for (i = 0; i < l->count; i++)
		if (smp__name_eq(key->u.scalar.value, key->u.scalar.len,
				 l->names[i]))
			return 1;
	return 0;
}

const struct smp_pair *
smp__hparam(const struct smp_settings *s, const struct smp_node *hp,
	    enum smp_hparam_kind kind)
{
	const struct smp_name_list *l = &s->hp[kind];
	size_t i, j;

	if (!hp || hp->kind != SMP_NODE_MAPPING)
		return NULL;
	for (i = 0; i < l->count; i++) {
		size_t n = strlen(l->names[i]);

		/* equal names have equal lengths */
		for (j = hp->u.mapping.count; j-- > 0;) {
			const struct smp_node *k = hp->u.mapping.items[j].key;

			if (k->kind == SMP_NODE_SCALAR &&
			    k->u.scalar.len == n &&
			    smp__name_eq(k->u.scalar.value, n, l->names[i]))
				return &hp->u.mapping.items[j];
		}
	}
	return NULL;
}

int
smp__hparam_inert(const char *name, size_t len)
{
	/* with their lengths: a name of another length is none of them */
	static const struct smp_name names[] = {
		/* routes to the same training */
		SMP_NAME("training_script"),
		SMP_NAME("n_gpus"),
		/* data-loading speed */
		SMP_NAME("preprocessing_num_workers"),
		SMP_NAME("dataloader_num_workers"),
		SMP_NAME("dataloader_pin_memory"),
		/* evaluation, logging and checkpoints */
		SMP_NAME("per_device_eval_batch_size"),
		SMP_NAME("eval_batch_size"),
		SMP_NAME("evaluation_strategy"),
		SMP_NAME("eval_strategy"),
		SMP_NAME("logging_steps"),
		SMP_NAME("logging_strategy"),
		SMP_NAME("logging_first_step"),
		SMP_NAME("logging_dir"),
		SMP_NAME("eval_steps"),
		SMP_NAME("save_steps"),
		SMP_NAME("save_strategy"),
		SMP_NAME("save_total_limit"),
		SMP_NAME("report_to"),
		SMP_NAME("run_name"),
		SMP_NAME("disable_tqdm"),
		/* where things are written */
		SMP_NAME("output_dir"),
		SMP_NAME("output_data_dir"),
		SMP_NAME("overwrite_output_dir"),
		SMP_NAME("model_dir"),
		SMP_NAME("cache_dir"),
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].len == len &&
		    smp__name_eq(name, len, names[i].name))
			return 1;
	return 0;
}
