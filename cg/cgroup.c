/* The cgroup hierarchy and task membership. */
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include <cgwb/spinlock.h>
#include <cgwb/bug.h>

struct cgroup cgroup_root;
static DEFINE_SPINLOCK(cgroup_lock);

void cgroup_init(void)
{
	memset(&cgroup_root, 0, sizeof(cgroup_root));
	INIT_LIST_HEAD(&cgroup_root.children);
	INIT_LIST_HEAD(&cgroup_root.sibling);
	cgroup_root.refcount = 1;
	cgroup_root.id = 1;
}

void cgroup_get(struct cgroup *cg)
{
	unsigned long flags;

	spin_lock_irqsave(&cgroup_lock, flags);
	BUG_ON(cg->refcount <= 0);
	cg->refcount++;
	spin_unlock_irqrestore(&cgroup_lock, flags);
}

void cgroup_put(struct cgroup *cg)
{
	unsigned long flags;

	spin_lock_irqsave(&cgroup_lock, flags);
	BUG_ON(cg->refcount <= 0);
	cg->refcount--;
	spin_unlock_irqrestore(&cgroup_lock, flags);
}

void cgroup_attach_task(struct cgroup *cg, struct task_struct *task)
{
	struct cgroup *old = task->cgroup;
	unsigned long flags;

	cgroup_get(cg);
	spin_lock_irqsave(&cgroup_lock, flags);
	task->cgroup = cg;
	cg->nr_tasks++;
	if (old)
		old->nr_tasks--;
	spin_unlock_irqrestore(&cgroup_lock, flags);
	if (old)
		cgroup_put(old);
}

void cgroup_exit_task(struct task_struct *task)
{
	struct cgroup *cg = task->cgroup;
	unsigned long flags;

	if (!cg)
		return;
	spin_lock_irqsave(&cgroup_lock, flags);
	cg->nr_tasks--;
	task->cgroup = NULL;
	spin_unlock_irqrestore(&cgroup_lock, flags);
	cgroup_put(cg);
}

int cgroup_path(const struct cgroup *cg, char *buf, size_t size)
{
	const struct cgroup *chain[32];
	int depth = 0, n = 0;

	if (!cg->parent)
		return scnprintf(buf, size, "/");
	for (; cg->parent && depth < 32; cg = cg->parent)
		chain[depth++] = cg;
	while (depth--)
		n += scnprintf(buf + n, size - (size_t)n, "/%s", chain[depth]->name);
	return n;
}
