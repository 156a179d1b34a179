/*
 * The memcg OOM killer: a charge nothing can make room for below memory.max (ramfs pages
 * cannot be reclaimed) kills the charging task with SIGKILL, counts oom and oom_kill in
 * memory.events, logs Linux's lines, and touches no other task; memory.oom.group kills
 * every task of the group (a child group's too) and counts oom_group_kill; the file takes
 * 0 and 1 only.
 */
#include "cgroup_test.h"

static void setup(void)
{
	cgt_setup();
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("B"), 0);
}

TestSuite(memcg_oom, .init = setup, .fini = vfs_test_teardown);

struct oom_task {
	struct task_struct *task;
	const char *path; /* a writer's file; NULL: a sleeper */
	long written;
	u8 kill_signal; /* the signal it died of (0: none) */
};

/* Writes 256 KiB in pages to a ramfs file, or sleeps a minute, unless killed first. */
static int oom_task_main(void *arg)
{
	static char page[4096];
	struct oom_task *o = arg;

	if (o->path) {
		struct file *f = filp_open(o->path, O_WRONLY | O_CREAT | O_APPEND, 0644);

		cr_assert(!IS_ERR(f));
		while (o->written < 256 << 10 && !signal_pending(current)) {
			long n = file_write(f, page, sizeof(page));
			if (n <= 0)
				break;
			o->written += n;
		}
		fput(f);
	} else {
		msleep_interruptible(60 * 1000);
	}
	o->kill_signal = signal_pending(current) ? current->kill_signal : 0;
	return 0;
}

static void oom_task_start(struct oom_task *o, const char *cg, const char *name)
{
	o->task = kthread_create(oom_task_main, o, "%s", name);
	cr_assert_not_null(o->task);
	cgroup_attach_task(cgt_cgroup(cg), o->task);
	wake_up_process(o->task);
}

/* Ends a task the OOM killer left alone (status: it was not killed until now). */
static void oom_task_stop(struct oom_task *o)
{
	cr_assert_eq(READ_ONCE(o->task->sigkill), false, "%s was killed", o->task->comm);
	send_sig_kill(o->task);
	kthread_join(o->task);
	cr_assert_eq(o->kill_signal, SIGINT);
}

Test(memcg_oom, the_charging_task_is_killed_and_nothing_else)
{
	struct oom_task writer = { .path = "/tmp/big" }, a_sleeper = { 0 }, b_sleeper = { 0 };
	char line[96];

	cr_assert_eq(cgt_write("A/memory.max", "64K"), 0);
	oom_task_start(&a_sleeper, "A", "sleeper-a");
	oom_task_start(&b_sleeper, "B", "sleeper-b");
	host_run_until_idle();
	oom_task_start(&writer, "A", "writer");
	int pid = writer.task->pid;
	kthread_join(writer.task);

	cr_assert_eq(writer.kill_signal, SIGKILL);
	/* 16 pages fit; the 17th, that nothing could make room for, goes through (dying) */
	cr_assert_eq(writer.written, (64 + 4) << 10);
	cr_assert_eq(cgt_num("A/memory.current"), (64 + 4) << 10);
	cr_assert_eq(cgt_key("A/memory.events", "oom"), 1);
	cr_assert_eq(cgt_key("A/memory.events", "oom_kill"), 1);
	cr_assert_eq(cgt_key("A/memory.events", "oom_group_kill"), 0);
	cr_assert_eq(cgt_key("B/memory.events", "oom_kill"), 0);
	cr_assert(host_log_contains("writer invoked oom-killer: gfp_mask="));
	cr_assert(host_log_contains("memory: usage 64kB, limit 64kB\n"));
	snprintf(line, sizeof(line),
		 "oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/A,task_memcg=/A,task=writer,"
		 "pid=%d,uid=0\n",
		 pid);
	cr_assert(host_log_contains(line), "%s", host_log());
	snprintf(line, sizeof(line), "Memory cgroup out of memory: Killed process %d (writer)", pid);
	cr_assert_eq(host_log_count(line), 1);
	cr_assert_eq(host_log_count("Killed process"), 1, "another task was killed");
	oom_task_stop(&a_sleeper);
	oom_task_stop(&b_sleeper);
	cr_assert_eq(do_unlink("/tmp/big"), 0);
	cr_assert_eq(cgt_num("A/memory.current"), 0);
}

/*
 * A at 64K with a child C, the group file oom_group set to 1, a sleeper in A and one in C:
 * the writer in C hits A's limit. Returns once the writer and C's sleeper have ended.
 */
