/*
 * Misbehaving on purpose, for cgwb's system tests: each argument names one way a program
 * can go wrong; the kernel must end or refuse it and keep running.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int divide(int a, int b)
{
	int q;

	__asm__ volatile("cltd; idivl %2" : "=a"(q) : "a"(a), "r"(b) : "edx");
	return q;
}

/* Fork until refused (a fork bomb that stops), then end every child and reap it. */
static int fork_until_refused(void)
{
	static pid_t kids[4096];
	int n = 0, err;

	for (; n < 4096; n++) {
		pid_t pid = fork();

		if (pid == 0)
			for (;;)
				sleep(100);
		if (pid < 0)
			break;
		kids[n] = pid;
	}
	err = errno;
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	printf("forked %d, then errno %d\n", n, err);
	return 0;
}

static int deep(int n)
{
	volatile char frame[4096];

	frame[0] = 1;
	return n ? deep(n - 1) + frame[0] : 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "wild"))
		*(volatile int *)0xdeadbeef = 1;
	else if (!strcmp(what, "null"))
		return *(volatile int *)0;
	else if (!strcmp(what, "kernel"))
		return *(volatile int *)0xffff888000100000UL;
	else if (!strcmp(what, "ud2"))
		__asm__ volatile("ud2");
	else if (!strcmp(what, "div"))
		return divide(1, argc - 2);
	else if (!strcmp(what, "enosys")) {
		long r = syscall(449);

		printf("syscall 449: %ld errno %d\n", r, errno);
	} else if (!strcmp(what, "badptr")) {
		void *volatile low = (void *)0x10, *volatile high = (void *)0xffff888000000000UL;
		long user = write(1, low, 10), kernel = write(1, high, 10);

		printf("bad user pointer: %ld errno %d; kernel pointer: %ld errno %d\n", user,
		       errno, kernel, errno);
	} else if (!strcmp(what, "stack")) {
		printf("deep recursion: %d\n", deep(1000)); /* 4 MiB of stack */
	} else if (!strcmp(what, "badtid")) { /* clone told to write the child's tid in the kernel */
		long pid = syscall(SYS_clone, SIGCHLD | 0x01000000 /* CLONE_CHILD_SETTID */, 0, 0,
				   0xffff888000000000UL, 0);
		int status = 0;

		if (pid == 0)
			_exit(3);
		waitpid((pid_t)pid, &status, 0);
		printf("clone with a kernel tid address: %s, status %d\n",
		       pid > 0 ? "ran" : "failed", WEXITSTATUS(status));
	} else if (!strcmp(what, "forkbomb")) {
		return fork_until_refused();
	} else if (!strcmp(what, "spin")) {
		printf("spinning\n");
		fflush(stdout);
		for (;;)
			;
	} else if (!strcmp(what, "eat")) { /* MiB, touched, then the memcg's stat read back */
		size_t mib = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
		char *p = malloc(mib << 20), line[128];
		FILE *f;

		if (!p)
			return 2;
		memset(p, 1, mib << 20);
		if (((volatile char *)p)[(mib << 20) - 1] != 1) /* and the stores stay */
			return 3;
		f = argc > 3 ? fopen(argv[3], "r") : NULL;
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "anon ", 5))
				printf("%s", line);
		printf("ate %zu MiB\n", mib);
	} else {
		fprintf(stderr, "faults: unknown case '%s'\n", what);
		return 2;
	}
	return 0;
}
