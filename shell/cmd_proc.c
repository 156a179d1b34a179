/* Tasks and the kernel log: ps, dmesg. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/cgroup.h>
#include <cgwb/printk.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

#define DMESG_CHUNK 2048

struct ps_row {
	int pid;
	char stat[4];
	unsigned int cpu; /* PSR: where it runs or last ran */
	u64 cpu_ns;
	char cgroup[48];
	char comm[TASK_COMM_LEN + 2];
};

struct ps_table {
	struct ps_row *rows;
	unsigned int n, max;
};

/* Runs with the task list locked: copy only, no sleeping, no output. */
static void ps_copy_row(struct task_struct *t, void *arg)
{
	struct ps_table *tab = arg;
	struct ps_row *r;

	if (tab->n >= tab->max)
		return;
	r = &tab->rows[tab->n++];
	r->pid = t->pid;
	strlcpy(r->stat, task_state_name(t), sizeof(r->stat));
	r->cpu_ns = t->sum_exec_ns;
	r->cpu = task_cpu(t);
	if (t->cgroup)
		cgroup_path(t->cgroup, r->cgroup, sizeof(r->cgroup));
	else
		strlcpy(r->cgroup, "-", sizeof(r->cgroup));
	/* kernel threads in brackets, as Linux's ps shows them */
	if (t->flags & (PF_KTHREAD | PF_IDLE))
		snprintf(r->comm, sizeof(r->comm), "[%s]", t->comm);
	else
		strlcpy(r->comm, t->comm, sizeof(r->comm));
}

static int cmd_ps(int argc, char **argv)
{
	struct ps_table tab = { .max = nr_tasks() + 16 };

	if (argc > 1)
		return sh_usage("ps");
	tab.rows = kcalloc(tab.max, sizeof(*tab.rows), GFP_KERNEL);
	if (!tab.rows)
		return sh_error("ps", "%s", errstr(-ENOMEM));
	for_each_task(ps_copy_row, &tab)
		;
	sh_out("%5s %-4s %3s %8s %-8s %s\n", "PID", "STAT", "PSR", "TIME", "CGROUP", "COMMAND");
	for (unsigned int i = 0; i < tab.n; i++) {
		struct ps_row *r = &tab.rows[i];
		u64 secs = r->cpu_ns / NSEC_PER_SEC;
		char time[24];

		snprintf(time, sizeof(time), "%02llu:%02llu", secs / 60, secs % 60);
		sh_out("%5d %-4s %3u %8s %-8s %s\n", r->pid, r->stat, r->cpu, time, r->cgroup,
		       r->comm);
	}
	kfree(tab.rows);
	return 0;
}
DEFINE_SHELL_CMD(ps, "ps", "ps", "list the tasks: pid, state, CPU, CPU time, cgroup, command",
		 cmd_ps, 0);

static int cmd_dmesg(int argc, char **argv)
{
	size_t len = log_buf_len(), done = 0, n;
	char *buf;

	if (argc > 1)
		return sh_usage("dmesg");
	buf = kmalloc(DMESG_CHUNK, GFP_KERNEL);
	if (!buf)
		return sh_error("dmesg", "%s", errstr(-ENOMEM));
	while (done < len && (n = log_buf_copy(buf, DMESG_CHUNK, done))) {
		if (sh_write(buf, n) < 0)
			break;
		done += n;
	}
	kfree(buf);
	return 0;
}
DEFINE_SHELL_CMD(dmesg, "dmesg", "dmesg", "print the kernel log", cmd_dmesg, 0);
