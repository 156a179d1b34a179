/*
 * Task membership: moves through cgroup.procs and their errors, what cgroup.procs lists,
 * exits, kernel threads, and tasks placed into a cgroup that was removed meanwhile.
 */
#include "cgroup_test.h"
#include <cgwb/completion.h>

TestSuite(cgroup_procs, .init = cgt_setup, .fini = vfs_test_teardown);

static bool listed(const char *procs, int pid)
{
	char line[32];
	const char *s = cgt_read(procs);
	size_t len = (size_t)snprintf(line, sizeof(line), "%d\n", pid);

	for (; *s; s = strchr(s, '\n') + 1)
		if (!strncmp(s, line, len))
			return true;
	return false;
}

Test(cgroup_procs, move_current)
{
	struct cgroup *a;

	cr_assert_eq(cgt_mkdir("A"), 0);
	a = cgt_cgroup("A");
	cr_assert(listed("cgroup.procs", current->pid));
	cr_assert_eq(cgt_writef("A/cgroup.procs", "%ld\n", current->pid), 0);
	cr_assert_eq(current->cgroup, a);
	cr_assert_eq(a->nr_tasks, 1);
	cr_assert(listed("A/cgroup.procs", current->pid));
	cr_assert_not(listed("cgroup.procs", current->pid));
	/* moving where it already is changes nothing */
	cr_assert_eq(cgt_writef("A/cgroup.procs", " %ld ", current->pid), 0);
	cr_assert_eq(a->nr_tasks, 1);
	cr_assert_eq(cgt_rmdir("A"), -EBUSY);
	/* pid 0 is the writer itself, as on Linux */
	cr_assert_eq(cgt_write("cgroup.procs", "0"), 0);
	cr_assert_eq(current->cgroup, &cgroup_root);
	cr_assert_eq(a->nr_tasks, 0);
	cr_assert_eq(cgt_rmdir("A"), 0);
}

static struct task_struct *find_kthread_result;

static void find_kthread(struct task_struct *t, void *arg)
{
	if ((t->flags & PF_KTHREAD) && !find_kthread_result)
		find_kthread_result = t;
}

Test(cgroup_procs, bad_writes_change_nothing)
{
	static const char *const bad[] = {
		"", "\n", "abc", "-1", "12 13", "1x", "0x10", "99999999999999999999",
	};
	struct cgroup *a;

	cr_assert_eq(cgt_mkdir("A"), 0);
	a = cgt_cgroup("A");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(cgt_write("A/cgroup.procs", bad[i]), -EINVAL, "'%s'", bad[i]);
		cr_assert_eq(a->nr_tasks, 0);
	}
	cr_assert_eq(cgt_write("A/cgroup.procs", "4242"), -ESRCH);
	/* kernel threads stay where they are */
	for_each_task(find_kthread, NULL)
		;
	cr_assert_not_null(find_kthread_result);
	cr_assert_eq(cgt_writef("A/cgroup.procs", "%ld", find_kthread_result->pid), -EINVAL);
	cr_assert_eq(a->nr_tasks, 0);
	cr_assert_eq(current->cgroup, &cgroup_root);
	cr_assert_str_eq(cgt_read("A/cgroup.procs"), "");
}

static DECLARE_COMPLETION(release);

static int sleeper(void *arg)
{
	wait_for_completion(&release);
	return 0;
}

Test(cgroup_procs, other_tasks_and_exit)
{
	struct task_struct *t1 = kthread_run(sleeper, NULL, "s1");
	struct task_struct *t2 = kthread_run(sleeper, NULL, "s2");
	struct cgroup *a;
	int refs;

	cr_assert_eq(cgt_mkdir("A"), 0);
	a = cgt_cgroup("A");
	refs = a->refcount;
	cr_assert_eq(cgt_writef("A/cgroup.procs", "%ld", t1->pid), 0);
	cr_assert_eq(cgt_writef("A/cgroup.procs", "%ld", t2->pid), 0);
	cr_assert_eq(a->nr_tasks, 2);
	cr_assert_eq(a->refcount, refs + 2);
	cr_assert(listed("A/cgroup.procs", t1->pid));
	cr_assert(listed("A/cgroup.procs", t2->pid));
	complete_all(&release);
	kthread_join(t1);
	kthread_join(t2);
	cr_assert_eq(a->nr_tasks, 0);
	cr_assert_eq(a->refcount, refs);
	cr_assert_str_eq(cgt_read("A/cgroup.procs"), "");
}

Test(cgroup_procs, attach_to_removed_cgroup_goes_up)
{
	struct task_struct *t = kthread_create(sleeper, NULL, "late");
	struct cgroup *a, *b;

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	a = cgt_cgroup("A");
	b = cgroup_lookup("A/B"); /* held, as cgexec holds the cgroup it runs in */
	cr_assert_eq(cgt_rmdir("A/B"), 0);
	cgroup_attach_task(b, t);
	cr_assert_eq(t->cgroup, a);
	cr_assert_eq(b->nr_tasks, 0);
	cgroup_put(b);
	wake_up_process(t);
	complete(&release);
	kthread_join(t);
	cr_assert_eq(a->nr_tasks, 0);
}
