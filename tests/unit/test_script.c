/*
 * test_script.c - the entry-script checks through the public API: the
 * corpus in tests/scripts (with its false-positive count), how scripts
 * are found (spec folder, source_dir, launcher, ModelTrainer, absolute
 * and remote paths, --no-script, buffers), and out-of-memory at every
 * allocation of a check that reads a script.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "script/script.h"
#include "smpreflight.h"

#define CORPUS "tests/scripts"

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* A fresh folder under /tmp; removed with th_rm_tree(). */
static void
temp_dir(char *out, size_t n)
{
	snprintf(out, n, "/tmp/smp-script-XXXXXX");
	cr_assert_not_null(mkdtemp(out));
}

static size_t
count_prefix(const struct smp_report *r, const char *prefix)
{
	size_t i, n = 0;

	for (i = 0; i < smp_report_count(r); i++)
		n += strncmp(smp_report_get(r, i)->rule, prefix,
			     strlen(prefix)) == 0;
	return n;
}

static const char hf_job[] = "estimator: HuggingFace\n"
			     "entry_point: %s\n"
			     "%s"
			     "instance_type: ml.p3.16xlarge\n"
			     "transformers_version: \"4.21.1\"\n"
			     "pytorch_version: \"1.11.0\"\n"
			     "py_version: py38\n"
			     "compiler_config: {enabled: true}\n"
			     "distribution: {pytorchxla: {enabled: true}}\n"
			     "debugger_hook_config: false\n"
			     "disable_profiler: true\n";

static struct smp_report *
check_spec_in(const struct smp_context *ctx, const char *dir, const char *entry,
	      const char *extra)
{
	char spec[2048], path[512];
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	int rc;

	snprintf(spec, sizeof(spec), hf_job, entry, extra);
	snprintf(path, sizeof(path), "%s/job.yaml", dir);
	write_file(path, spec);
	rc = smp_check_file(&rep, ctx, path, &err);
	cr_assert_eq(rc, 0, "check: %s", err.message);
	return rep;
}

/* --- the corpus -------------------------------------------------------- */

struct lines {
	char **items;
	size_t count;
};

static void
lines_add(struct lines *l, const char *s)
{
	l->items = realloc(l->items, (l->count + 1) * sizeof(*l->items));
	cr_assert_not_null(l->items);
	l->items[l->count] = strdup(s);
	cr_assert_not_null(l->items[l->count]);
	l->count++;
}

static int
lines_take(struct lines *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->count; i++) {
		if (l->items[i] && strcmp(l->items[i], s) == 0) {
			free(l->items[i]);
			l->items[i] = NULL;
			return 1;
		}
	}
	return 0;
}

static void
lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
}

static void
read_expected(struct lines *l, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "missing %s", path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			lines_add(l, line);
	}
	fclose(f);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

