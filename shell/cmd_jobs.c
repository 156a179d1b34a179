/* Job control commands, run in the shell's task: wait, jobs, kill. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/irqflags.h>
#include "internal.h"
#include "jobs.h"

/* The status of the process pid in job, or the job's if pid is not one of them. */
static int proc_status(const struct sh_job *job, const char *spec)
{
	const struct sh_proc *p;
	int pid;

	if (spec[0] != '%' && !kstrtoint(spec, 10, &pid))
		list_for_each_entry(p, &job->procs, node)
			if (p->pid == pid)
				return p->status;
	return job_status(job);
}

static int wait_all(struct shell *sh)
{
	struct sh_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &sh->jobs, node) {
		if (job_wait_bg(sh, job) < 0)
			return SH_STATUS_KILLED;
		job_forget(job);
	}
	return 0;
}

static int cmd_wait(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int status = 0;

	if (!sh)
		return 1;
	if (argc == 1)
		return wait_all(sh);
	for (int i = 1; i < argc; i++) {
		struct sh_job *job = job_find(sh, argv[i]);

		if (!job) {
			sh_error("wait", "%s: no such job", argv[i]);
			status = 127;
			continue;
		}
		if (job_wait_bg(sh, job) < 0)
			return SH_STATUS_KILLED;
		status = proc_status(job, argv[i]);
		job_forget(job);
	}
	return status;
}
DEFINE_SHELL_CMD(wait, "wait", "wait [PID|%JOB...]",
		 "wait for background jobs (all, or those given) and return the last one's status",
		 cmd_wait, SHELL_CMD_SPECIAL);

static int cmd_jobs(int argc, char **argv)
{
	struct shell *sh = current_shell();
	bool pids = argc == 2 && !strcmp(argv[1], "-p");
	bool longer = argc == 2 && !strcmp(argv[1], "-l");
	struct sh_job *job;
	char buf[16];

	if (!sh)
		return 1;
	if (argc > 2 || (argc == 2 && !pids && !longer))
		return sh_usage("jobs");
	list_for_each_entry(job, &sh->jobs, node) {
		bool done = job_done(job);

		if (job->notified)
			continue;
		if (pids)
			sh_out("%d\n", job_last_pid(job));
		else if (longer)
			sh_out("[%d]%c %5d %-24s%s%s\n", job->id,
			       list_is_last(&job->node, &sh->jobs) ? '+' : ' ', job_last_pid(job),
			       job_state(job, buf, sizeof(buf)), job->cmd, done ? "" : " &");
		else
			sh_out("[%d]%c  %-24s%s%s\n", job->id,
			       list_is_last(&job->node, &sh->jobs) ? '+' : ' ',
			       job_state(job, buf, sizeof(buf)), job->cmd, done ? "" : " &");
		job->notified = done;
	}
	return 0;
}
DEFINE_SHELL_CMD(jobs, "jobs", "jobs [-l|-p]", "list the background jobs", cmd_jobs,
		 SHELL_CMD_SPECIAL);

static const struct {
	const char *name;
	int sig;
} signal_names[] = {
	{ "HUP", 1 },   { "INT", 2 },   { "QUIT", 3 },  { "ILL", 4 },   { "TRAP", 5 },
	{ "ABRT", 6 },  { "BUS", 7 },   { "FPE", 8 },   { "KILL", 9 },  { "USR1", 10 },
	{ "SEGV", 11 }, { "USR2", 12 }, { "PIPE", 13 }, { "ALRM", 14 }, { "TERM", 15 },
	{ "CHLD", 17 }, { "CONT", 18 }, { "STOP", 19 }, { "TSTP", 20 }, { "WINCH", 28 },
};

/* A signal's number from "9", "KILL" or "SIGKILL"; -1 if it names none. */
static int signal_number(const char *s)
{
	int n;

	if (!kstrtoint(s, 10, &n))
		return n >= 0 && n <= 64 ? n : -1;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < ARRAY_SIZE(signal_names); i++)
		if (!strcmp(s, signal_names[i].name))
			return signal_names[i].sig;
	return -1;
}

/*
 * Index of the first PID, after "-s SIGNAL", "-SIGNAL" or "--"; -1 if the signal is missing
 * or unknown. *sig: the signal, SIGINT if none is given (Ctrl-C's); 0 only probes.
 */
static int first_target(int argc, char **argv, int *sig)
{
	*sig = SIGINT;
	if (argc < 2)
		return 1;
	if (!strcmp(argv[1], "-s")) {
		if (argc < 3 || (*sig = signal_number(argv[2])) < 0)
			return -1;
		return 3;
	}
	if (!strcmp(argv[1], "--"))
		return 2;
	if (argv[1][0] == '-' && argv[1][1])
		return (*sig = signal_number(argv[1] + 1)) < 0 ? -1 : 2;
	return 1;
}

static int cmd_kill(int argc, char **argv)
{
	struct shell *sh = current_shell();
	int sig;
	int first = first_target(argc, argv, &sig), status = 0;

	if (!sh)
		return 1;
	if (first < 0 || first >= argc)
		return sh_usage("kill");
	for (int i = first; i < argc; i++) {
		struct sh_job *job;
		int pid, err;

		if (argv[i][0] == '%') {
			job = job_find(sh, argv[i]);
			if (job && sig)
				job_signal(job, sig);
			else
				status = sh_error("kill", "%s: no such job", argv[i]);
			continue;
		}
		if (kstrtoint(argv[i], 10, &pid)) {
			status = sh_error("kill", "%s: arguments must be process or job IDs",
					  argv[i]);
			continue;
		}
		err = kill_pid(pid, sig); /* signal 0, as POSIX: a probe */
		if (err)
			status = sh_error("kill", "%d: %s", pid, errstr(err));
	}
	return status;
}
DEFINE_SHELL_CMD(kill, "kill", "kill [-SIGNAL] PID|%JOB...", "send a signal to tasks (SIGINT)",
		 cmd_kill, SHELL_CMD_SPECIAL);
