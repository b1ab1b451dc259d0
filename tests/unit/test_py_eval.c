/*
 * test_py_eval.c - the constant evaluator of launchers and notebooks:
 * what resolves (literals, names, computed values, mutated dicts,
 * f-strings, aliases, **kwargs), what stays unknown (calls, os.environ,
 * branches, parameters), syntax errors, hostile input, and allocation
 * failures through the whole check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "job/notebook.h"
#include "report/report.h"
#include "job/py_eval.h"
#include "job/source_python.h"
#include "smpreflight.h"
#include "util/alloc.h"

static struct smp_allocator alloc;
static struct smp_arena arena;
static struct smp_pysrc src;

static void
setup(void)
{
	smp__allocator_resolve(&alloc, NULL);
	smp__arena_init(&arena, &alloc);
}

static void
teardown(void)
{
	smp__arena_release(&arena);
}

TestSuite(py_eval, .init = setup, .fini = teardown);

static void
scan(const char *code)
{
	struct smp_hashkey key = {1, 2};

	cr_assert_eq(
		smp__pysrc_scan(&src, &arena, &alloc, &key, code, strlen(code)),
		0);
}

/* The value node at a path of keys ("hyperparameters", "lr", NULL). */
static const struct smp_node *
at(size_t job, const char *k1, const char *k2)
{
	const struct smp_node *n;

	cr_assert_lt(job, src.count);
	n = smp__map_get(src.jobs[job].root, k1);
	return k2 ? smp__map_get(n, k2) : n;
}

static const char *
text(size_t job, const char *k1, const char *k2)
{
	const struct smp_node *n = at(job, k1, k2);

	cr_assert_not_null(n, "no %s/%s", k1, k2 ? k2 : "");
	cr_assert_eq(n->kind, SMP_NODE_SCALAR);
	cr_assert(!smp__node_unknown(n), "%s is unknown", k1);
	return n->u.scalar.value;
}

static int
unknown(size_t job, const char *k1, const char *k2)
{
	return smp__node_unknown(at(job, k1, k2));
}

Test(py_eval, literals_and_names_resolve)
{
	scan("from sagemaker.huggingface import HuggingFace\n"
	     "INSTANCE_TYPE = 'ml.p3.2xlarge'\n"
	     "est = HuggingFace(entry_point='train.py',\n"
	     "    instance_type=INSTANCE_TYPE, instance_count=2,\n"
	     "    debugger_hook_config=False, image_uri=None)\n");
	cr_assert_eq(src.count, 1);
	cr_assert_str_eq(src.jobs[0].name, "est");
	cr_assert_eq(src.jobs[0].dialect, SMP_DIALECT_ESTIMATOR);
	cr_assert_str_eq(text(0, "estimator", NULL), "HuggingFace");
	cr_assert_str_eq(text(0, "instance_type", NULL), "ml.p3.2xlarge");
	/* the value is where it was written: line 2 */
	cr_assert_eq(at(0, "instance_type", NULL)->start.line, 2);
	cr_assert_str_eq(text(0, "instance_count", NULL), "2");
	cr_assert_str_eq(text(0, "debugger_hook_config", NULL), "false");
	cr_assert_str_eq(text(0, "image_uri", NULL), "null");
	cr_assert_str_eq(src.jobs[0].entry, "train.py");
	cr_assert_eq(src.jobs[0].compiled, 0);
}

Test(py_eval, computed_learning_rate_and_mutated_dict)
{
	scan("import sagemaker\n"
	     "hp = {'train_batch_size': 24, 'learning_rate': 5e-5}\n"
	     "a = sagemaker.huggingface.HuggingFace(hyperparameters=hp)\n"
	     "hp['train_batch_size'] = 48\n"
	     "hp['learning_rate'] = float('5e-5') / 32 * "
	     "hp['train_batch_size']\n"
	     "hp.update({'epochs': 3}, seed=7)\n"
	     "hp['train_batch_size'] //= 2\n"
	     "b = sagemaker.huggingface.HuggingFace(hyperparameters=hp)\n");
	cr_assert_eq(src.count, 2);
	/* each job keeps the values at the time of its call */
	cr_assert_str_eq(text(0, "hyperparameters", "train_batch_size"), "24");
	cr_assert_str_eq(text(0, "hyperparameters", "learning_rate"), "5e-5");
	cr_assert_null(at(0, "hyperparameters", "epochs"));
	cr_assert_str_eq(text(1, "hyperparameters", "train_batch_size"), "24");
	cr_assert_str_eq(text(1, "hyperparameters", "learning_rate"),
			 "7.500000000000001e-05");
	cr_assert_str_eq(text(1, "hyperparameters", "epochs"), "3");
	cr_assert_str_eq(text(1, "hyperparameters", "seed"), "7");
}

