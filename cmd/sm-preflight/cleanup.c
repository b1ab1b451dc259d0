/*
 * cleanup.c - temporaries removed on SIGINT, SIGTERM and SIGHUP (see
 * cleanup.h). The handler only calls unlink(), which is
 * async-signal-safe, then dies of the same signal with the default
 * action so that the parent sees how the run ended.
 */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <unistd.h>

#include "cleanup.h"

static const int signals[] = {SIGINT, SIGTERM, SIGHUP};

#define NSIGNALS (sizeof(signals) / sizeof(signals[0]))

/* the CLI's own state (the library has none): read by the handler */
static const char *volatile slots[CLI_CLEANUP_MAX];
static volatile sig_atomic_t installed;
static sigset_t saved_mask;

static void
on_signal(int sig)
{
	size_t i;

	for (i = 0; i < CLI_CLEANUP_MAX; i++) {
		const char *p = slots[i];

		if (p)
			(void)unlink(p);
	}
	/* SA_RESETHAND restored the default action; SA_NODEFER lets this
	 * one be delivered now */
	(void)raise(sig);
}

static void
install(void)
{
	struct sigaction sa, old;
	size_t i;

	installed = 1;
	for (i = 0; i < NSIGNALS; i++) {
		if (sigaction(signals[i], NULL, &old) != 0 ||
		    old.sa_handler == SIG_IGN)
			continue;
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND | SA_NODEFER;
		(void)sigaction(signals[i], &sa, NULL);
	}
}

/* See cleanup.h. */
void
cli_cleanup_hold(int on)
{
	sigset_t set;
	size_t i;

	if (!on) {
		(void)pthread_sigmask(SIG_SETMASK, &saved_mask, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < NSIGNALS; i++)
		sigaddset(&set, signals[i]);
	(void)pthread_sigmask(SIG_BLOCK, &set, &saved_mask);
}

/* See cleanup.h. */
int
cli_cleanup_add(const char *path)
{
	size_t i;

	if (!installed)
		install();
	for (i = 0; i < CLI_CLEANUP_MAX; i++) {
		if (!slots[i]) {
			slots[i] = path;
			return 0;
		}
	}
	return -1;
}

/* See cleanup.h. */
void
cli_cleanup_remove(const char *path)
{
	size_t i;

	for (i = 0; i < CLI_CLEANUP_MAX; i++)
		if (slots[i] == path)
			slots[i] = NULL;
}