static void oom_in_child(const char *oom_group, struct oom_task *writer, struct oom_task *a,
			 struct oom_task *c)
{
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A/C"), 0);
	cr_assert_eq(cgt_write("A/memory.max", "64K"), 0);
	cr_assert_eq(cgt_write(oom_group, "1"), 0);
	oom_task_start(a, "A", "sleeper-a");
	oom_task_start(c, "A/C", "sleeper-c");
	host_run_until_idle();
	oom_task_start(writer, "A/C", "writer");
	kthread_join(writer->task);
	kthread_join(c->task);
}

/*
 * memory.oom.group on A: the writer in A/C hits A's limit, and every task of A and of A/C
 * goes with it; B's sleeper stays. The group kill counts once, in A; each task's kill in
 * its own group and up.
 */
Test(memcg_oom, memory_oom_group_kills_every_task_of_the_group)
{
	struct oom_task writer = { .path = "/tmp/big" }, a_sleeper = { 0 }, c_sleeper = { 0 },
			b_sleeper = { 0 };

	oom_task_start(&b_sleeper, "B", "sleeper-b");
	oom_in_child("A/memory.oom.group", &writer, &a_sleeper, &c_sleeper);
	kthread_join(a_sleeper.task);

	cr_assert_eq(writer.kill_signal, SIGKILL);
	cr_assert_eq(a_sleeper.kill_signal, SIGKILL);
	cr_assert_eq(c_sleeper.kill_signal, SIGKILL);
	cr_assert_eq(cgt_key("A/memory.events", "oom"), 1);
	cr_assert_eq(cgt_key("A/memory.events", "oom_kill"), 3);
	cr_assert_eq(cgt_key("A/memory.events", "oom_group_kill"), 1);
	cr_assert_eq(cgt_key("A/C/memory.events", "oom_kill"), 2);
	cr_assert_eq(cgt_key("A/C/memory.events", "oom_group_kill"), 0);
	cr_assert_eq(cgt_key("A/C/memory.events", "oom"), 0, "A's limit was hit, not C's");
	cr_assert(host_log_contains("Tasks in /A are going to be killed due to memory.oom.group "
				    "set"));
	cr_assert_eq(host_log_count("Killed process"), 3);
	oom_task_stop(&b_sleeper);
}

/* Without oom.group on A, C's own setting does not reach its parent's tasks. */
Test(memcg_oom, a_child_oom_group_kills_only_the_child)
{
	struct oom_task writer = { .path = "/tmp/big" }, a_sleeper = { 0 }, c_sleeper = { 0 };

	oom_in_child("A/C/memory.oom.group", &writer, &a_sleeper, &c_sleeper);
	cr_assert_eq(c_sleeper.kill_signal, SIGKILL);
	cr_assert_eq(cgt_key("A/C/memory.events", "oom_group_kill"), 1);
	cr_assert(host_log_contains("Tasks in /A/C are going to be killed"));
	oom_task_stop(&a_sleeper);
}

Test(memcg_oom, memory_oom_group_takes_0_or_1)
{
	static const char *const bad[] = { "2", "-1", "x", "", "1 1", "01x" };

	cr_assert_str_eq(cgt_read("A/memory.oom.group"), "0\n");
	cr_assert_eq(cgt_write("A/memory.oom.group", "1\n"), 0);
	cr_assert_str_eq(cgt_read("A/memory.oom.group"), "1\n");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(cgt_write("A/memory.oom.group", bad[i]), -EINVAL, "'%s'", bad[i]);
		cr_assert_str_eq(cgt_read("A/memory.oom.group"), "1\n");
	}
	cr_assert_eq(cgt_write("A/memory.oom.group", "0"), 0);
	cr_assert_str_eq(cgt_read("A/memory.oom.group"), "0\n");
	cr_assert_not(cgt_exists("memory.oom.group"), "the root has no memory.oom.group");
	cr_assert_str_eq(cgt_read("A/memory.events"), "low 0\nhigh 0\nmax 0\noom 0\noom_kill "
						      "0\noom_group_kill 0\n");
}

/* A kill's signal decides the status: SIGKILL is never masked by a later Ctrl-C. */
Test(memcg_oom, sigkill_is_not_masked_by_a_later_interrupt)
{
	struct oom_task a = { 0 }, b = { 0 };

	oom_task_start(&a, "B", "a");
	oom_task_start(&b, "B", "b");
	host_run_until_idle();
	send_sig(SIGKILL, a.task);
	send_sig_kill(a.task);
	send_sig_kill(b.task);
	send_sig(SIGKILL, b.task);
	kthread_join(a.task);
	kthread_join(b.task);
	cr_assert_eq(a.kill_signal, SIGKILL);
	cr_assert_eq(b.kill_signal, SIGKILL);
}