/* Every binary level binds as in Python's grammar, left to right, and
 * each value spans its own operands. */
Test(py_eval, operators_bind_as_pythons_grammar)
{
	scan("import sagemaker\n"
	     "hp = {'a': 1 + 2 * 3 - 8 // 3 % 5, 'b': 1 | 6 ^ 3 & 5,\n"
	     "      'c': 2 ** 3 ** 2, 'd': -2 ** 2, 'e': 7 - 3 - 2,\n"
	     "      'f': 1 < 2 <= 2 != 3, 'g': not 1 in [1] or 0 and 1,\n"
	     "      'h': 'x' if 2 > 3 else 'y', 'i': 2 * 3 >> 1 + 0,\n"
	     "      'j': 'ab' * 2 + 'c', 'k': ~5 | 8 - 1}\n"
	     "e = sagemaker.huggingface.HuggingFace(hyperparameters=hp)\n");
	cr_assert_eq(src.count, 1);
	cr_expect_str_eq(text(0, "hyperparameters", "a"), "5");
	cr_expect_str_eq(text(0, "hyperparameters", "b"), "7");
	cr_expect_str_eq(text(0, "hyperparameters", "c"), "512");
	cr_expect_str_eq(text(0, "hyperparameters", "d"), "-4");
	cr_expect_str_eq(text(0, "hyperparameters", "e"), "2");
	cr_expect_str_eq(text(0, "hyperparameters", "f"), "true");
	cr_expect_str_eq(text(0, "hyperparameters", "g"), "0");
	cr_expect_str_eq(text(0, "hyperparameters", "h"), "y");
	/* shifts are not computed: unknown, not a wrong number */
	cr_expect(unknown(0, "hyperparameters", "i"));
	cr_expect_str_eq(text(0, "hyperparameters", "j"), "ababc");
	cr_expect_str_eq(text(0, "hyperparameters", "k"), "-1");
	/* the sum's value spans '1 + 2 * 3 - 8 // 3 % 5' */
	cr_expect_eq(at(0, "hyperparameters", "a")->start.column, 12);
	cr_expect_eq(at(0, "hyperparameters", "a")->end.column, 34);
}

/* Names resolve to their newest binding, and a function's own go when
 * its body ends: with few names (searched in order) and with many (the
 * environment's hash index, made past 16). */
Test(py_eval, names_shadow_and_scopes_with_few_and_many)
{
	char code[2048];
	size_t n, k, used;

	for (n = 5; n <= 40; n += 35) {
		used = (size_t)snprintf(code, sizeof(code),
					"import sagemaker\n");
		for (k = 0; k < n; k++)
			used += (size_t)snprintf(code + used,
						 sizeof(code) - used,
						 "a%zu = 'x%zu'\n", k, k);
		snprintf(code + used, sizeof(code) - used,
			 "a3 = 'y3'\n"
			 "def f(a2):\n"
			 "    a1 = 'inner'\n"
			 "    return a1\n"
			 "e = "
			 "sagemaker.huggingface.HuggingFace(entry_point=a3,\n"
			 "    source_dir=a1, role=a2, base_job_name=a%zu)\n",
			 n - 1);
		smp__arena_release(&arena);
		smp__arena_init(&arena, &alloc);
		scan(code);
		cr_assert_eq(src.count, 1);
		cr_expect_str_eq(text(0, "entry_point", NULL), "y3");
		cr_expect_str_eq(text(0, "source_dir", NULL), "x1");
		cr_expect_str_eq(text(0, "role", NULL), "x2");
		cr_expect_str_eq(text(0, "base_job_name", NULL),
				 n == 5 ? "x4" : "x39");
	}
}