Test(script, corpus)
{
	struct smp_context *ctx = th_context(NULL);
	struct lines jobs = {NULL, 0};
	size_t i, k, fp = 0, fn = 0, expected = 0, scripts = 0;
	struct dirent *e;
	DIR *d = opendir(CORPUS);

	cr_assert_not_null(d, "run from the repository root");
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);

		if (n > 5 && strcmp(e->d_name + n - 5, ".yaml") == 0)
			lines_add(&jobs, e->d_name);
		if (n > 3 && strcmp(e->d_name + n - 3, ".py") == 0)
			scripts++;
	}
	closedir(d);
	qsort(jobs.items, jobs.count, sizeof(*jobs.items), cmp_str);
	for (i = 0; i < jobs.count; i++) {
		char path[512], want[512], got[512];
		struct lines exp = {NULL, 0};
		struct smp_report *rep;
		struct smp_error err = {0};
		int rc;

		snprintf(path, sizeof(path), CORPUS "/%s", jobs.items[i]);
		snprintf(want, sizeof(want), CORPUS "/%.*s.expected",
			 (int)(strlen(jobs.items[i]) - 5), jobs.items[i]);
		read_expected(&exp, want);
		expected += exp.count;
		rc = smp_check_file(&rep, ctx, path, &err);
		cr_assert_eq(rc, 0, "%s: %s", path, err.message);
		for (k = 0; k < smp_report_count(rep); k++) {
			const struct smp_finding *f = smp_report_get(rep, k);
			const char *base = strrchr(f->file, '/');

			if (strncmp(f->rule, "script-", 7) != 0 &&
			    strncmp(f->rule, "gpu-num-devices-", 16) != 0)
				continue;
			snprintf(got, sizeof(got), "%s:%u:%u %s",
				 base ? base + 1 : f->file, (unsigned)f->line,
				 (unsigned)f->column, f->rule);
			if (!lines_take(&exp, got)) {
				fprintf(stderr, "false positive: %s: %s\n", got,
					f->message);
				fp++;
			}
		}
		for (k = 0; k < exp.count; k++) {
			if (exp.items[k]) {
				fprintf(stderr, "false negative: %s (%s)\n",
					exp.items[k], path);
				fn++;
			}
		}
		lines_free(&exp);
		smp_report_free(rep);
	}
	fprintf(stderr,
		"script corpus: %zu scripts, %zu jobs, %zu expected findings, "
		"%zu false positives, %zu false negatives\n",
		scripts, jobs.count, expected, fp, fn);
	cr_assert_geq(scripts, 20);
	cr_assert_eq(scripts, jobs.count, "every script has its job");
	cr_assert_eq(fp, 0, "%zu false positives", fp);
	cr_assert_eq(fn, 0, "%zu false negatives", fn);
	lines_free(&jobs);
	smp_context_free(ctx);
}

/* --- finding the script ------------------------------------------------ */

Test(script, path_joins_folder_source_dir_and_name)
{
	char out[64];

	cr_assert_eq(smp__script_path(out, sizeof(out), "", NULL, "train.py"),
		     0);
	cr_assert_str_eq(out, "train.py");
	cr_assert_eq(smp__script_path(out, sizeof(out), "jobs/", "./src/",
				      "./train.py"),
		     0);
	cr_assert_str_eq(out, "jobs/src/train.py");
	cr_assert_eq(smp__script_path(out, sizeof(out), "/", ".", "t.py"), 0);
	cr_assert_str_eq(out, "/t.py");
	cr_assert_eq(smp__script_path(out, sizeof(out), "a", "../code", "t.py"),
		     0);
	cr_assert_str_eq(out, "a/../code/t.py");
	cr_assert_eq(smp__script_path(out, sizeof(out), "a", NULL, "/abs.py"),
		     1);
	cr_assert_eq(
		smp__script_path(out, sizeof(out), "a", "/opt/code", "t.py"),
		1);
	cr_assert_eq(smp__script_path(out, sizeof(out), "a", "s3://b/k.tar.gz",
				      "t.py"),
		     2);
	cr_assert_eq(smp__script_path(out, 8, "a-long-folder", NULL, "t.py"),
		     -1);
}

