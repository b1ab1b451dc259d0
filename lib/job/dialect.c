/*
 * dialect.c - the three ways a job is written (README "Usage"): which
 * one a document uses, how each spells the settings that fixes name, and
 * what the ModelTrainer and CreateTrainingJob normalizers share (the image
 * URI, the string hyperparameters that switch the compiler on).
 */
#include <string.h>
#include <strings.h>
#include <stdlib.h>

#include "job/dialect.h"
#include "job/image.h"
#include "job/normalize.h"
#include "util/text.h"

/*
 * The top-level keys of each dialect, sorted for bsearch; the same sets as
 * the schemas' top-level properties (a unit test compares them), kept
 * here so that detection needs no schema. The CreateTrainingJob keys
 * include those only a DescribeTrainingJob response has (botocore's
 * DescribeTrainingJobResponse, schemas/botocore-sagemaker.json): a
 * response is the request plus them.
 */
static const char *const estimator_keys[] = {
	"base_job_name",
	"checkpoint_local_path",
	"checkpoint_s3_uri",
	"code_location",
	"compiler_config",
	"container_arguments",
	"container_entry_point",
	"container_log_level",
	"debugger_hook_config",
	"dependencies",
	"disable_output_compression",
	"disable_profiler",
	"distribution",
	"distributions",
	"enable_infra_check",
	"enable_network_isolation",
	"enable_remote_debug",
	"enable_sagemaker_metrics",
	"enable_session_tag_chaining",
	"encrypt_inter_container_traffic",
	"entry_point",
	"environment",
	"estimator",
	"framework_version",
	"git_config",
	"hyperparameters",
	"image_name",
	"image_uri",
	"input_mode",
	"instance_count",
	"instance_groups",
	"instance_placement_config",
	"instance_type",
	"keep_alive_period_in_seconds",
	"max_retry_attempts",
	"max_run",
	"max_wait",
	"metric_definitions",
	"model_channel_name",
	"model_dir",
	"model_uri",
	"output_kms_key",
	"output_path",
	"profiler_config",
	"py_version",
	"pytorch_version",
	"recipe_overrides",
	"role",
	"rules",
	"sagemaker_session",
	"security_group_ids",
	"source_dir",
	"subnets",
	"tags",
	"tensorboard_output_config",
	"tensorflow_version",
	"train_instance_count",
	"train_instance_type",
	"train_max_run",
	"train_max_wait",
	"train_use_spot_instances",
	"train_volume_kms_key",
	"train_volume_size",
	"training_plan",
	"training_recipe",
	"training_repository_access_mode",
	"training_repository_credentials_provider_arn",
	"transformers_version",
	"use_spot_instances",
	"volume_kms_key",
	"volume_size",
};

static const char *const model_trainer_keys[] = {
	"algorithm_name",       "base_job_name",
	"checkpoint_config",    "compute",
	"config_mgr",           "distributed",
	"environment",          "hyperparameters",
	"input_data_config",    "local_container_root",
	"model_package_config", "networking",
	"output_data_config",   "role",
	"sagemaker_session",    "source_code",
	"stopping_condition",   "tags",
	"training_image",       "training_image_config",
	"training_input_mode",  "training_mode",
};

