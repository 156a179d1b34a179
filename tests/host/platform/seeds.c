/*
 * Many seeds of one scenario (host_smp_seeds()): each seed in a child process, since the
 * platform comes up once per process. A failing child is a panic (BUG_ON, a kernel
 * assertion, a deadlock report) or a hang; it prints its own report, and the seed that
 * replays it, SIM_SEED=S, is printed here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include "host_internal.h"

bool host_seed_child;

#define SEED_TIMEOUT_S 60

/* A seed that runs on and on: a livelock, or a task spinning without a switch point. */
static void seed_timeout(int sig)
{
	(void)sig;
	host_smp_on = false; /* no change of CPU inside a signal handler */
	printk(KERN_EMERG "host: the seed still runs after %d s (real time)\n", SEED_TIMEOUT_S);
	host_report_tasks();
	panic("host: a seed ran over its time: livelock?");
}

static bool run_seed(u64 seed, void (*scenario)(u64 seed))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("host_smp_seeds: fork");
		return false;
	}
	if (pid == 0) {
		signal(SIGALRM, seed_timeout);
		alarm(SEED_TIMEOUT_S);
		host_seed_child = true;
		scenario(seed);
		_exit(0); /* nothing of the parent's (the test runner's) runs here */
	}
	if (waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

u64 host_smp_seeds(unsigned int nr_seeds, void (*scenario)(u64 seed))
{
	const char *env = getenv("SIM_SEED");
	u64 first = 1, last = nr_seeds;

	if (env && *env)
		first = last = strtoull(env, NULL, 0);
	for (u64 seed = first; seed <= last; seed++) {
		if (!run_seed(seed, scenario)) {
			fprintf(stderr, "host: the scenario fails with SIM_SEED=%llu\n",
				(unsigned long long)seed);
			return seed;
		}
	}
	return 0;
}
