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

/*
 * Index of the first PID, after "-s SIGNAL", "-SIGNAL" or "--" (-1: -s without a signal).
 * Every signal but 0 is a kill here; *probe says the signal was 0 (test, do not kill).
 */
static int first_target(int argc, char **argv, bool *probe)
{
	*probe = false;
	if (argc < 2)
		return 1;
	if (!strcmp(argv[1], "-s")) {
		*probe = argc > 2 && !strcmp(argv[2], "0");
		return argc > 2 ? 3 : -1;
	}
	if (argv[1][0] == '-' && argv[1][1]) {
		*probe = !strcmp(argv[1], "-0");
		return 2;
	}
	return 1;
}

static int cmd_kill(int argc, char **argv)
{
	struct shell *sh = current_shell();
	bool probe;
	int first = first_target(argc, argv, &probe), status = 0;

	if (!sh)
		return 1;
	if (first < 0 || first >= argc)
		return sh_usage("kill");
	for (int i = first; i < argc; i++) {
		struct sh_job *job;
		int pid, err;

		if (argv[i][0] == '%') {
			job = job_find(sh, argv[i]);
			if (job && !probe)
				job_kill(job);
			else
				status = sh_error("kill", "%s: no such job", argv[i]);
			continue;
		}
		if (kstrtoint(argv[i], 10, &pid)) {
			status = sh_error("kill", "%s: arguments must be process or job IDs",
					  argv[i]);
			continue;
		}
		err = kill_pid(pid, probe ? 0 : SIGINT); /* signal 0, as POSIX: a probe */
		if (err)
			status = sh_error("kill", "%d: %s", pid, errstr(err));
	}
	return status;
}
DEFINE_SHELL_CMD(kill, "kill", "kill [-SIGNAL] PID|%JOB...", "kill tasks (every signal is a kill)",
		 cmd_kill, SHELL_CMD_SPECIAL);