Test(py_eval, strings_fstrings_and_builtins)
{
	scan("from sagemaker.pytorch import PyTorch as PT\n"
	     "N = 4\nMODEL = 'bert-base-uncased'\n"
	     "env = {'GPU_NUM_DEVICES': str(N)}\n"
	     "PT(base_job_name=f\"{MODEL}-{N}gpu\",\n"
	     "   output_path=f'{MODEL.upper()}-{N * 2}-{{x}}',\n"
	     "   code_location=f'{MODEL!r}', checkpoint_s3_uri=f'{N:03d}',\n"
	     "   source_dir='src' + '/' + 'tr\\x61in',\n"
	     "   environment=env,\n"
	     "   instance_count=int('2') + round(0.6) + len([1, 2]),\n"
	     "   max_run=2 ** 10 % 1000, volume_size=-(-7 // 2),\n"
	     "   hyperparameters=dict(lr=round(1 / 3, 3), on=1 < 2 <= 2,\n"
	     "                        off=not 'x', mode='a' if N > 2 else "
	     "'b',\n"
	     "                        f=float(3), s=str(0.1 + 0.2)),\n"
	     "   tags=[('k', 'v')])\n");
	cr_assert_eq(src.count, 1);
	cr_assert_null(src.jobs[0].name); /* named by the check: no variable */
	cr_assert_str_eq(text(0, "estimator", NULL), "PyTorch");
	cr_assert_str_eq(text(0, "base_job_name", NULL),
			 "bert-base-uncased-4gpu");
	cr_assert_str_eq(text(0, "output_path", NULL),
			 "BERT-BASE-UNCASED-8-{x}");
	cr_assert(unknown(0, "code_location", NULL));     /* !r */
	cr_assert(unknown(0, "checkpoint_s3_uri", NULL)); /* a format spec */
	cr_assert_str_eq(text(0, "source_dir", NULL), "src/train");
	cr_assert_str_eq(text(0, "environment", "GPU_NUM_DEVICES"), "4");
	cr_assert_eq(at(0, "environment", "GPU_NUM_DEVICES")->u.scalar.style,
		     SMP_STYLE_DOUBLE_QUOTED);
	cr_assert_str_eq(text(0, "instance_count", NULL), "5");
	cr_assert_str_eq(text(0, "max_run", NULL), "24");
	cr_assert_str_eq(text(0, "volume_size", NULL), "4");
	cr_assert_str_eq(text(0, "hyperparameters", "lr"), "0.333");
	cr_assert_str_eq(text(0, "hyperparameters", "on"), "true");
	cr_assert_str_eq(text(0, "hyperparameters", "off"), "false");
	cr_assert_str_eq(text(0, "hyperparameters", "mode"), "a");
	cr_assert_str_eq(text(0, "hyperparameters", "f"), "3.0");
	cr_assert_str_eq(text(0, "hyperparameters", "s"),
			 "0.30000000000000004");
	cr_assert_eq(at(0, "tags", NULL)->kind, SMP_NODE_SEQUENCE);
}

Test(py_eval, what_is_not_known_stays_unknown)
{
	scan("import os, sys\n"
	     "import sagemaker\n"
	     "from sagemaker.huggingface import HuggingFace\n"
	     "from mylib import INSTANCE\n"
	     "role = sagemaker.get_execution_role()\n"
	     "hp = {'epochs': 3}\n"
	     "if len(sys.argv) > 1:\n"
	     "    version = '4.11.0'\n"
	     "    hp['epochs'] = 5\n"
	     "else:\n"
	     "    version = '4.21.1'\n"
	     "for i in range(3):\n"
	     "    count = i\n"
	     "def make(instance_type):\n"
	     "    return HuggingFace(instance_type=instance_type)\n"
	     "est = HuggingFace(role=role, instance_type=INSTANCE,\n"
	     "    transformers_version=version, instance_count=count,\n"
	     "    output_path=os.environ['OUT'], hyperparameters=hp,\n"
	     "    volume_size=undefined_name, max_run=1 / 0)\n");
	cr_assert_eq(src.count, 2); /* the one in make() too */
	cr_assert(unknown(0, "instance_type", NULL)); /* a parameter */
	cr_assert(unknown(1, "role", NULL));
	cr_assert(unknown(1, "instance_type", NULL)); /* from an import */
	cr_assert(unknown(1, "transformers_version", NULL));
	cr_assert(unknown(1, "instance_count", NULL));
	cr_assert(unknown(1, "output_path", NULL));
	cr_assert(unknown(1, "volume_size", NULL));
	cr_assert(unknown(1, "max_run", NULL));
	cr_assert(unknown(1, "hyperparameters", "epochs"));
	/* an unknown keeps the expression's text, for messages */
	cr_assert_str_eq(at(1, "output_path", NULL)->u.scalar.value,
			 "os.environ['OUT']");
}

