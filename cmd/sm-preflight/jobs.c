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
 * than a small file's check. A consumed result goes back to the thread
 * that made it, which frees it the next time it takes the lock: with
 * glibc, freeing another thread's blocks contends with its mallocs.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs.h"

#define WINDOW_PER_THREAD 4

struct slot {
	void *result;
	int ready;
	size_t maker; /* 0: the caller; k: worker k */
};

/* Consumed results waiting for their maker to free them. */
struct bin {
	void **items;
	size_t count;
};

struct pool {
	const struct cli_jobs_ops *ops;
	void *ud;
	size_t count;
	size_t window;
	struct slot *slots;
	struct bin *bins; /* one per worker, 1-based: bins[0] is unused */
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

struct worker_arg {
	struct pool *pool;
	size_t id;      /* 1-based */
	void **freeing; /* the bin's items taken out, freed unlocked */
};

/* Under the lock: moves worker id's bin into w->freeing; returns how
 * many, which the worker frees after unlocking. */
static size_t
take_bin(struct pool *p, struct worker_arg *w)
{
	struct bin *b = &p->bins[w->id];
	size_t n = b->count;

	if (n)
		memcpy(w->freeing, b->items, n * sizeof(*b->items));
	b->count = 0;
	return n;
}

static void
free_taken(struct pool *p, struct worker_arg *w, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (p->ops->discard)
			p->ops->discard(p->ud, w->freeing[k]);
}

static void *
worker(void *arg)
{
	struct worker_arg *w = arg;
	struct pool *p = w->pool;
	size_t n;

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
		n = take_bin(p, w);
		pthread_mutex_unlock(&p->lock);
		free_taken(p, w, n);
		r = p->ops->work(p->ud, i);
		pthread_mutex_lock(&p->lock);
		p->slots[i % p->window].result = r;
		p->slots[i % p->window].maker = w->id;
		p->slots[i % p->window].ready = 1;
		if (p->caller_waiting)
			pthread_cond_signal(&p->ready);
	}
	n = take_bin(p, w);
	pthread_mutex_unlock(&p->lock);
	free_taken(p, w, n);
	return NULL;
}

static int
run_inline(size_t count, const struct cli_jobs_ops *ops, void *ud)
{
	size_t i;
	int rc;

	for (i = 0; i < count; i++) {
		void *r = ops->work(ud, i);

		rc = ops->done(ud, i, r);
		if (ops->discard)
			ops->discard(ud, r);
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
			size_t maker = s->maker;

			s->result = NULL;
			s->ready = 0;
			p->next_done = ++i;
			if (p->workers_waiting)
				pthread_cond_broadcast(&p->space);
			pthread_mutex_unlock(&p->lock);
			rc = p->ops->done(p->ud, i - 1, r);
			if (!maker && p->ops->discard)
				p->ops->discard(p->ud, r);
			pthread_mutex_lock(&p->lock);
			if (maker) {
				struct bin *b = &p->bins[maker];

				b->items[b->count++] = r;
			}
		} else if (p->next_work < p->count &&
			   p->next_work < p->next_done + p->window) {
			size_t k = p->next_work++;
			void *r;

			pthread_mutex_unlock(&p->lock);
			r = p->ops->work(p->ud, k);
			pthread_mutex_lock(&p->lock);
			p->slots[k % p->window].result = r;
			p->slots[k % p->window].maker = 0;
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
	struct worker_arg *args;
	void **space;
	size_t i, k, started = 0, bin_cap;
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
	/* a worker empties its bin whenever it takes the lock: by then at
	 * most the window's results and the one it just made are in it */
	bin_cap = p.window + 1;
	p.slots = calloc(p.window, sizeof(*p.slots));
	p.bins = calloc((size_t)threads + 1, sizeof(*p.bins));
	tids = calloc(threads, sizeof(*tids));
	args = calloc(threads, sizeof(*args));
	/* per worker: its bin and the copy it frees from */
	space = calloc((size_t)threads * 2 * bin_cap, sizeof(*space));
	if (!p.slots || !p.bins || !tids || !args || !space) {
		free(p.slots);
		free(p.bins);
		free(tids);
		free(args);
		free(space);
		return -1;
	}
	for (i = 0; i < threads; i++) {
		p.bins[i + 1].items = space + i * 2 * bin_cap;
		args[i].pool = &p;
		args[i].id = i + 1;
		args[i].freeing = space + i * 2 * bin_cap + bin_cap;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.space, NULL);
	pthread_cond_init(&p.ready, NULL);
	for (i = 0; i < threads; i++) {
		if (pthread_create(&tids[i], NULL, worker, &args[i]) != 0)
			break;
		started++;
	}
	/* with no worker at all the caller still does everything */
	rc = consume(&p);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	/* what the workers left when they ended, and after a stop the
	 * results that were made but will not be consumed */
	for (i = 1; i <= threads && ops->discard; i++)
		for (k = 0; k < p.bins[i].count; k++)
			ops->discard(ud, p.bins[i].items[k]);
	for (i = 0; i < p.window; i++)
		if (p.slots[i].ready && ops->discard)
			ops->discard(ud, p.slots[i].result);
	pthread_cond_destroy(&p.ready);
	pthread_cond_destroy(&p.space);
	pthread_mutex_destroy(&p.lock);
	free(p.slots);
	free(p.bins);
	free(tids);
	free(args);
	free(space);
	return rc;
}
