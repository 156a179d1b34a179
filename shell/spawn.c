/* Commands as tasks: argv copied into memory the task owns, files and cgroup set first. */
#include <cgwb/sched.h>
#include <cgwb/cgroup.h>
#include <cgwb/file.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include "exec.h"
#include "internal.h"
#include "jobs.h"

/* One allocation: this header, then argv's pointers, then its strings. */
struct spawn_args {
	const struct shell_cmd *cmd;
	int argc;
	char **argv;
};

static struct spawn_args *copy_args(const struct shell_cmd *cmd, char **argv)
{
	size_t size = sizeof(struct spawn_args);
	struct spawn_args *a;
	char *strings;
	int argc = 0;

	for (; argv[argc]; argc++)
		size += sizeof(char *) + strlen(argv[argc]) + 1;
	size += sizeof(char *);
	a = kmalloc(size, GFP_KERNEL);
	if (!a)
		return NULL;
	a->cmd = cmd;
	a->argc = argc;
	a->argv = (char **)(a + 1);
	strings = (char *)(a->argv + argc + 1);
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]) + 1;

		a->argv[i] = memcpy(strings, argv[i], len);
		strings += len;
	}
	a->argv[argc] = NULL;
	return a;
}

int sh_killed_status(void)
{
	return 128 + (READ_ONCE(current->kill_signal) ?: SIGINT);
}

static int command_main(void *data)
{
	struct spawn_args *a = data;
	int status = a->cmd->fn(a->argc, a->argv);

	if (signal_pending(current))
		status = sh_killed_status();
	else if (status < 0)
		status = 1; /* an error code leaked out of the command: still a failure */
	kfree(a);
	return status & 0xff; /* do_exit() hands it to the job (sh_task_start) */
}

/* A new task that has not run yet, with files, cgroup and directory set: the caller wakes it. */
struct task_struct *sh_task_create(int (*fn)(void *), void *data, const char *name,
				   struct cgroup *cg, struct file *const *files)
{
	struct task_struct *t = kthread_create(fn, data, "%s", name);

	if (!t)
		return NULL;
	for (int fd = 0; fd < SH_NFILES; fd++)
		t->files[fd] = files[fd] ? get_file(files[fd]) : NULL;
	cgroup_attach_task(cg ? cg : current->cgroup, t);
	task_copy_fs(t, current);
	t->cpus_mask = current->cpus_mask; /* as a fork: the CPUs taskset gave the shell */
	return t;
}

/* Start a task of a shell job: detached, it reports through proc. */
void sh_task_start(struct task_struct *t, struct sh_proc *proc)
{
	proc_attach(proc, t);
	t->exit_notify = proc_exit;
	t->exit_notify_arg = proc;
	kthread_detach(t);
	wake_up_process(t);
}

static int spawn(const struct shell_cmd *cmd, char **argv, struct cgroup *cg,
		 struct file *const *files, struct sh_proc *proc, struct task_struct **out)
{
	struct spawn_args *a = copy_args(cmd, argv);
	struct task_struct *t;

	if (!a)
		return -ENOMEM;
	t = sh_task_create(command_main, a, argv[0], cg, files);
	if (!t) {
		kfree(a);
		return -ENOMEM;
	}
	if (proc)
		sh_task_start(t, proc);
	else
		wake_up_process(t);
	if (out)
		*out = t;
	return 0;
}

int sh_spawn_proc(const struct shell_cmd *cmd, char **argv, struct cgroup *cg, struct sh_files *fs,
		  struct sh_proc *proc)
{
	return spawn(cmd, argv, cg, fs->f, proc, NULL);
}

int shell_spawn(char **argv, struct cgroup *cg, struct file *files[3], struct task_struct **out)
{
	const struct shell_cmd *cmd = argv[0] ? shell_find_cmd(argv[0]) : NULL;

	if (!cmd)
		return -ENOENT;
	if (cmd->flags & SHELL_CMD_SPECIAL)
		return -EINVAL;
	return spawn(cmd, argv, cg, files, NULL, out);
}