Test(py_eval, main_guard_with_and_try_are_straight_line)
{
	scan("from sagemaker.tensorflow import TensorFlow\n"
	     "try:\n"
	     "    TYPE = 'ml.g5.48xlarge'\n"
	     "except ImportError:\n"
	     "    pass\n"
	     "if __name__ == '__main__':\n"
	     "    with open('x') as f:\n"
	     "        est = TensorFlow(instance_type=TYPE,\n"
	     "                         distribution={'pytorchxla': "
	     "{'enabled': True}}); est.fit()\n");
	cr_assert_eq(src.count, 1);
	cr_assert_str_eq(src.jobs[0].name, "est");
	cr_assert_str_eq(text(0, "instance_type", NULL), "ml.g5.48xlarge");
	cr_assert_str_eq(text(0, "estimator", NULL), "TensorFlow");
}

Test(py_eval, imports_and_aliases)
{
	scan("import sagemaker.huggingface as hf\n"
	     "from sagemaker.pytorch import (PyTorch as PT,\n"
	     "    TrainingCompilerConfig)\n"
	     "from sagemaker.modules.train import ModelTrainer\n"
	     "from sagemaker.modules.configs import Compute, SourceCode\n"
	     "from transformers import Trainer as HuggingFace\n"
	     "HuggingFace(args=1)\n" /* not SageMaker's */
	     "a = hf.HuggingFace(compiler_config=hf.TrainingCompilerConfig("
	     "debug=True))\n"
	     "b = PT('train.py', '1.13.1', 'py39', "
	     "compiler_config=TrainingCompilerConfig(False))\n"
	     "c = ModelTrainer(compute=Compute(instance_type='ml.p3.2xlarge'),"
	     "\n    source_code=SourceCode(entry_script='train.py'))\n");
	cr_assert_eq(src.count, 3);
	cr_assert_str_eq(text(0, "compiler_config", "debug"), "true");
	cr_assert_eq(src.jobs[0].compiled, 1);
	cr_assert_str_eq(text(1, "entry_point", NULL), "train.py");
	cr_assert_str_eq(text(1, "framework_version", NULL), "1.13.1");
	cr_assert_str_eq(text(1, "py_version", NULL), "py39");
	cr_assert_str_eq(text(1, "compiler_config", "enabled"), "false");
	cr_assert_eq(src.jobs[2].dialect, SMP_DIALECT_MODEL_TRAINER);
	cr_assert_str_eq(text(2, "compute", "instance_type"), "ml.p3.2xlarge");
	cr_assert_str_eq(text(2, "source_code", "entry_script"), "train.py");
}

Test(py_eval, kwargs_spread_and_the_tuple_slip)
{
	scan("from sagemaker.huggingface import HuggingFace, "
	     "TrainingCompilerConfig\n"
	     "common = dict(instance_count=1, py_version='py38')\n"
	     "cc = TrainingCompilerConfig(),\n"
	     "a = HuggingFace(**common, compiler_config=cc)\n"
	     "b = HuggingFace(**get_args())\n");
	cr_assert_eq(src.count, 2);
	cr_assert_str_eq(text(0, "instance_count", NULL), "1");
	cr_assert_str_eq(text(0, "py_version", NULL), "py38");
	cr_assert_eq(at(0, "compiler_config", NULL)->kind, SMP_NODE_SEQUENCE);
	cr_assert_str_eq(smp__node_type_name(at(0, "compiler_config", NULL)),
			 "a tuple");
	cr_assert_eq(src.jobs[0].partial, 0);
	cr_assert_eq(src.jobs[1].partial, 1);
}

