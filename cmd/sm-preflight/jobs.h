/*
 * jobs.h - checking files in parallel with output in order. Worker
 * threads produce one result per item; the calling thread consumes them
 * strictly in item order, each as soon as it and all before it are done.
 * At most a small window of results waits at any time, so memory stays
 * bounded whatever the number of items, and the output is the same
 * whatever the number of threads.
 */
#ifndef CLI_JOBS_H
#define CLI_JOBS_H

#include <stddef.h>

struct cli_jobs_ops {
	/* In a worker thread (or the caller's with one thread): the result
	 * of item i. Must be thread-safe; may return NULL. */
	void *(*work)(void *ud, size_t i);
	/* In the caller's thread, for i = 0, 1, 2 ... in order; result
	 * stays owned by the pool. A non-zero return stops the run: no item
	 * after i is consumed. */
	int (*done)(void *ud, size_t i, void *result);
	/* Frees a result, consumed or not, in the thread that made it when
	 * that thread still runs (a free from another thread would take the
	 * lock of that thread's malloc arena while it allocates). */
	void (*discard)(void *ud, void *result);
};

/* The number of online CPUs, at least 1: the default of --jobs. */
unsigned cli_jobs_default(void);

/*
 * Runs items 0..count-1 on threads threads, the caller's included (1 or
 * count <= 1: no thread is started, work and done alternate in the
 * caller's thread; a thread that cannot be started leaves its share to
 * the others). Returns 0, the first non-zero value of done, or -1 when
 * the pool's memory could not be had (nothing was consumed then).
 */
int cli_jobs_run(size_t count, unsigned threads, const struct cli_jobs_ops *ops,
		 void *ud);

#endif