static const char *const api_keys[] = {
	"AlgorithmSpecification",
	"AutoMLJobArn",
	"BillableTimeInSeconds",
	"CheckpointConfig",
	"CreationTime",
	"DebugHookConfig",
	"DebugRuleConfigurations",
	"DebugRuleEvaluationStatuses",
	"EnableInterContainerTrafficEncryption",
	"EnableManagedSpotTraining",
	"EnableNetworkIsolation",
	"Environment",
	"ExperimentConfig",
	"FailureReason",
	"FinalMetricDataList",
	"HyperParameters",
	"InfraCheckConfig",
	"InputDataConfig",
	"LabelingJobArn",
	"LastModifiedTime",
	"MlflowConfig",
	"ModelArtifacts",
	"ModelPackageConfig",
	"OutputDataConfig",
	"ProfilerConfig",
	"ProfilerRuleConfigurations",
	"ProfilerRuleEvaluationStatuses",
	"ProfilingStatus",
	"RemoteDebugConfig",
	"ResourceConfig",
	"ResponseMetadata",
	"RetryStrategy",
	"RoleArn",
	"SecondaryStatus",
	"SecondaryStatusTransitions",
	"ServerlessJobConfig",
	"SessionChainingConfig",
	"StoppingCondition",
	"Tags",
	"TensorBoardOutputConfig",
	"TrainingEndTime",
	"TrainingJobArn",
	"TrainingJobName",
	"TrainingJobStatus",
	"TrainingStartTime",
	"TrainingTimeInSeconds",
	"TuningJobArn",
	"VpcConfig",
	"WarmPoolStatus",
};

/*
 * The members only a DescribeTrainingJob response has (botocore's
 * DescribeTrainingJobResponse less CreateTrainingJobRequest; sorted): any
 * one of them makes a CreateTrainingJob document a response, as the
 * schema's "if" says (a unit test compares the two).
 */
static const char *const response_keys[] = {
	"AutoMLJobArn",
	"BillableTimeInSeconds",
	"CreationTime",
	"DebugRuleEvaluationStatuses",
	"FailureReason",
	"FinalMetricDataList",
	"LabelingJobArn",
	"LastModifiedTime",
	"ModelArtifacts",
	"ProfilerRuleEvaluationStatuses",
	"ProfilingStatus",
	"SecondaryStatus",
	"SecondaryStatusTransitions",
	"TrainingEndTime",
	"TrainingJobArn",
	"TrainingJobStatus",
	"TrainingStartTime",
	"TrainingTimeInSeconds",
	"TuningJobArn",
	"WarmPoolStatus",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	enum smp_dialect dialect;
	const char *const *keys;
	size_t count;
} dialect_keys[] = {
	{SMP_DIALECT_ESTIMATOR, estimator_keys, COUNT(estimator_keys)},
	{SMP_DIALECT_MODEL_TRAINER, model_trainer_keys,
	 COUNT(model_trainer_keys)},
	{SMP_DIALECT_CREATE_TRAINING_JOB, api_keys, COUNT(api_keys)},
};

static int
cmp_key(const void *key, const void *elem)
{
	const char *a = key, *b = *(const char *const *)elem;

	/* most probes differ at the first byte: no call for those */
	if (a[0] != b[0])
		return (unsigned char)a[0] < (unsigned char)b[0] ? -1 : 1;
	return strcmp(a, b);
}

static int
has_key(size_t d, const char *key)
{
	return bsearch(key, dialect_keys[d].keys, dialect_keys[d].count,
		       sizeof(char *), cmp_key) != NULL;
}

/* The dialect with the highest score; the earlier one on a tie. */
static enum smp_dialect
best(const unsigned *score)
{
	size_t d, top = 0;

	for (d = 1; d < COUNT(dialect_keys); d++)
		if (score[d] > score[top])
			top = d;
	return score[top] ? dialect_keys[top].dialect : SMP_DIALECT_AUTO;
}

/*
 * Keys only one dialect has decide (the snake_case dialects share a few,
 * such as hyperparameters; CreateTrainingJob keys are PascalCase). A
 * document with shared keys only is an estimator, the first dialect. With
 * no known key at all, misspelled ones (did-you-mean distance) decide,
 * so that a typo is reported as an unknown key of the right dialect.
 */
