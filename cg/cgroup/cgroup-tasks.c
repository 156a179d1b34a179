/*
 * Task membership: every task is in one cgroup and holds a reference on it. Tasks are
 * placed when created (the spawner's choice, or the root), moved by writes to
 * cgroup.procs, and leave at exit. A removed cgroup takes no tasks: whoever still holds
 * it (cgexec looked it up just before the rmdir) lands in its nearest live ancestor.
 */
#include "cgroup-internal.h"
#include <cgwb/sched.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

/* css_set_lock held. */
static struct cgroup *live_cgroup(struct cgroup *cg)
{
	while (cg->dying)
		cg = cg->parent;
	return cg;
}

/* Put task in dst; returns the cgroup it left, whose reference the caller drops. */
static struct cgroup *move_task(struct task_struct *task, struct cgroup *dst)
{
	struct cgroup *old = task->cgroup;
	struct cgroup_subsys *ss;
	int i;

	lockdep_assert_held(&css_set_lock);
	dst->refcount++;
	dst->nr_tasks++;
	task->cgroup = dst;
	psi_task_move(task, cgroup_psi(dst));
	if (old)
		old->nr_tasks--;
	for_each_subsys(ss, i) {
		if (ss->attach)
			ss->attach(task, cgroup_e_css(dst, ss->id));
	}
	return old;
}

void cgroup_attach_task(struct cgroup *cg, struct task_struct *task)
{
	struct cgroup *old = NULL;
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	cg = live_cgroup(cg);
	if (task->cgroup != cg)
		old = move_task(task, cg);
	spin_unlock_irqrestore(&css_set_lock, flags);
	if (old)
		cgroup_put(old);
}

/* Can this task be moved? css_set_lock held (an exiting task waits for it). */
static int check_movable(struct task_struct *task)
{
	if (!task)
		return -ESRCH;
	if (task->flags & (PF_KTHREAD | PF_IDLE))
		return -EINVAL; /* kernel threads stay in the root, as on Linux */
	if (!task->cgroup || (task->flags & PF_EXITING))
		return -ESRCH;
	return 0;
}

int cgroup_attach_pid(struct cgroup *cg, int pid)
{
	struct cgroup *old = NULL;
	struct task_struct *task;
	unsigned long flags;
	int err;

	if (pid < 0)
		return -EINVAL;
	mutex_lock(&cgroup_mutex);
	spin_lock_irqsave(&css_set_lock, flags);
	task = pid ? find_task_by_pid(pid) : current;
	err = cg->dying ? -ENODEV : check_movable(task);
	if (!err && task->cgroup != cg)
		old = move_task(task, cg);
	spin_unlock_irqrestore(&css_set_lock, flags);
	mutex_unlock(&cgroup_mutex);
	if (old)
		cgroup_put(old);
	return err;
}

void cgroup_exit_task(struct task_struct *task)
{
	struct cgroup *cg;
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	cg = task->cgroup;
	if (cg)
		cg->nr_tasks--;
	task->cgroup = NULL;
	psi_task_move(task, &psi_system); /* its last moments count machine-wide only */
	spin_unlock_irqrestore(&css_set_lock, flags);
	if (cg)
		cgroup_put(cg);
}

/* Tasks in cg and its live descendants. css_set_lock held; the depth is bounded. */
static bool subtree_has_tasks(struct cgroup *cg)
{
	struct cgroup *child;

	if (cg->nr_tasks)
		return true;
	list_for_each_entry(child, &cg->children, sibling)
		if (subtree_has_tasks(child))
			return true;
	return false;
}

static unsigned int subtree_nr_tasks(struct cgroup *cg)
{
	struct cgroup *child;
	unsigned int n = cg->nr_tasks;

	list_for_each_entry(child, &cg->children, sibling)
		n += subtree_nr_tasks(child);
	return n;
}

unsigned int cgroup_subtree_nr_tasks(struct cgroup *cg)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&css_set_lock, flags);
	n = subtree_nr_tasks(cg);
	spin_unlock_irqrestore(&css_set_lock, flags);
	return n;
}

bool cgroup_is_populated(struct cgroup *cg)
{
	unsigned long flags;
	bool populated;

	spin_lock_irqsave(&css_set_lock, flags);
	populated = subtree_has_tasks(cg);
	spin_unlock_irqrestore(&css_set_lock, flags);
	return populated;
}
