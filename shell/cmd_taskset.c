/*
 * taskset MASK COMMAND [ARG...] and taskset -c LIST COMMAND [ARG...] (util-linux): run a
 * command on the CPUs of a hexadecimal mask (1 is CPU 0, 3 CPUs 0 and 1) or of a list
 * ("0", "1,3", "0-2"). nproc: the CPUs this shell may use.
 *
 * The command inherits the shell's CPUs as a forked child would: taskset narrows its own
 * task's for the spawn and restores them afterwards.
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "exec.h"

/* A CPU number at *s (below NR_CPUS); *s moves past it. -EINVAL if there is none. */
static int parse_cpu(const char **s, unsigned int *cpu)
{
	const char *p = *s;

	*cpu = 0;
	while (*p >= '0' && *p <= '9' && *cpu < NR_CPUS)
		*cpu = *cpu * 10 + (unsigned int)(*p++ - '0');
	if (p == *s || *cpu >= NR_CPUS)
		return -EINVAL;
	*s = p;
	return 0;
}

/* "0-2,5": 0 and a mask, or -EINVAL. */
static int parse_cpu_list(const char *s, unsigned long *mask)
{
	*mask = 0;
	while (*s) {
		unsigned int lo, hi;
		const char *end = s;

		if (parse_cpu(&end, &lo))
			return -EINVAL;
		hi = lo;
		if (*end == '-') {
			end++;
			if (parse_cpu(&end, &hi) || hi < lo)
				return -EINVAL;
		}
		for (unsigned int c = lo; c <= hi; c++)
			*mask |= 1UL << c;
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		s = end;
	}
	return *mask ? 0 : -EINVAL;
}

static int cmd_taskset(int argc, char **argv)
{
	unsigned long mask, saved = current->cpus_mask;
	bool list = argc > 1 && !strcmp(argv[1], "-c");
	int first = list ? 3 : 2, err, status;
	u64 hex;

	if (argc <= first)
		return sh_usage("taskset");
	if (list) {
		err = parse_cpu_list(argv[2], &mask);
	} else {
		err = kstrtoull(argv[1], 16, &hex);
		mask = (unsigned long)hex;
	}
	if (err || !mask)
		return sh_error("taskset", "failed to parse CPU %s: %s", list ? "list" : "mask",
				argv[first - 1]);
	err = set_cpus_allowed(current, mask);
	if (err)
		return sh_error("taskset", "no online CPU in %s", argv[first - 1]);
	status = shell_run_command(argc - first, argv + first, NULL, NULL);
	set_cpus_allowed(current, saved);
	return status;
}
DEFINE_SHELL_CMD(taskset, "taskset", "taskset MASK|-c LIST COMMAND [ARG...]",
		 "run a command on some CPUs (a hex mask, or a list such as 0,2-3)", cmd_taskset,
		 SHELL_CMD_SPECIAL);

static int cmd_nproc(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return sh_usage("nproc");
	sh_out("%u\n", cpumask_weight(current->cpus_mask & READ_ONCE(cpu_online_mask)));
	return 0;
}
DEFINE_SHELL_CMD(nproc, "nproc", "nproc", "the number of CPUs this shell may use", cmd_nproc, 0);