enum smp_dialect
smp__detect_dialect(const struct smp_node *root)
{
	unsigned exact[COUNT(dialect_keys)] = {0};
	unsigned near[COUNT(dialect_keys)] = {0};
	int known = 0;
	size_t i, d;

	if (!root || root->kind != SMP_NODE_MAPPING)
		return SMP_DIALECT_AUTO;
	for (i = 0; i < root->u.mapping.count; i++) {
		const struct smp_node *k = root->u.mapping.items[i].key;
		size_t hits = 0, last = 0;

		if (k->kind != SMP_NODE_SCALAR ||
		    strlen(k->u.scalar.value) != k->u.scalar.len)
			continue;
		for (d = 0; d < COUNT(dialect_keys); d++) {
			if (has_key(d, k->u.scalar.value)) {
				hits++;
				last = d;
			}
		}
		known |= hits > 0;
		if (hits == 1)
			exact[last]++;
	}
	if (best(exact) != SMP_DIALECT_AUTO)
		return best(exact);
	if (known)
		return SMP_DIALECT_ESTIMATOR;
	/* no known key at all: every key is a misspelling, or none is */
	for (i = 0; i < root->u.mapping.count; i++) {
		const struct smp_node *k = root->u.mapping.items[i].key;

		if (k->kind != SMP_NODE_SCALAR ||
		    strlen(k->u.scalar.value) != k->u.scalar.len)
			continue;
		for (d = 0; d < COUNT(dialect_keys); d++)
			if (smp__did_you_mean(k->u.scalar.value,
					      dialect_keys[d].keys,
					      dialect_keys[d].count))
				near[d]++;
	}
	return best(near);
}

int
smp__is_describe_response(const struct smp_node *root)
{
	size_t i;

	if (!root || root->kind != SMP_NODE_MAPPING)
		return 0;
	for (i = 0; i < root->u.mapping.count; i++) {
		const struct smp_node *k = root->u.mapping.items[i].key;

		if (k->kind == SMP_NODE_SCALAR &&
		    strlen(k->u.scalar.value) == k->u.scalar.len &&
		    bsearch(k->u.scalar.value, response_keys,
			    COUNT(response_keys), sizeof(char *), cmp_key))
			return 1;
	}
	return 0;
}

const char *const *
smp__response_keys(size_t *count)
{
	*count = COUNT(response_keys);
	return response_keys;
}

const char *const *
smp__dialect_keys(enum smp_dialect dialect, size_t *count)
{
	size_t d;

	for (d = 0; d < COUNT(dialect_keys); d++) {
		if (dialect_keys[d].dialect == dialect) {
			*count = dialect_keys[d].count;
			return dialect_keys[d].keys;
		}
	}
	*count = 0;
	return NULL;
}

/* fixes in the estimator's words are the reference; see check.h */
/* The words of the two dialects that set the compiler's switches as
 * hyperparameters (ModelTrainer, CreateTrainingJob). */
static const char hp_xla_on[] =
	"set hyperparameter 'sagemaker_pytorch_xla_multi_worker_enabled' to "
	"\"true\"";
static const char hp_xla_off[] =
	"remove hyperparameter 'sagemaker_pytorch_xla_multi_worker_enabled'";
static const char hp_debug_off[] =
	"set hyperparameter 'sagemaker_training_compiler_debug_mode' to "
	"\"false\" (or remove it)";