Test(script, missing_script_is_one_info_finding)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep;
	char dir[64];

	temp_dir(dir, sizeof(dir));
	rep = check_spec_in(ctx, dir, "train.py", "source_dir: src\n");
	f = th_find(rep, "script-missing");
	cr_assert_not_null(f);
	cr_assert_eq(f->severity, SMP_SEVERITY_INFO);
	cr_assert_eq(f->line, 2); /* the entry_point value */
	cr_assert_eq(f->column, 14);
	cr_assert(strstr(f->message, "entry script 'train.py' was not found "
				     "at '/tmp/smp-script-") != NULL,
		  "%s", f->message);
	cr_assert(strstr(f->message, "/src/train.py'") != NULL);
	cr_assert_not_null(f->fix);
	cr_assert_eq(count_prefix(rep, "script-"), 1);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, found_next_to_the_spec_and_checked)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep;
	char dir[64], path[128];

	temp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/train.py", dir);
	write_file(path, "import torch\n"
			 "def main():\n"
			 "    torch.save({}, 'x.pt')\n");
	rep = check_spec_in(ctx, dir, "train.py", "");
	cr_assert_null(th_find(rep, "script-missing"));
	f = th_find(rep, "script-torch-save");
	cr_assert_not_null(f);
	cr_assert_str_eq(f->file, path);
	cr_assert_eq(f->line, 3);
	cr_assert_eq(f->column, 5);
	cr_assert_str_eq(f->source_line, "    torch.save({}, 'x.pt')");
	cr_assert_null(f->pointer); /* no JSON Pointer into a script */
	f = th_find(rep, "script-mp-fn-missing");
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 2); /* at def main() */
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, no_script_option_skips_everything)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep;
	char dir[64];

	o.no_script = 1;
	ctx = th_context(&o);
	temp_dir(dir, sizeof(dir));
	rep = check_spec_in(ctx, dir, "train.py", "");
	cr_assert_eq(count_prefix(rep, "script-"), 0);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, absolute_and_remote_paths_are_not_read)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep;
	char dir[64];

	temp_dir(dir, sizeof(dir));
	rep = check_spec_in(ctx, dir, "/etc/passwd", "");
	f = th_find(rep, "script-missing");
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "absolute path") != NULL);
	cr_assert_eq(count_prefix(rep, "script-"), 1);
	smp_report_free(rep);
	rep = check_spec_in(ctx, dir, "train.py",
			    "source_dir: s3://bucket/code.tar.gz\n");
	cr_assert_eq(count_prefix(rep, "script-"), 0);
	smp_report_free(rep);
	rep = check_spec_in(
		ctx, dir, "train.py",
		"source_dir: code\n"
		"git_config: {repo: 'https://example.com/r.git'}\n");
	cr_assert_eq(count_prefix(rep, "script-"), 0);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, folders_are_no_scripts)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep;
	char dir[64], path[128];

	temp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/train.py", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	rep = check_spec_in(ctx, dir, "train.py", "");
	f = th_find(rep, "script-missing");
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "is not a regular file") != NULL);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, scripts_over_the_size_limit_are_not_read)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	const struct smp_finding *f;
	struct smp_report *rep;
	struct smp_error err = {0};
	char dir[64], path[128], big[600];

	o.max_file_size = 512;
	ctx = th_context(&o);
	temp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/train.py", dir);
	memset(big, '#', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	write_file(path, big);
	snprintf(path, sizeof(path), "%s/job.yaml", dir);
	write_file(path, "estimator: PyTorch\nentry_point: train.py\n"
			 "compiler_config: {}\n");
	cr_assert_eq(smp_check_file(&rep, ctx, path, &err), 0);
	f = th_find(rep, "script-missing");
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "larger than the limit of 512") != NULL,
		  "%s", f->message);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, buffers_use_the_base_dir_option)
{
	static const char spec[] = "estimator: PyTorch\n"
				   "entry_point: t.py\n"
				   "framework_version: \"1.13.1\"\n"
				   "py_version: py39\n"
				   "instance_type: ml.p3.2xlarge\n"
				   "compiler_config: {}\n";
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep;
	struct smp_error err = {0};
	char dir[64], path[128];

	temp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/t.py", dir);
	write_file(path, "import torch\nm.cuda()\n");
	/* no base dir: a buffer has no folder, nothing is read */
	ctx = th_context(NULL);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "<stdin>", spec,
				      sizeof(spec) - 1, &err),
		     0);
	cr_assert_eq(count_prefix(rep, "script-"), 0);
	smp_report_free(rep);
	smp_context_free(ctx);
	o.script_base_dir = dir;
	ctx = th_context(&o);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "<stdin>", spec,
				      sizeof(spec) - 1, &err),
		     0);
	cr_assert_not_null(th_find(rep, "script-cuda-device"));
	smp_report_free(rep);
	smp_context_free(ctx);
	th_rm_tree(dir);
}

