/* writer.c: the writer thread (POSIX threads): a FIFO of jobs under one
 * mutex; the thread sleeps on `work`, callers waiting for room on `idle`. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "spate.h"
#include "writer.h"

struct job {
	int (*run)(void *);
	void (*done)(void *);
	void *arg;
	struct job *next;
};

struct spate_writer {
	pthread_t thread;
	int threaded;       /* 0: jobs run in the caller */
	pthread_mutex_t lock;
	pthread_cond_t work, idle;
	struct job *head, *tail;
	int pending;        /* queued or running */
	int stop;
	int err;            /* first error of a job */
};

/* Run one job unless an earlier one failed; returns its status. */
static int execute(struct spate_writer *w, struct job *j, int err)
{
	int rc = err ? 0 : j->run(j->arg);
	if (j->done)
		j->done(j->arg);
	free(j);
	(void)w;
	return rc;
}

static void *loop(void *arg)
{
	struct spate_writer *w = arg;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct job *j;
		int rc;
		while (!w->head && !w->stop)
			pthread_cond_wait(&w->work, &w->lock);
		if (!w->head)
			break;
		j = w->head;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		pthread_mutex_unlock(&w->lock);
		rc = execute(w, j, w->err);
		pthread_mutex_lock(&w->lock);
		if (rc && !w->err)
			w->err = rc;
		w->pending--;
		pthread_cond_broadcast(&w->idle);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int spate_writer_start(struct spate_writer **out)
{
	struct spate_writer *w = calloc(1, sizeof *w);
	const char *e = getenv("SPATE_WRITER");
	*out = NULL;
	if (!w)
		return -SPATE_ENOMEM;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->idle, NULL);
	if (!(e && !strcmp(e, "sync")))
		w->threaded = pthread_create(&w->thread, NULL, loop, w) == 0;
	*out = w;
	return 0;
}

int spate_writer_push(struct spate_writer *w, int (*run)(void *), void (*done)(void *),
	void *arg)
{
	struct job *j = malloc(sizeof *j);
	int err;
	if (!j) {
		if (done)
			done(arg);
		return -SPATE_ENOMEM;
	}
	j->run = run;
	j->done = done;
	j->arg = arg;
	j->next = NULL;
	if (!w->threaded) {
		int rc = execute(w, j, w->err);
		if (rc && !w->err)
			w->err = rc;
		return w->err;
	}
	pthread_mutex_lock(&w->lock);
	if (w->tail)
		w->tail->next = j;
	else
		w->head = j;
	w->tail = j;
	w->pending++;
	err = w->err;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
	return err;
}

int spate_writer_wait(struct spate_writer *w, int n)
{
	int err;
	if (!w->threaded)
		return w->err;
	pthread_mutex_lock(&w->lock);
	while (w->pending > n)
		pthread_cond_wait(&w->idle, &w->lock);
	err = w->err;
	pthread_mutex_unlock(&w->lock);
	return err;
}

int spate_writer_finish(struct spate_writer *w)
{
	int err;
	if (!w)
		return 0;
	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->stop = 1;
		pthread_cond_signal(&w->work);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	err = w->err;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->idle);
	free(w);
	return err;
}
