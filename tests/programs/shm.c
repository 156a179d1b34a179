/*
 * System V shared memory and process-shared futexes, for cgwb's system tests:
 *   shm N    a segment made, attached and removed at once (as fio does); N forked
 *            processes add 10000 each to a counter in it under a process-shared mutex,
 *            the last to finish signals a process-shared condition variable the parent
 *            waits on; then the error cases of shmget, shmat and shmctl, IPC_STAT, shmdt.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

struct shared {
	pthread_mutex_t lock;
	pthread_cond_t done;
	long counter;
	int finished;
};

static void child(struct shared *s, int n)
{
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&s->lock);
		s->counter++;
		pthread_mutex_unlock(&s->lock);
	}
	pthread_mutex_lock(&s->lock);
	if (++s->finished == n)
		pthread_cond_signal(&s->done);
	pthread_mutex_unlock(&s->lock);
	_exit(0);
}

static void shared_init(struct shared *s)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&s->lock, &ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&s->done, &ca);
}

static int counters(int n)
{
	int id = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0600);
	struct shared *s = id < 0 ? (void *)-1 : shmat(id, NULL, 0);
	int ok;

	if (s == (void *)-1 || shmctl(id, IPC_RMID, NULL)) {
		printf("shm: %s\n", strerror(errno));
		return 1;
	}
	shared_init(s);
	for (int i = 0; i < n; i++)
		if (fork() == 0)
			child(s, n);
	pthread_mutex_lock(&s->lock);
	while (s->finished < n)
		pthread_cond_wait(&s->done, &s->lock);
	pthread_mutex_unlock(&s->lock);
	while (wait(NULL) > 0)
		;
	printf("shm: %d processes, counter %ld\n", n, s->counter);
	printf("shm: attach after IPC_RMID: %s\n",
	       shmat(id, NULL, 0) == (void *)-1 ? strerror(errno) : "attached");
	ok = s->counter == n * 10000L;
	return shmdt(s) || !ok ? 1 : 0;
}

static void errors(void)
{
	struct shmid_ds ds;
	int id = shmget(0x5eed, 3 << 12, IPC_CREAT | IPC_EXCL | 0600);
	char *p = shmat(id, NULL, 0);

	printf("shm: again with IPC_EXCL: %s\n",
	       shmget(0x5eed, 4096, IPC_CREAT | IPC_EXCL) < 0 ? strerror(errno) : "made");
	printf("shm: same key: %s\n", shmget(0x5eed, 4096, 0) == id ? "same id" : "other");
	printf("shm: no such key: %s\n", shmget(0x5eee, 4096, 0) < 0 ? strerror(errno) : "found");
	printf("shm: size 0: %s\n", shmget(IPC_PRIVATE, 0, IPC_CREAT) < 0 ? strerror(errno) : "made");
	printf("shm: unaligned address: %s\n",
	       shmat(id, (void *)0x10001, 0) == (void *)-1 ? strerror(errno) : "attached");
	p[0] = 1;
	if (!shmctl(id, IPC_STAT, &ds))
		printf("shm: IPC_STAT size %zu nattch %lu\n", (size_t)ds.shm_segsz,
		       (unsigned long)ds.shm_nattch);
	printf("shm: detach a non-segment: %s\n", shmdt(&ds) ? strerror(errno) : "detached");
	printf("shm: detach: %s\n", shmdt(p) ? strerror(errno) : "ok");
	printf("shm: remove: %s\n", shmctl(id, IPC_RMID, NULL) ? strerror(errno) : "ok");
	printf("shm: remove again: %s\n", shmctl(id, IPC_RMID, NULL) ? strerror(errno) : "ok");
}

int main(int argc, char **argv)
{
	int rc;

	if (argc != 2 || atoi(argv[1]) < 1) {
		fprintf(stderr, "usage: shm N\n");
		return 2;
	}
	rc = counters(atoi(argv[1]));
	errors();
	return rc;
}