Test(py_eval, boto3_requests)
{
	scan("import boto3\n"
	     "sm = boto3.client('sagemaker')\n"
	     "s3 = boto3.client('s3')\n"
	     "request = {'TrainingJobName': 'x', 'ResourceConfig': "
	     "{'InstanceType': 'ml.p3.2xlarge'}}\n"
	     "sm.create_training_job(**request)\n"
	     "s3.create_training_job(**request)\n"
	     "boto3.Session().client('sagemaker').create_training_job("
	     "TrainingJobName='y')\n");
	cr_assert_eq(src.count, 2);
	cr_assert_str_eq(src.jobs[0].name, "request");
	cr_assert_eq(src.jobs[0].dialect, SMP_DIALECT_CREATE_TRAINING_JOB);
	cr_assert_str_eq(text(0, "ResourceConfig", "InstanceType"),
			 "ml.p3.2xlarge");
	cr_assert_str_eq(text(1, "TrainingJobName", NULL), "y");
}

Test(py_eval, syntax_errors_have_positions)
{
	scan("from sagemaker.huggingface import HuggingFace\n"
	     "est = HuggingFace(\n"
	     "    hyperparameters={'a': 1,\n");
	cr_assert_eq(src.syntax, 1);
	cr_assert_eq(src.count, 0);
	cr_assert_eq(src.err_at.line, 2);
	cr_assert_eq(src.err_at.column, 18);
	cr_assert_str_eq(src.err, "'(' was never closed");
	scan("x = 'abc\n");
	cr_assert_eq(src.syntax, 1);
	cr_assert_str_eq(src.err, "unterminated string literal");
	scan("x = (1]\n");
	cr_assert_eq(src.syntax, 1);
	cr_assert_eq(src.err_at.column, 7);
	scan("x = 1 $ 2\n");
	cr_assert_eq(src.syntax, 1);
}

Test(py_eval, hostile_input_ends_cleanly)
{
	static char deep[200003];
	static char big[60000];
	size_t k, n = 0;

	/* brackets nested far beyond the evaluator's depth */
	memcpy(deep, "x=", 2);
	for (k = 0; k < 100000; k++)
		deep[2 + k] = '(';
	for (k = 0; k < 100000; k++)
		deep[100002 + k] = ')';
	deep[200002] = '\0';
	scan(deep);
	cr_assert_eq(src.syntax, 0);
	/* a string doubling its length: the value becomes unknown */
	n = (size_t)snprintf(big, sizeof(big),
			     "from sagemaker.pytorch import PyTorch\ns='ab'\n");
	for (k = 0; k < 60; k++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "s = s + s\n");
	snprintf(big + n, sizeof(big) - n, "PyTorch(base_job_name=s)\n");
	scan(big);
	cr_assert_eq(src.count, 1);
	cr_assert(unknown(0, "base_job_name", NULL));
	/* a dict that holds itself */
	scan("from sagemaker.pytorch import PyTorch\nd = {}\nd['d'] = d\n"
	     "PyTorch(hyperparameters=d)\n");
	cr_assert_eq(src.count, 1);
}

Test(py_eval, float_repr_is_pythons)
{
	char b[64];

	smp__pyfloat_repr(b, sizeof(b), 1.875e-05);
	cr_assert_str_eq(b, "1.875e-05");
	smp__pyfloat_repr(b, sizeof(b), 0.1);
	cr_assert_str_eq(b, "0.1");
	smp__pyfloat_repr(b, sizeof(b), 3.0);
	cr_assert_str_eq(b, "3.0");
	smp__pyfloat_repr(b, sizeof(b), 1e20);
	cr_assert_str_eq(b, "1e+20");
}

/* A notebook: code cells joined as written, lines mapped back. */
Test(py_eval, notebook_code_and_map)
{
	static const char nb[] =
		"{\"cells\": [\n"
		" {\"cell_type\": \"markdown\", \"source\": [\"# x\"]},\n"
		" {\"cell_type\": \"code\", \"outputs\": [{\"text\": "
		"\"big\"}],\n"
		"  \"source\": [\"!pip install x\\n\", \"a = "
		"\\\"\\u00e9\\\"\\n\","
		" \"b = 1\"]},\n"
		" {\"cell_type\": \"code\", \"source\": \"%%bash\\necho "
		"hi\\n\"},\n"
		" {\"cell_type\": \"code\", \"source\": \"c = 2\\n\"}\n"
		"], \"nbformat\": 4, \"nbformat_minor\": 5}\n";
	struct smp_docs docs;
	struct smp_notebook book;
	struct smp_report *rep;

	smp__docs_init(&docs, &alloc);
	cr_assert_eq(smp__report_new(&rep, &alloc, "nb.ipynb", NULL), 0);
	cr_assert_eq(smp__notebook_load(&book, &docs, nb, strlen(nb), NULL), 0);
	cr_assert_eq(book.ok, 1);
	cr_assert_str_eq(book.code, "!pip install x\na = \"\xc3\xa9\"\nb = 1\n"
				    "%%bash\necho hi\nc = 2\n");
	cr_assert_eq(book.nlines, 6);
	cr_assert_eq(book.lines[1].cell, 2);
	cr_assert_eq(book.lines[1].line, 2);
	cr_assert_eq(book.lines[5].cell, 4);
	cr_assert_eq(book.lines[5].line, 1);
	/* the raw offset of "b = 1" in the JSON text */
	cr_assert_eq(memcmp(nb + book.lines[2].raw, "b = 1", 5), 0);
	smp_report_free(rep);
	smp__docs_release(&docs);
}

