/*
 * jobs.c - a fixed pool of worker threads feeding a reorder window.
 *
 * Why a window rather than a queue of all results: results must come out
 * in item order (byte-identical output whatever --jobs is), and a slow
 * file must not let the others pile up in memory. Workers take the next
 * item only while it lies within WINDOW_PER_THREAD x threads of the
 * oldest result not yet consumed; the caller consumes slot after slot.
 *
 * The caller is one of the N threads: N - 1 workers are started, and the
 * caller checks files too whenever the next result is not ready, so that
 * --jobs 2 on two cores keeps both busy rather than running three threads.
 * Nobody is woken who is not waiting: a wake-up per file would cost more
 * than a small file's check.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "jobs.h"

#define WINDOW_PER_THREAD 4

struct slot {
	void *result;
	int ready;
};

struct pool {
	const struct cli_jobs_ops *ops;
	void *ud;
	size_t count;
	size_t window;
	struct slot *slots;
	size_t next_work; /* next item a worker takes */
	size_t next_done; /* next item the caller consumes */
	int stop;
	int caller_waiting;     /* the caller sleeps on ready */
	size_t workers_waiting; /* workers sleep on space */
	pthread_mutex_t lock;
	pthread_cond_t space; /* a slot was freed, or stop */
	pthread_cond_t ready; /* a result was stored */
};

unsigned
cli_jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1u : n > 1024 ? 1024u : (unsigned)n;
}

static void *
worker(void *arg)
{
	struct pool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		size_t i;
		void *r;

		while (!p->stop && p->next_work < p->count &&
		       p->next_work >= p->next_done + p->window) {
			p->workers_waiting++;
			pthread_cond_wait(&p->space, &p->lock);
			p->workers_waiting--;
		}
		if (p->stop || p->next_work >= p->count)
			break;
		i = p->next_work++;
		pthread_mutex_unlock(&p->lock);
		r = p->ops->work(p->ud, i);
		pthread_mutex_lock(&p->lock);
		p->slots[i % p->window].result = r;
		p->slots[i % p->window].ready = 1;
		if (p->caller_waiting)
			pthread_cond_signal(&p->ready);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static int
run_inline(size_t count, const struct cli_jobs_ops *ops, void *ud)
{
	size_t i;
	int rc;

	for (i = 0; i < count; i++) {
		rc = ops->done(ud, i, ops->work(ud, i));
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The caller's side: consume in order until the end or a stop, checking
 * the next file itself while the result it needs is not ready.
 */
static int
consume(struct pool *p)
{
	size_t i = 0;
	int rc = 0;

	pthread_mutex_lock(&p->lock);
	while (i < p->count && rc == 0) {
		struct slot *s = &p->slots[i % p->window];

		if (s->ready) {
			void *r = s->result;

			s->result = NULL;
			s->ready = 0;
			p->next_done = ++i;
			if (p->workers_waiting)
				pthread_cond_broadcast(&p->space);
			pthread_mutex_unlock(&p->lock);
			rc = p->ops->done(p->ud, i - 1, r);
			pthread_mutex_lock(&p->lock);
		} else if (p->next_work < p->count &&
			   p->next_work < p->next_done + p->window) {
			size_t k = p->next_work++;
			void *r;

			pthread_mutex_unlock(&p->lock);
			r = p->ops->work(p->ud, k);
			pthread_mutex_lock(&p->lock);
			p->slots[k % p->window].result = r;
			p->slots[k % p->window].ready = 1;
		} else {
			p->caller_waiting = 1;
			pthread_cond_wait(&p->ready, &p->lock);
			p->caller_waiting = 0;
		}
	}
	if (rc) {
		p->stop = 1;
		pthread_cond_broadcast(&p->space);
	}
	pthread_mutex_unlock(&p->lock);
	return rc;
}

int
cli_jobs_run(size_t count, unsigned threads, const struct cli_jobs_ops *ops,
	     void *ud)
{
	struct pool p;
	pthread_t *tids;
	size_t i, started = 0;
	int rc;

	if (threads <= 1 || count <= 1)
		return run_inline(count, ops, ud);
	if (threads > count)
		threads = (unsigned)count;
	threads--; /* the caller is one of them */
	p.ops = ops;
	p.ud = ud;
	p.count = count;
	p.window = ((size_t)threads + 1) * WINDOW_PER_THREAD;
	p.next_work = 0;
	p.next_done = 0;
	p.stop = 0;
	p.caller_waiting = 0;
	p.workers_waiting = 0;
	p.slots = calloc(p.window, sizeof(*p.slots));
	tids = calloc(threads, sizeof(*tids));
	if (!p.slots || !tids) {
		free(p.slots);
		free(tids);
		return -1;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.space, NULL);
	pthread_cond_init(&p.ready, NULL);
	for (i = 0; i < threads; i++) {
		if (pthread_create(&tids[i], NULL, worker, &p) != 0)
			break;
		started++;
	}
	/* with no worker at all the caller still does everything */
	rc = consume(&p);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	/* after a stop: results that were made but will not be consumed */
	for (i = 0; i < p.window; i++)
		if (p.slots[i].ready && ops->discard)
			ops->discard(ud, p.slots[i].result);
	pthread_cond_destroy(&p.ready);
	pthread_cond_destroy(&p.space);
	pthread_mutex_destroy(&p.lock);
	free(p.slots);
	free(tids);
	return rc;
}
