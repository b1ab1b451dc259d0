/*
 * test_pysrc_env.c - variables a source sets outside its Python (a
 * notebook's %env): os.environ["K"] reads them from where they are set
 * on, a key never set stays unknown, and the value keeps the place it
 * was written. And the region a source creates each job in
 * (struct smp_pysrc_job.region): the region_name of the boto3 session
 * behind an estimator's sagemaker_session or of the client that sends a
 * request, else AWS_DEFAULT_REGION as the source sets it when the session
 * is made; unknown when it cannot be read; NULL when the source says
 * nothing.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "job/source_python.h"
#include "util/alloc.h"
#include "util/pos.h"

static struct smp_allocator alloc;
static struct smp_arena arena;
static const struct smp_hashkey hkey = {1, 2};
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

TestSuite(pysrc_env, .init = setup, .fini = teardown);

/* The code: a blanked "%env" line, then a job reading two variables. */
static const char code[] =
	"                     \n"
	"import os\n"
	"from sagemaker.huggingface import HuggingFace\n"
	"e = HuggingFace(entry_point='t.py', environment={\n"
	"    'GPU_NUM_DEVICES': os.environ['GPU_NUM_DEVICES'],\n"
	"    'OTHER': os.environ['OTHER']})\n";

/* A variable set at offset at to "8", written at line 1, columns 21-22. */
static struct smp_pysrc_env
gpus_at(size_t at)
{
	struct smp_pysrc_env e;
	static const char text[] = "GPU_NUM_DEVICES=8";

	memset(&e, 0, sizeof(e));
	e.at = at;
	e.name = text;
	e.name_len = 15;
	e.value = text + 16;
	e.value_len = 1;
	e.start = smp__pos_at(code, strlen(code), 20);
	e.end = smp__pos_at(code, strlen(code), 21);
	return e;
}

static const struct smp_node *
env_of(const char *key)
{
	cr_assert_eq(src.count, 1);
	return smp__map_get(smp__map_get(src.jobs[0].root, "environment"), key);
}

Test(pysrc_env, read_from_where_it_is_set)
{
	struct smp_pysrc_env e = gpus_at(0);
	const struct smp_node *n;

	cr_assert_eq(smp__pysrc_scan_env(&src, &arena, &alloc, &hkey, code,
					 strlen(code), &e, 1),
		     0);
	n = env_of("GPU_NUM_DEVICES");
	cr_assert_not_null(n);
	cr_expect(smp__scalar_is(n, "8"));
	cr_expect_eq(n->start.line, 1);
	cr_expect_eq(n->start.column, 21);
	n = env_of("OTHER");
	cr_assert_not_null(n);
	cr_expect(smp__node_unknown(n), "a variable never set is unknown");
}

Test(pysrc_env, not_before_it_is_set)
{
	struct smp_pysrc_env e = gpus_at(strlen(code));

	cr_assert_eq(smp__pysrc_scan_env(&src, &arena, &alloc, &hkey, code,
					 strlen(code), &e, 1),
		     0);
	cr_expect(smp__node_unknown(env_of("GPU_NUM_DEVICES")));
}

Test(pysrc_env, none_set_is_unknown)
{
	cr_assert_eq(smp__pysrc_scan_env(&src, &arena, &alloc, &hkey, code,
					 strlen(code), NULL, 0),
		     0);
	cr_expect(smp__node_unknown(env_of("GPU_NUM_DEVICES")));
}

static void
scan(const char *py)
{
	cr_assert_eq(
		smp__pysrc_scan(&src, &arena, &alloc, &hkey, py, strlen(py)),
		0);
	cr_assert_eq(src.syntax, 0);
}

/* The region of job k: its text, "?" when unknown, NULL when none. */
static const char *
region(size_t k)
{
	const struct smp_node *r;

	cr_assert_lt(k, src.count);
	r = src.jobs[k].region;
	if (!r)
		return NULL;
	if (smp__node_unknown(r))
		return "?";
	cr_assert_eq(r->kind, SMP_NODE_SCALAR);
	return r->u.scalar.value;
}

Test(pysrc_env, region_estimator_session)
{
	scan("import boto3, sagemaker\n"
	     "from sagemaker.pytorch import PyTorch\n"
	     "b = boto3.Session(region_name='cn-north-1')\n"
	     "a = PyTorch(sagemaker_session=sagemaker.Session(b))\n"
	     "c = PyTorch(sagemaker_session=sagemaker.Session("
	     "boto_session=boto3.Session(None, None, None, 'eu-west-1')))\n"
	     "d = PyTorch(entry_point='t.py')\n"
	     "e = PyTorch(sagemaker_session=sagemaker.Session())\n"
	     "f = PyTorch(sagemaker_session=make_session())\n");
	cr_assert_eq(src.count, 5);
	cr_assert_str_eq(region(0), "cn-north-1");
	/* the node is where the region is written */
	cr_assert_eq(src.jobs[0].region->start.line, 3);
	cr_assert_eq(src.jobs[0].region->start.column, 31);
	cr_assert_str_eq(region(1), "eu-west-1");
	cr_assert_null(region(2));
	cr_assert_null(region(3)); /* a default session: the environment */
	cr_assert_str_eq(region(4), "?");
}

Test(pysrc_env, region_environ_when_the_session_is_made)
{
	scan("import os\n"
	     "import boto3, sagemaker\n"
	     "from sagemaker.huggingface import HuggingFace\n"
	     "early = sagemaker.Session()\n"
	     "os.environ['AWS_DEFAULT_REGION'] = 'cn-northwest-1'\n"
	     "a = HuggingFace(entry_point='t.py')\n"
	     "b = HuggingFace(sagemaker_session=early)\n"
	     "c = HuggingFace(sagemaker_session=sagemaker.Session())\n"
	     "os.environ['AWS_REGION'] = 'us-east-1'\n"
	     "d = HuggingFace(entry_point='t.py')\n"
	     "if x:\n"
	     "    os.environ['AWS_DEFAULT_REGION'] = 'us-west-2'\n"
	     "e = HuggingFace(entry_point='t.py')\n");
	cr_assert_eq(src.count, 5);
	cr_assert_str_eq(region(0), "cn-northwest-1");
	cr_assert_null(region(1)); /* made before the variable was set */
	cr_assert_str_eq(region(2), "cn-northwest-1");
	/* boto3 reads AWS_DEFAULT_REGION, not AWS_REGION */
	cr_assert_str_eq(region(3), "cn-northwest-1");
	/* set on one branch only: either may hold */
	cr_assert_str_eq(region(4), "?");
}

Test(pysrc_env, region_client)
{
	scan("import boto3\n"
	     "sm = boto3.client('sagemaker', region_name='cn-north-1')\n"
	     "sm.create_training_job(TrainingJobName='a')\n"
	     "s = boto3.Session(region_name='us-gov-west-1')\n"
	     "s.client('sagemaker').create_training_job(TrainingJobName='b')\n"
	     "s.client('sagemaker', 'eu-west-1').create_training_job("
	     "TrainingJobName='c')\n"
	     "boto3.client('sagemaker').create_training_job("
	     "TrainingJobName='d')\n");
	cr_assert_eq(src.count, 4);
	cr_assert_str_eq(region(0), "cn-north-1");
	cr_assert_str_eq(region(1), "us-gov-west-1");
	cr_assert_str_eq(region(2), "eu-west-1");
	cr_assert_null(region(3));
}