/* Out of memory is SMP_ENOMEM through the whole check of a notebook. */
Test(py_eval, every_allocation_failure_is_clean)
{
	static const char nb[] =
		"{\"cells\": [{\"cell_type\": \"code\", \"source\": [\n"
		"\"from sagemaker.huggingface import HuggingFace, "
		"TrainingCompilerConfig\\n\",\n"
		"\"hp = {'per_device_train_batch_size': 4}\\n\",\n"
		"\"hp['learning_rate'] = float('5e-5') * 2\\n\",\n"
		"\"est = HuggingFace(instance_type='ml.p3.8xlarge', "
		"hyperparameters=hp, environment={'GPU_NUM_DEVICES': "
		"'8'},\\n\",\n"
		"\"    "
		"compiler_config=TrainingCompilerConfig(debug=True))\"]}],\n"
		"\"nbformat\": 4}\n";
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *first = NULL;
	long n, base;
	int done = 0;

	o.allocator = &a;
	o.no_script = 1;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	cr_assert_eq(
		smp_check_buffer(&first, ctx, "nb.ipynb", nb, strlen(nb), NULL),
		0);
	cr_assert_gt(smp_report_count(first), 1);
	smp_report_free(first);
	base = st.live;
	for (n = 0; !done; n++) {
		struct smp_report *rep = NULL;
		int rc;

		fa_arm(&st, n);
		rc = smp_check_buffer(&rep, ctx, "nb.ipynb", nb, strlen(nb),
				      NULL);
		cr_assert(rc == 0 || rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		if (rc == 0)
			cr_assert_gt(smp_report_count(rep), 1);
		else
			cr_assert_null(rep);
		done = rc == 0 && st.calls <= n;
		smp_report_free(rep);
		cr_assert_eq(st.live, base, "n=%ld leaked %ld blocks", n,
			     st.live - base);
	}
	st.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(st.live, 0);
}

/* The first note of kind, or NULL. */
static const struct smp_pysrc_note *
note_of(enum smp_pysrc_note_kind kind)
{
	size_t k;

	for (k = 0; k < src.nnotes; k++)
		if (src.notes[k].kind == kind)
			return &src.notes[k];
	return NULL;
}

/* Line k of a generated source into p; returns its length. */
typedef int (*line_fn)(char *p, size_t k);

static int
line_hp(char *p, size_t k)
{
	return sprintf(p, "hp['k%zu'] = %zu\n", k, k);
}

static int
line_name(char *p, size_t k)
{
	return sprintf(p, "v%zu = %zu\n", k, k);
}

static int
line_job(char *p, size_t k)
{
	return sprintf(p, "e%zu = PyTorch(entry_point='t.py', seed=%zu)\n", k,
		       k);
}

/* A source of n generated lines between head and tail (freed by the
 * caller). */
static char *
generated(const char *head, line_fn line, size_t n, const char *tail)
{
	size_t cap = strlen(head) + strlen(tail) + n * 80 + 1;
	char *s = malloc(cap), *p;
	size_t k;

	cr_assert_not_null(s);
	p = s + sprintf(s, "%s", head);
	for (k = 0; k < n; k++)
		p += line(p, k);
	sprintf(p, "%s", tail);
	return s;
}

Test(py_eval, large_dicts_are_hashed_and_keep_python_semantics)
{
	char *code = generated("from sagemaker.pytorch import PyTorch\n"
			       "hp = {}\n",
			       line_hp, 5000,
			       "hp['k7'] = 'seven'\n"
			       "hp[1] = 'one'\n"
			       "hp[True] = 'true'\n"
			       "est = PyTorch(entry_point='t.py', "
			       "hyperparameters=hp, lr=hp['k4999'])\n");
	const struct smp_node *hp;

	scan(code);
	cr_assert_eq(src.count, 1);
	hp = at(0, "hyperparameters", NULL);
	/* 5,000 keys and the int key 1 (True is the same key) */
	cr_assert_eq(hp->u.mapping.count, 5001);
	/* a key set again keeps its first position */
	cr_assert_str_eq(hp->u.mapping.items[7].key->u.scalar.value, "k7");
	cr_assert_str_eq(text(0, "hyperparameters", "k7"), "seven");
	cr_assert_str_eq(hp->u.mapping.items[5000].value->u.scalar.value,
			 "true");
	cr_assert_str_eq(text(0, "lr", NULL), "4999");
	free(code);
}

Test(py_eval, many_names_are_found_in_constant_time)
{
	char *code = generated("from sagemaker.pytorch import PyTorch\n",
			       line_name, 20000,
			       "est = PyTorch(entry_point='t.py', "
			       "instance_count=v0, seed=v19999)\n");

	scan(code);
	cr_assert_eq(src.count, 1);
	cr_assert_str_eq(text(0, "instance_count", NULL), "0");
	cr_assert_str_eq(text(0, "seed", NULL), "19999");
	free(code);
}

Test(py_eval, budget_spent_is_a_note_where_it_ran_out)
{
	scan("from sagemaker.pytorch import PyTorch\n"
	     "early = PyTorch(entry_point='a.py')\n"
	     "l = [1, 2, 3, 4, 5, 6, 7, 8]\n"
	     "l = l + l\nl = l + l\nl = l + l\nl = l + l\nl = l + l\n"
	     "l = l + l\nl = l + l\nl = l + l\nl = l + l\nl = l + l\n"
	     "l = l + l\nl = l + l\nl = l + l\nl = l + l\nl = l + l\n"
	     "l = l + l\nl = l + l\nl = l + l\nl = l + l\nl = l + l\n"
	     "late = PyTorch(entry_point='b.py')\n");
	/* the job before stays, the one after is not reached */
	cr_assert_eq(src.count, 1);
	cr_assert_str_eq(src.jobs[0].name, "early");
	cr_assert_not_null(note_of(SMP_PYNOTE_LIMIT));
	cr_assert_gt(note_of(SMP_PYNOTE_LIMIT)->budget, 0);
	cr_assert_gt(note_of(SMP_PYNOTE_LIMIT)->at.line, 4);
	cr_assert_lt(note_of(SMP_PYNOTE_LIMIT)->at.line, 25);
}

Test(py_eval, a_keyword_given_twice_makes_no_job)
{
	const struct smp_pysrc_note *n;

	scan("import boto3\n"
	     "r = {'TrainingJobName': 'j', 'RoleArn': 'x'}\n"
	     "sm = boto3.client('sagemaker')\n"
	     "sm.create_training_job(**r, **r)\n"
	     "from sagemaker.pytorch import PyTorch\n"
	     "PyTorch(entry_point='t.py', **{'entry_point': 'u.py'})\n"
	     "ok = PyTorch(entry_point='t.py', **{'role': 'r'})\n");
	cr_assert_eq(src.count, 1);
	cr_assert_str_eq(src.jobs[0].name, "ok");
	n = note_of(SMP_PYNOTE_TYPE_ERROR);
	cr_assert_not_null(n);
	cr_assert_str_eq(n->text, "TrainingJobName");
	cr_assert_str_eq(n->what, "create_training_job");
	cr_assert_eq(n->at.line, 4);
	cr_assert_eq(n->at.column, 29);
	cr_assert_str_eq(src.notes[1].text, "entry_point");
	cr_assert_str_eq(src.notes[1].what, "PyTorch");
}

Test(py_eval, an_annotated_subscript_is_a_note_other_annotations_not)
{
	const struct smp_pysrc_note *n;

	scan("from sagemaker.pytorch import PyTorch\n"
	     "hp = {}\n"
	     "lr: float = 0.1\n"
	     "epochs: int\n"
	     "hp['learning_rate']: lr\n"
	     "self_like.hp['a']['b']: 2\n"
	     "hp['x']: int = 3\n"
	     "est = PyTorch(entry_point='t.py', hyperparameters=hp)\n");
	cr_assert_eq(src.nnotes, 2);
	n = note_of(SMP_PYNOTE_ANNOTATION);
	cr_assert_str_eq(n->text, "hp['learning_rate']: lr");
	cr_assert_eq(n->at.line, 5);
	cr_assert_str_eq(src.notes[1].text, "self_like.hp['a']['b']: 2");
	/* the annotation stores nothing; x: int = 3 assigns */
	cr_assert_null(at(0, "hyperparameters", "learning_rate"));
	cr_assert_str_eq(text(0, "hyperparameters", "x"), "3");
}

Test(py_eval, sdk_names_without_imports_are_assumed_when_unambiguous)
{
	const struct smp_pysrc_note *n;

	scan("est = PyTorch(entry_point='t.py', framework_version='1.13.1',\n"
	     "    compiler_config=TrainingCompilerConfig())\n"
	     "hf = HuggingFace(entry_point='t.py')\n");
	cr_assert_eq(src.count, 2);
	cr_assert_str_eq(src.jobs[0].cls, "PyTorch");
	cr_assert_eq(src.jobs[0].compiled, 1);
	cr_assert_str_eq(src.jobs[1].cls, "HuggingFace");
	n = note_of(SMP_PYNOTE_ASSUMED);
	cr_assert_not_null(n);
	cr_assert_str_eq(n->text,
			 "'PyTorch', 'HuggingFace', 'TrainingCompilerConfig'");
	cr_assert_eq(n->at.line, 1);
	cr_assert_eq(n->at.column, 7);
}

Test(py_eval, sdk_names_defined_or_imported_elsewhere_are_not_assumed)
{
	static const char *const files[] = {
		"class PyTorch:\n    pass\nPyTorch(entry_point='t.py')\n",
		"def PyTorch(**kw):\n    pass\nPyTorch(entry_point='t.py')\n",
		"from mylab import PyTorch\nPyTorch(entry_point='t.py')\n",
		"from mylab import *\nPyTorch(entry_point='t.py')\n",
		"PyTorch = make()\nPyTorch(entry_point='t.py')\n",
		"import mylab\nmylab.PyTorch(entry_point='t.py')\n",
		"for PyTorch in x:\n    PyTorch(entry_point='t.py')\n",
	};
	size_t k;

	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		scan(files[k]);
		cr_assert_eq(src.count, 0, "file %zu", k);
		cr_assert_null(note_of(SMP_PYNOTE_ASSUMED), "file %zu", k);
	}
}

