/* Time: sleep, time, uptime. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include <cgwb/jiffies.h>
#include "exec.h"

bool sh_parse_duration(const char *s, u64 *ms)
{
	u64 whole = 0, frac = 0, scale = 1, unit = 1;
	bool digits = false;

	for (; *s >= '0' && *s <= '9'; s++, digits = true) {
		if (whole > (~0ULL >> 8) / 10)
			return false;
		whole = whole * 10 + (u64)(*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits = true) {
			if (scale < 1000000000ULL) {
				frac = frac * 10 + (u64)(*s - '0');
				scale *= 10;
			}
		}
	}
	switch (*s) {
	case 'd':
		unit = 86400;
		s++;
		break;
	case 'h':
		unit = 3600;
		s++;
		break;
	case 'm':
		unit = 60;
		s++;
		break;
	case 's':
		s++;
		break;
	}
	if (!digits || *s || whole > (~0ULL >> 8) / 86400 / 1000)
		return false;
	*ms = whole * unit * 1000 + frac * unit * 1000 / scale;
	return true;
}

static int cmd_sleep(int argc, char **argv)
{
	u64 total = 0, ms;

	if (argc < 2)
		return sh_usage("sleep");
	for (int i = 1; i < argc; i++) {
		if (!sh_parse_duration(argv[i], &ms)) {
			sh_error("sleep", "invalid time interval '%s'", argv[i]);
			return sh_usage("sleep");
		}
		total += ms;
	}
	while (total) {
		unsigned int chunk = (unsigned int)min_t(u64, total, 1U << 30);

		if (msleep_interruptible(chunk) || signal_pending(current))
			return SH_STATUS_KILLED;
		total -= chunk;
	}
	return 0;
}
DEFINE_SHELL_CMD(sleep, "sleep", "sleep DURATION...",
		 "wait for the sum of the durations: seconds, fractions (0.25), suffixes s m h d",
		 cmd_sleep, 0);

/* bash's format: 0m1.234s */
static void fmt_duration(char *buf, size_t size, u64 ns)
{
	u64 ms = ns / NSEC_PER_MSEC;

	snprintf(buf, size, "%llum%llu.%03llus", ms / 60000, ms / 1000 % 60, ms % 1000);
}

static int cmd_time(int argc, char **argv)
{
	char real[32], sys[32];
	u64 start, cpu_ns;
	int status;

	if (argc < 2)
		return sh_usage("time");
	start = ktime_get_ns();
	status = shell_run_command(argc - 1, argv + 1, NULL, &cpu_ns);
	fmt_duration(real, sizeof(real), ktime_get_ns() - start);
	fmt_duration(sys, sizeof(sys), cpu_ns);
	/* all of a kernel task's time is system time */
	sh_err("real\t%s\nuser\t0m0.000s\nsys\t%s\n", real, sys);
	return status;
}
DEFINE_SHELL_CMD(time, "time", "time COMMAND [ARG...]",
		 "run a command, then print its real and CPU time on stderr", cmd_time,
		 SHELL_CMD_SPECIAL);

static int cmd_uptime(int argc, char **argv)
{
	u64 now = ktime_get_real_seconds() % 86400, up = ktime_get_ns() / NSEC_PER_SEC;
	unsigned int days = (unsigned int)(up / 86400), hours = (unsigned int)(up / 3600 % 24);
	unsigned int mins = (unsigned int)(up / 60 % 60);
	char since[40];
	int n = 0;

	if (argc > 1)
		return sh_usage("uptime");
	if (days)
		n = scnprintf(since, sizeof(since), "%u day%s, ", days, days == 1 ? "" : "s");
	if (hours)
		scnprintf(since + n, sizeof(since) - (size_t)n, "%2u:%02u", hours, mins);
	else
		scnprintf(since + n, sizeof(since) - (size_t)n, "%u min", mins);
	/* no load average is tracked: the number of tasks stands in for it */
	sh_out(" %02llu:%02llu:%02llu up %s,  %u tasks\n", now / 3600, now / 60 % 60, now % 60,
	       since, nr_tasks());
	return 0;
}
DEFINE_SHELL_CMD(uptime, "uptime", "uptime", "time of day (UTC), time since boot, tasks",
		 cmd_uptime, 0);