static const struct smp_words words[] = {
	[SMP_DIALECT_ESTIMATOR] =
		{
			.enable_compiler = "add 'compiler_config: {enabled: "
					   "true}' to compile the model",
			.no_compiler = "the spec has no 'compiler_config'",
			.pytorchxla_without_compiler =
				"add 'compiler_config: {enabled: true}', or "
				"remove 'pytorchxla'",
			.pytorchxla_on = "set 'distribution: {pytorchxla: "
					 "{enabled: true}}'",
			.pytorchxla_off = "remove 'pytorchxla'",
			.debug_off = "set 'debug: false' (or remove it)",
			.hook_set = "'debugger_hook_config' is not false",
			.hook_off = "set 'debugger_hook_config: false'",
			.profiler_set = "'disable_profiler' is not true",
			.profiler_off = "set 'disable_profiler: true'",
			.environment = "environment",
			.instance_type = "instance_type",
			.instance_count = "instance_count",
			.instance_groups = "instance_groups",
			.py_fix_prefix = "set 'py_version: ",
			.py_fix_suffix = "'",
		},
	[SMP_DIALECT_MODEL_TRAINER] =
		{
			.enable_compiler = "ModelTrainer cannot enable the "
					   "compiler; write "
					   "the job as an estimator with "
					   "'compiler_config' "
					   "or as a CreateTrainingJob request",
			.no_compiler = "the spec does not enable it",
			.pytorchxla_without_compiler =
				"remove hyperparameter "
				"'sagemaker_pytorch_xla_multi_worker_enabled'",
			.pytorchxla_on = hp_xla_on,
			.pytorchxla_off = hp_xla_off,
			.debug_off = hp_debug_off,
			/* ModelTrainer has no Debugger or Profiler settings */
			.hook_set = "a Debugger hook is configured",
			.hook_off = "remove the Debugger hook",
			.profiler_set = "the Profiler is configured",
			.profiler_off = "turn the Profiler off",
			.environment = "environment",
			.instance_type = "instance_type",
			.instance_count = "instance_count",
			.instance_groups = "instance_groups",
			.py_fix_prefix = "use an image whose tag has '",
			.py_fix_suffix = "'",
		},
	[SMP_DIALECT_CREATE_TRAINING_JOB] =
		{
			.enable_compiler =
				"use a Training Compiler image as "
				"'TrainingImage' and set hyperparameter "
				"'sagemaker_training_compiler_enabled' to "
				"\"true\" to compile the model",
			.no_compiler = "the request does not enable it",
			.pytorchxla_without_compiler =
				"use a Training Compiler 'TrainingImage' with "
				"'sagemaker_training_compiler_enabled: "
				"\"true\"', or remove "
				"'sagemaker_pytorch_xla_multi_worker_enabled'",
			.pytorchxla_on = hp_xla_on,
			.pytorchxla_off = hp_xla_off,
			.debug_off = hp_debug_off,
			.hook_set = "'DebugHookConfig' is set",
			.hook_off = "remove 'DebugHookConfig'",
			.profiler_set = "'ProfilerConfig' does not set "
					"'DisableProfiler: true'",
			.profiler_off = "set 'DisableProfiler: true' in "
					"'ProfilerConfig'",
			.environment = "Environment",
			.instance_type = "InstanceType",
			.instance_count = "InstanceCount",
			.instance_groups = "InstanceGroups",
			.py_fix_prefix = "use an image whose tag has '",
			.py_fix_suffix = "'",
		},
};

const struct smp_words *
smp__words(const struct smp_job *job)
{
	if ((unsigned)job->dialect > SMP_DIALECT_CREATE_TRAINING_JOB ||
	    job->dialect == SMP_DIALECT_AUTO)
		return &words[SMP_DIALECT_ESTIMATOR];
	return &words[job->dialect];
}

/* Depth-first search for the pair holding node; bounded like report.c. */
static const struct smp_node *
key_of(const struct smp_node *cur, const struct smp_node *node, unsigned depth)
{
	size_t i;

	if (!cur || depth > 128)
		return NULL;
	if (cur->kind == SMP_NODE_MAPPING) {
		for (i = 0; i < cur->u.mapping.count; i++) {
			const struct smp_pair *p = &cur->u.mapping.items[i];
			const struct smp_node *k;

			if (smp__node_same(p->value, node))
				return p->key;
			k = key_of(p->value, node, depth + 1);
			if (k)
				return k;
		}
	} else if (cur->kind == SMP_NODE_SEQUENCE) {
		for (i = 0; i < cur->u.sequence.count; i++) {
			const struct smp_node *k = key_of(
				cur->u.sequence.items[i], node, depth + 1);

			if (k)
				return k;
		}
	}
	return NULL;
}

