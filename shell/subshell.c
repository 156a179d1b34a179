/*
 * Subshells: a task running shell text with a copy of the shell's state. They carry
 * compound commands into pipelines and the background, special commands out of the
 * shell's task, and command substitutions (whose output is collected in a capture file).
 */
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include "internal.h"
#include "jobs.h"

struct subshell_args {
	struct shell *sh;
	size_t len;
	char src[];
};

static int subshell_main(void *data)
{
	struct subshell_args *a = data;
	struct shell *sh = a->sh;
	int status;

	sh->task = current;
	current->shell = sh;
	status = shell_run_script(sh, a->src, a->len);
	if (signal_pending(current))
		status = sh_killed_status();
	current->shell = NULL;
	shell_free(sh);
	kfree(a);
	return status & 0xff; /* do_exit() hands it to the job (sh_task_start) */
}

int sh_start_subshell(struct shell *sh, const char *src, size_t len, struct sh_files *fs,
		      struct sh_proc *proc)
{
	struct subshell_args *a = kmalloc(sizeof(*a) + len + 1, GFP_KERNEL);
	struct task_struct *t;

	if (!a)
		return -ENOMEM;
	a->sh = shell_clone(sh);
	a->len = len;
	memcpy(a->src, src, len);
	a->src[len] = '\0';
	t = a->sh ? sh_task_create(subshell_main, a, "sh", NULL, fs->f) : NULL;
	if (!t) {
		shell_free(a->sh);
		kfree(a);
		return -ENOMEM;
	}
	sh_task_start(t, proc);
	return 0;
}

int sh_command_subst(struct shell *sh, const char *src, size_t len, struct strbuf *out)
{
	struct sh_job *job = job_alloc(src, len);
	struct sh_proc *proc = job ? job_add_proc(job) : NULL;
	struct file *capture = proc ? capture_open() : NULL;
	struct sh_files fs;
	int status = -ENOMEM;

	if (capture) {
		files_from_current(&fs);
		files_replace(&fs, 1, get_file(capture));
		status = sh_start_subshell(sh, src, len, &fs, proc);
		files_put(&fs);
	}
	if (!status) {
		int err;

		status = job_wait_fg(sh, job);
		err = capture_take(capture, out);
		if (err)
			status = err;
	}
	fput(capture);
	job_free(job);
	return status;
}