Test(py_eval, reading_stops_after_the_thousandth_job)
{
	char *code = generated("from sagemaker.pytorch import PyTorch\n",
			       line_job, 1200, "");

	scan(code);
	cr_assert_eq(src.count, 1000);
	cr_assert_str_eq(src.jobs[999].name, "e999");
	free(code);
}

Test(py_eval, float_powers_and_modulo)
{
	scan("from sagemaker.pytorch import PyTorch\n"
	     "PyTorch(hyperparameters=dict(a=2.0 ** 10, b=10 ** -3,\n"
	     "        c=16 ** 0.5, d=2 ** 0.25, e=7.5 % 2, f=-7.5 % 2,\n"
	     "        g=3 ** 40, h=0.1 ** 2, i=(-2.0) ** 3))\n");
	cr_assert_eq(src.count, 1);
	cr_assert_str_eq(text(0, "hyperparameters", "a"), "1024.0");
	cr_assert_str_eq(text(0, "hyperparameters", "b"), "0.001");
	cr_assert_str_eq(text(0, "hyperparameters", "c"), "4.0");
	/* a fractional power other than 1/2 is not computed */
	cr_assert(unknown(0, "hyperparameters", "d"));
	cr_assert_str_eq(text(0, "hyperparameters", "e"), "1.5");
	cr_assert_str_eq(text(0, "hyperparameters", "f"), "0.5");
	cr_assert(unknown(0, "hyperparameters", "g")); /* past 2^53 */
	cr_assert_str_eq(text(0, "hyperparameters", "h"),
			 "0.010000000000000002");
	cr_assert_str_eq(text(0, "hyperparameters", "i"), "-8.0");
}