const struct smp_node *
smp__job_key_of(const struct smp_job *job, const struct smp_node *node)
{
	const struct smp_node *k = node ? key_of(job->root, node, 0) : NULL;

	return k ? k : node;
}

static struct smp_node *
new_string(struct smp_job *job, const char *text, size_t len)
{
	struct smp_node *n = NULL;
	char *copy = NULL;

	if (job->arena) {
		n = smp__arena_zalloc(job->arena, sizeof(*n));
		copy = n ? smp__arena_strndup(job->arena, text, len) : NULL;
	}
	if (!copy) {
		job->oom = 1;
		return NULL;
	}
	n->kind = SMP_NODE_SCALAR;
	n->u.scalar.value = copy;
	n->u.scalar.len = len;
	/* quoted, so that "1.11" stays a string to smp__scalar_type */
	n->u.scalar.style = SMP_STYLE_DOUBLE_QUOTED;
	return n;
}

/* The range of at (report.c underlines it when it is one line). */
static void
place(struct smp_node *n, const struct smp_node *at)
{
	n->start = at->start;
	n->end = at->end;
}

const struct smp_node *
smp__job_part(struct smp_job *job, const struct smp_node *from, size_t off,
	      size_t len)
{
	const struct smp_node *f = from;
	struct smp_node *n;
	size_t lead, i;

	if (!f || f->kind != SMP_NODE_SCALAR || off > f->u.scalar.len ||
	    len > f->u.scalar.len - off)
		return NULL;
	n = new_string(job, f->u.scalar.value + off, len);
	if (!n)
		return NULL;
	place(n, f);
	switch (f->u.scalar.style) {
	case SMP_STYLE_PLAIN:
		lead = 0;
		break;
	case SMP_STYLE_SINGLE_QUOTED:
	case SMP_STYLE_DOUBLE_QUOTED:
		lead = 1;
		break;
	default:
		return n;
	}
	/* written as is: the source holds exactly the value (no escapes,
	 * no folding), and columns count characters, so ASCII only */
	if (f->start.line != f->end.line ||
	    f->end.offset - f->start.offset != f->u.scalar.len + 2 * lead)
		return n;
	for (i = 0; i < off + len; i++)
		if ((unsigned char)f->u.scalar.value[i] >= 0x80)
			return n;
	n->start.column += (uint32_t)(lead + off);
	n->start.offset += lead + off;
	n->end = n->start;
	n->end.column += (uint32_t)len;
	n->end.offset += len;
	return n;
}

const struct smp_node *
smp__job_default(struct smp_job *job, const struct smp_node *at,
		 const char *text)
{
	struct smp_node *n;

	if (!at)
		return NULL;
	n = new_string(job, text, strlen(text));
	if (n)
		place(n, at);
	return n;
}

void
smp__job_take_image(struct smp_job *job, const struct smp_node *image,
		    int overwrite)
{
	struct smp_image_uri im;
	const struct smp_span *v;

	if (!image || image->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(image) != SMP_SCALAR_STRING)
		return;
	/* the image names the class: findings about what is missing go
	 * there, as they go to 'estimator:' in an estimator spec */
	if (overwrite || !job->estimator_node)
		job->estimator_node = image;
	if (smp__image_parse(&im, image->u.scalar.value, image->u.scalar.len) ||
	    im.estimator == SMP_EST_UNKNOWN)
		return;
	if (!overwrite && job->estimator != SMP_EST_UNKNOWN &&
	    job->estimator != im.estimator)
		return; /* another framework's image: its tag says nothing */
	if (overwrite || job->estimator == SMP_EST_UNKNOWN) {
		job->estimator = im.estimator;
		job->base_framework = im.base_framework;
	}
	if (!job->base_framework)
		job->base_framework = im.base_framework;
	v = &im.framework_version;
	if (v->len && (overwrite || !job->framework_version) &&
	    job->base_framework && im.base_framework &&
	    strcmp(job->base_framework, im.base_framework) == 0)
		job->framework_version =
			smp__job_part(job, image, v->off, v->len);
	v = &im.transformers_version;
	if (v->len && im.estimator == SMP_EST_HUGGINGFACE &&
	    (overwrite || !job->transformers_version))
		job->transformers_version =
			smp__job_part(job, image, v->off, v->len);
	v = &im.py_version;
	if (v->len && (overwrite || !job->py_version))
		job->py_version = smp__job_part(job, image, v->off, v->len);
}

