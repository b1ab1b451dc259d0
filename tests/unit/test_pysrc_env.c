/*
 * test_pysrc_env.c - variables a source sets outside its Python (a
 * notebook's %env): os.environ["K"] reads them from where they are set
 * on, a key never set stays unknown, and the value keeps the place it
 * was written.
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
