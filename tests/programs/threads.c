/*
 * Threads, for cgwb's system tests (glibc's pthreads: clone, futex, set_tid_address):
 *   threads count N    N threads add to one counter under a mutex, wait on a condition
 *                      variable for the last one, each writes its own file; joined
 *   threads exitgroup  a thread calls exit(5) while the others sleep in a futex wait
 *   threads crash      a thread dereferences NULL while the first waits to join it
 *   threads abort      a thread calls abort() (SIGABRT to itself) while the first waits
 *   threads signals    kill(getpid(), SIGCHLD / SIGWINCH / SIGURG / SIGCONT): nothing ends
 *   threads leaderexit N  the first thread calls pthread_exit; another runs on, says so,
 *                      and returns (N 0: the process ends with 0) or calls exit(N)
 *   threads spawn N    N sleeping threads, or as many as may be made: how many, the error
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_there = PTHREAD_COND_INITIALIZER;
static long counter, arrived;
static int nthreads;
static pid_t pid_seen[64];

static void *worker(void *arg)
{
	long id = (long)arg;
	char path[64];
	FILE *f;

	pid_seen[id] = getpid();
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	if (++arrived == nthreads)
		pthread_cond_broadcast(&all_there);
	while (arrived < nthreads)
		pthread_cond_wait(&all_there, &lock);
	pthread_mutex_unlock(&lock);
	snprintf(path, sizeof(path), "/mnt/thread%ld", id);
	f = fopen(path, "w");
	if (!f || fprintf(f, "thread %ld tid %ld\n", id, (long)syscall(SYS_gettid)) < 0 || fclose(f))
		return (void *)1;
	return NULL;
}

static int count(int n)
{
	pthread_t t[64];
	void *ret;
	int bad = 0;

	nthreads = n;
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return perror("pthread_create"), 1;
	for (int i = 0; i < n; i++) {
		if (pthread_join(t[i], &ret) || ret)
			bad++;
		if (pid_seen[i] != getpid())
			bad++;
	}
	printf("%d threads: counter %ld, %d bad, tid %s pid\n", n, counter, bad,
	       syscall(SYS_gettid) == getpid() ? "==" : "!=");
	return bad != 0;
}

static void *sleeper(void *arg)
{
	pthread_mutex_lock(&lock);
	pthread_cond_wait(&all_there, &lock); /* never signalled */
	return arg;
}

static void *crasher(void *arg)
{
	usleep(50000);
	return (void *)(long)*(volatile int *)arg;
}

static void *aborter(void *arg)
{
	(void)arg;
	usleep(50000);
	abort();
}

static void *outliver(void *arg)
{
	usleep(100000);
	printf("a thread outlived the first one\n");
	fflush(stdout);
	if ((long)arg)
		exit((int)(long)arg);
	return NULL; /* the last thread: glibc ends the process with 0 */
}

static int ignored_signals(void)
{
	static const int sigs[] = { SIGCHLD, SIGWINCH, SIGURG, SIGCONT };

	for (unsigned int i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (kill(getpid(), sigs[i]))
			return 1;
	printf("ignored signals: still here\n");
	return 0;
}

static int spawn(int n)
{
	pthread_t t;
	int made = 0, err = 0;

	for (; made < n; made++) {
		err = pthread_create(&t, NULL, sleeper, NULL);
		if (err)
			break;
	}
	printf("made %d threads, then error %d\n", made, err);
	fflush(stdout);
	exit(0); /* the sleepers end with the process */
}

static void *quitter(void *arg)
{
	(void)arg;
	usleep(100000);
	exit(5);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 2 && !strcmp(argv[1], "count"))
		return count(atoi(argv[2]) > 64 ? 64 : atoi(argv[2]));
	if (argc > 1 && !strcmp(argv[1], "crash")) {
		pthread_create(&t, NULL, crasher, NULL);
		pthread_join(t, NULL);
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "abort")) {
		pthread_create(&t, NULL, aborter, NULL);
		pthread_join(t, NULL);
		return 1;
	}
	if (argc > 2 && !strcmp(argv[1], "leaderexit")) {
		pthread_create(&t, NULL, outliver, (void *)(long)atoi(argv[2]));
		pthread_exit(NULL);
	}
	if (argc > 1 && !strcmp(argv[1], "signals"))
		return ignored_signals();
	if (argc > 2 && !strcmp(argv[1], "spawn"))
		return spawn(atoi(argv[2]));
	if (argc > 1 && !strcmp(argv[1], "exitgroup")) {
		for (int i = 0; i < 3; i++)
			pthread_create(&t, NULL, sleeper, NULL);
		pthread_create(&t, NULL, quitter, NULL);
		pthread_join(t, NULL); /* never returns: the quitter ends everyone */
		return 1;
	}
	fprintf(stderr, "usage: threads count N | exitgroup | crash | abort | signals | leaderexit "
			"N | spawn N\n");
	return 2;
}