int
smp__hp_flag(const struct smp_node *n)
{
	int b = smp__scalar_bool(n);

	if (b >= 0 || !n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) != SMP_SCALAR_STRING)
		return b;
	if (n->u.scalar.len == 4 &&
	    strncasecmp(n->u.scalar.value, "true", 4) == 0)
		return 1;
	if (n->u.scalar.len == 5 &&
	    strncasecmp(n->u.scalar.value, "false", 5) == 0)
		return 0;
	return -1;
}

/*
 * The keys that show a mapping is a training job when a walk meets it
 * (sorted): those only an estimator, a ModelTrainer or a CreateTraining
 * Job request (or DescribeTrainingJob response) has, not the generic
 * ones a conda environment, a Kubernetes manifest or a package.json
 * shares with them (dependencies, environment, tags, role, rules ...).
 */
static const char key_entry_point[] = "entry_point";
static const char key_instance_type[] = "instance_type";

static const char *const evidence_keys[] = {
	"AlgorithmSpecification",
	"ResourceConfig",
	"StoppingCondition",
	"TrainingJobArn",
	"TrainingJobName",
	"TrainingJobStatus",
	"algorithm_name",
	"compiler_config",
	key_entry_point,
	"estimator",
	"framework_version",
	"image_name",
	"image_uri",
	"instance_count",
	"instance_groups",
	key_instance_type,
	"py_version",
	"pytorch_version",
	"source_code",
	"source_dir",
	"tensorflow_version",
	"train_instance_count",
	"train_instance_type",
	"training_image",
	"training_image_config",
	"training_recipe",
	"transformers_version",
};

int
smp__job_evidence(const struct smp_node *root)
{
	size_t i;

	if (!root || root->kind != SMP_NODE_MAPPING)
		return 0;
	for (i = 0; i < root->u.mapping.count; i++) {
		const struct smp_node *k = root->u.mapping.items[i].key;
		const struct smp_node *v = root->u.mapping.items[i].value;

		if (k->kind != SMP_NODE_SCALAR ||
		    strlen(k->u.scalar.value) != k->u.scalar.len)
			continue;
		if (bsearch(k->u.scalar.value, evidence_keys,
			    COUNT(evidence_keys), sizeof(char *), cmp_key))
			return 1;
		/* ModelTrainer's Compute(instance_type=...): a bare
		 * 'compute' key is too common in other files */
		if (strcmp(k->u.scalar.value, "compute") == 0 &&
		    smp__map_get(v, "instance_type"))
			return 1;
	}
	return 0;
}

/* The keys nearly every estimator or ModelTrainer spec has, looked for
 * first: one hit answers, and a scan costs the buffer's length. */
static const char *const likely_keys[] = {key_instance_type, key_entry_point};

int
smp__text_may_hold_job(const char *buf, size_t len)
{
	size_t i, j;

	for (i = 0; i < COUNT(likely_keys); i++)
		if (smp__mem_contains(buf, len, likely_keys[i]))
			return 1;
	for (i = 0; i < COUNT(evidence_keys); i++) {
		for (j = 0; j < COUNT(likely_keys); j++)
			if (evidence_keys[i] == likely_keys[j])
				break;
		if (j == COUNT(likely_keys) &&
		    smp__mem_contains(buf, len, evidence_keys[i]))
			return 1;
	}
	return 0;
}