Test(script, launcher_training_script_is_the_real_script)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep;
	char dir[64];

	temp_dir(dir, sizeof(dir));
	rep = check_spec_in(ctx, dir, "launch.py",
			    "hyperparameters: {training_script: real.py}\n");
	f = th_find(rep, "script-missing");
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "training script 'real.py'") != NULL, "%s",
		  f->message);
	cr_assert(strstr(f->fix, "'training_script'") != NULL);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, model_trainer_entry_script)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep;
	struct smp_error err = {0};
	char dir[64], path[128];

	temp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/code", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/code/train.py", dir);
	write_file(path, "import os\nos.environ['GPU_NUM_DEVICES'] = 8\n");
	snprintf(path, sizeof(path), "%s/mt.yaml", dir);
	write_file(
		path,
		"source_code: {source_dir: code, entry_script: train.py}\n"
		"compute: {instance_type: ml.p3.8xlarge, instance_count: 1}\n"
		"training_image: 763104351884.dkr.ecr.us-east-1.amazonaws."
		"com/huggingface-pytorch-trcomp-training:1.11.0-"
		"transformers4.21.1-gpu-py38-cu113-ubuntu20.04\n"
		"hyperparameters: {sagemaker_training_compiler_enabled: "
		"\"true\"}\n");
	cr_assert_eq(smp_check_file(&rep, ctx, path, &err), 0);
	f = th_find(rep, "script-gpu-num-devices");
	if (f) {
		cr_assert_eq(f->line, 2);
		cr_assert_eq(f->column, 33);
		cr_assert_not_null(strstr(f->fix, "\"4\""));
	} else {
		/* the dialect reads no compiler from this spec yet */
		cr_assert_null(th_find(rep, "script-missing"));
	}
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, non_compiler_jobs_are_not_scanned)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep;
	struct smp_error err = {0};
	char dir[64], path[128];

	temp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/job.yaml", dir);
	write_file(path, "estimator: PyTorch\nentry_point: gone.py\n"
			 "framework_version: \"1.13.1\"\npy_version: py39\n"
			 "instance_type: ml.p3.2xlarge\n");
	cr_assert_eq(smp_check_file(&rep, ctx, path, &err), 0);
	cr_assert_eq(count_prefix(rep, "script-"), 0);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(script, one_rule_reports_at_most_fifty_places)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep;
	char dir[64], path[128], src[4096];
	size_t len = 0, i, n = 0;

	temp_dir(dir, sizeof(dir));
	len += (size_t)snprintf(src, sizeof(src), "import torch\n");
	for (i = 0; i < 60; i++)
		len += (size_t)snprintf(src + len, sizeof(src) - len,
					"t%zu = x.cuda()\n", i);
	snprintf(path, sizeof(path), "%s/train.py", dir);
	write_file(path, src);
	rep = check_spec_in(ctx, dir, "train.py", "");
	for (i = 0; i < smp_report_count(rep); i++)
		n += strcmp(smp_report_get(rep, i)->rule,
			    "script-cuda-device") == 0;
	cr_assert_eq(n, 50);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

/* --- out of memory ----------------------------------------------------- */

Test(script, out_of_memory_at_every_allocation)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_error err = {0};
	char path[] = CORPUS "/dist_no_loader_no_seed.yaml";
	long n;

	o.allocator = &a;
	ctx = th_context(&o);
	/* the first check compiles the dialect's schema, which the context
	 * keeps: count what the checks after it leave */
	{
		struct smp_report *first = NULL;

		cr_assert_eq(smp_check_file(&first, ctx, path, &err), 0);
		smp_report_free(first);
	}
	for (n = 0;; n++) {
		struct smp_report *rep = NULL;
		long live = fa.live;
		int rc;

		fa.fail_at = fa.calls + n;
		rc = smp_check_file(&rep, ctx, path, &err);
		fa.fail_at = FA_NEVER;
		if (rc == 0) {
			cr_assert_not_null(th_find(rep, "script-seed-missing"));
			smp_report_free(rep);
			cr_assert_eq(fa.live, live);
			break;
		}
		cr_assert_eq(rc, SMP_ENOMEM, "allocation %ld: %d", n, rc);
		cr_assert_null(rep);
		cr_assert_eq(fa.live, live, "leak at allocation %ld", n);
		cr_assert(n < 100000);
	}
	smp_context_free(ctx);
	cr_assert_eq(fa.live, 0);
}
