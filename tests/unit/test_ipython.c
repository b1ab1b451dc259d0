/*
 * test_ipython.c - IPython syntax in a cell as Python of the same
 * length: each construct blanked or made an unknown name, Python kept
 * byte for byte, and the %env and %%writefile events with their places.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "script/ipython.h"
#include "failing_alloc.h"
#include "util/alloc.h"

/* the malloc family */
static struct smp_allocator sys;

static void
setup(void)
{
	smp__allocator_resolve(&sys, NULL);
}

TestSuite(ipython, .init = setup);

/* The Python text of cell src; the events stay in *ipy (free it). */
static char *
rewrite(struct smp_ipy *ipy, const char *src)
{
	size_t n = strlen(src);
	char *out = calloc(1, n + 1);

	cr_assert_not_null(out);
	smp__ipy_init(ipy, &sys);
	cr_assert_eq(smp__ipython(ipy, src, n, out), 0);
	cr_assert_eq(strlen(out), n, "the length is kept");
	return out;
}

static void
expect(const char *src, const char *want)
{
	struct smp_ipy ipy;
	char *out = rewrite(&ipy, src);

	cr_expect_str_eq(out, want, "for %s", src);
	smp__ipy_free(&ipy);
	free(out);
}

Test(ipython, python_is_kept_byte_for_byte)
{
	expect("x = 1\nif x % 2:\n    y = x ! = 3\n",
	       "x = 1\nif x % 2:\n    y = x ! = 3\n");
	expect("s = '''\n!not a shell\n%not a magic\n'''\n",
	       "s = '''\n!not a shell\n%not a magic\n'''\n");
	expect("f(\n    !x,\n)\n", "f(\n    !x,\n)\n");
	expect("a = b % c  # what?\n", "a = b % c  # what?\n");
	expect("print('why?')\n", "print('why?')\n");
	expect("ls = [1]\nls.append(2)\nrm = ls - 1\n",
	       "ls = [1]\nls.append(2)\nrm = ls - 1\n");
}

Test(ipython, line_magics_are_blanked)
{
	expect("%pip install sagemaker\nimport x\n",
	       "                      \nimport x\n");
	expect("%matplotlib inline\n", "                  \n");
	expect("%load_ext autoreload\n%cd /tmp\n",
	       "                    \n        \n");
	expect("if a:\n    %time f()\n", "if a:\n    0        \n");
}

Test(ipython, shell_escapes_and_continuations)
{
	expect("!pip install x\n", "              \n");
	expect("!docker run \\\n    -v `pwd`:/w img \\\n    cmd\nx = 1\n",
	       "             \n                     \n       \nx = 1\n");
	expect("!!ls\n", "    \n");
	expect("for s in l:\n    !echo $s {s}\n",
	       "for s in l:\n    0           \n");
}

Test(ipython, assigned_shell_output_is_an_unknown_name)
{
	expect("x = !ls $DIR\n", "x = _       \n");
	expect("a, b.c = %sx ls\n", "a, b.c = _     \n");
	expect("q = !(aws ecr describe \\\n   --name $n)\n",
	       "q = _                   \n             \n");
	expect("x == !y\n", "x == !y\n");
}

Test(ipython, help_and_autocall)
{
	expect("obj?\n", "    \n");
	expect("obj.method??\n", "            \n");
	expect("?obj\n", "    \n");
	expect("/f a b\n,f a b\n;f a b\n", "      \n      \n      \n");
}

Test(ipython, shell_aliases_without_percent)
{
	expect("rm -rf $DATASET_DIR\n", "                   \n");
	expect("pip install sagemaker\n", "                     \n");
	expect("cd = 3\nls(x)\n", "cd = 3\nls(x)\n");
}

Test(ipython, cell_magics)
{
	expect("%%time\nx = 1\n!ls\n", "      \nx = 1\n   \n");
	expect("\n%%capture out\nimport a\n", "\n             \nimport a\n");
	expect("%%bash\necho $HOME\nfor f in *; do :; done\n",
	       "      \n          \n                      \n");
	expect("%%html\n<b>x</b>\n", "      \n        \n");
	expect("x = 1\n%%bash\n", "x = 1\n      \n");
}

Test(ipython, env_events)
{
	struct smp_ipy ipy;
	const char *src = "%env GPU_NUM_DEVICES=4\n%env  A  b c \n%env B\n";
	char *out = rewrite(&ipy, src);

	cr_assert_eq(ipy.count, 2, "'%%env B' only reads B");
	cr_expect_eq(ipy.events[0].kind, SMP_IPY_ENV);
	cr_expect_eq(ipy.events[0].at, 0);
	cr_expect_eq(ipy.events[0].name_len, 15);
	cr_expect_eq(memcmp(src + ipy.events[0].name, "GPU_NUM_DEVICES", 15),
		     0);
	cr_expect_eq(ipy.events[0].value_len, 1);
	cr_expect_eq(src[ipy.events[0].value], '4');
	cr_expect_eq(ipy.events[1].name_len, 1);
	cr_expect_eq(src[ipy.events[1].name], 'A');
	cr_expect_eq(ipy.events[1].value_len, 3);
	cr_expect_eq(memcmp(src + ipy.events[1].value, "b c", 3), 0);
	cr_expect_eq(strspn(out, " \n"), strlen(src));
	smp__ipy_free(&ipy);
	free(out);
}

Test(ipython, writefile_event)
{
	struct smp_ipy ipy;
	const char *src = "%%writefile -a scripts/train.py\nimport torch\n";
	char *out = rewrite(&ipy, src);

	cr_assert_eq(ipy.count, 1);
	cr_expect_eq(ipy.events[0].kind, SMP_IPY_WRITEFILE);
	cr_expect(ipy.events[0].append);
	cr_expect_eq(ipy.events[0].name_len, strlen("scripts/train.py"));
	cr_expect_eq(memcmp(src + ipy.events[0].name, "scripts/train.py", 16),
		     0);
	cr_expect_str_eq(src + ipy.events[0].value, "import torch\n");
	cr_expect_eq(ipy.events[0].value_len, strlen("import torch\n"));
	cr_expect_eq(strspn(out, " \n"), strlen(src), "the body is not Python");
	smp__ipy_free(&ipy);
	free(out);
}

Test(ipython, bad_arguments_and_empty)
{
	struct smp_ipy ipy;
	char out[4];

	smp__ipy_init(&ipy, &sys);
	cr_expect_eq(smp__ipython(NULL, "x", 1, out), SMP_EINVAL);
	cr_expect_eq(smp__ipython(&ipy, NULL, 1, out), SMP_EINVAL);
	cr_expect_eq(smp__ipython(&ipy, "x", 1, NULL), SMP_EINVAL);
	cr_expect_eq(smp__ipython(&ipy, "", 0, out), 0);
	cr_expect_eq(ipy.count, 0);
	smp__ipy_free(&ipy);
}

Test(ipython, out_of_memory_for_an_event)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_ipy ipy;
	char out[32];

	fa_init(&fa, 0);
	smp__ipy_init(&ipy, &a);
	cr_expect_eq(smp__ipython(&ipy, "%env A=1\n", 9, out), SMP_ENOMEM);
	smp__ipy_free(&ipy);
	cr_expect_eq(fa.live, 0);
}
