/*
 * Controller states (css): creation, ids, references, offlining and release, effective
 * css lookup, and walks of the css tree.
 *
 * A css starts with one reference, the cgroup's, which it keeps while online. Going
 * offline (rmdir, controller disabled) clears cg->subsys[] so that the cgroup resolves to
 * its parent's css from then on, and drops that reference. The last reference queues the
 * release: only then does the css leave its parent's children list and its id, and the
 * controller frees it. Until then it is still walked (its pages can be reclaimed, its
 * figures count in its ancestors').
 *
 * References are taken and dropped without a lock (every charged and uncharged page takes
 * one, on any CPU): the count is atomic, and a tryget is "online and not yet zero". A count
 * at zero is never raised again, and the css it belongs to stays allocated for a grace
 * period after it got there, so a lookup under rcu_read_lock() (the css of a task) may try
 * one and fail. The tree, the ids and cg->subsys[] change under css_set_lock.
 * As with Linux's percpu_ref_tryget_live(), a tryget that read the css online just as it
 * went offline may succeed; its holder then holds an offline css, as a reference taken a
 * moment earlier would.
 */
#include "cgroup-internal.h"
#include <cgwb/sched.h>
#include <cgwb/xarray.h>
#include <cgwb/rcupdate.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

static struct xarray css_ids[CGROUP_SUBSYS_COUNT]; /* id -> css, css_set_lock */

void css_get(struct cgroup_subsys_state *css)
{
	int old = __atomic_fetch_add(&css->refcnt, 1, __ATOMIC_RELAXED);

	BUG_ON(old <= 0);
}

/* Raise a count that has not reached zero: one at zero belongs to a css being released. */
static bool css_get_unless_zero(struct cgroup_subsys_state *css)
{
	int old = __atomic_load_n(&css->refcnt, __ATOMIC_RELAXED);

	do {
		if (old <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(&css->refcnt, &old, old + 1, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

bool css_tryget(struct cgroup_subsys_state *css)
{
	return READ_ONCE(css->online) && css_get_unless_zero(css);
}

/*
 * The last put may come with interrupts off (page uncharge): the release is deferred, and
 * comes a grace period later, as Linux's css_free_rwork, so that a lockless reader that
 * reached a css through an RCU-protected pointer (a wb's memcg) still finds it.
 */
void css_put(struct cgroup_subsys_state *css)
{
	/* release: everything done under the reference is done before the css can go */
	int old = __atomic_fetch_sub(&css->refcnt, 1, __ATOMIC_RELEASE);

	BUG_ON(old <= 0);
	if (old == 1) {
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		queue_rcu_work(system_wq, &css->release_rwork);
	}
}

static void css_release_workfn(struct work_struct *work)
{
	struct cgroup_subsys_state *css =
		container_of(to_rcu_work(work), struct cgroup_subsys_state, release_rwork);
	struct cgroup_subsys_state *parent = css->parent;
	struct cgroup *cg = css->cgroup;
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	BUG_ON(READ_ONCE(css->refcnt) || css->online || !list_empty(&css->children));
	list_del(&css->sibling);
	xa_erase(&css_ids[css->ss->id], (unsigned long)css->id);
	spin_unlock_irqrestore(&css_set_lock, flags);
	css->ss->css_free(css);
	if (parent)
		css_put(parent);
	cgroup_put(cg);
}

/* The lowest free id (1 up), as Linux's idr gives them. css_set_lock held. */
static int css_alloc_id(struct cgroup_subsys_state *css)
{
	struct xarray *xa = &css_ids[css->ss->id];
	unsigned long id = 1;
	int err;

	while (xa_load(xa, id))
		id++;
	err = xa_insert(xa, id, css, GFP_ATOMIC);
	return err ? err : (int)id;
}

/* Fill in the core's fields, give an id, join the tree and take the references. */
static int css_link(struct cgroup_subsys_state *css, struct cgroup_subsys *ss, struct cgroup *cg,
		    struct cgroup_subsys_state *parent)
{
	unsigned long flags;
	int id;

	css->cgroup = cg;
	css->ss = ss;
	css->parent = parent;
	css->refcnt = 1;
	css->online = false;
	INIT_LIST_HEAD(&css->sibling);
	INIT_LIST_HEAD(&css->children);
	INIT_RCU_WORK(&css->release_rwork, css_release_workfn);
	spin_lock_irqsave(&css_set_lock, flags);
	id = css_alloc_id(css);
	if (id > 0) {
		css->id = id;
		cg->refcount++;
		if (parent) {
			css_get(parent);
			list_add_tail(&css->sibling, &parent->children);
		}
	}
	spin_unlock_irqrestore(&css_set_lock, flags);
	return id > 0 ? 0 : id;
}

static void css_set_online(struct cgroup *cg, struct cgroup_subsys_state *css)
{
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	WRITE_ONCE(css->online, true);
	WRITE_ONCE(cg->subsys[css->ss->id], css);
	spin_unlock_irqrestore(&css_set_lock, flags);
}

/* Allocated, linked and online, or an error (a failed css_online releases it). */
static int css_bring_up(struct cgroup *cg, struct cgroup_subsys *ss,
			struct cgroup_subsys_state *parent)
{
	struct cgroup_subsys_state *css = ss->css_alloc(parent);
	int err;

	if (IS_ERR_OR_NULL(css))
		return css ? (int)PTR_ERR(css) : -ENOMEM;
	err = css_link(css, ss, cg, parent);
	if (err) {
		ss->css_free(css);
		return err;
	}
	err = ss->css_online ? ss->css_online(css) : 0;
	if (err) {
		css_put(css);
		return err;
	}
	css_set_online(cg, css);
	return 0;
}

int css_create_root(struct cgroup_subsys *ss)
{
	xa_init(&css_ids[ss->id]);
	return css_bring_up(&cgroup_root, ss, NULL);
}

int css_create(struct cgroup *cg, struct cgroup_subsys *ss)
{
	int err = css_bring_up(cg, ss, cgroup_e_css(cg->parent, ss->id));

	if (!err) {
		err = cgroup_add_css_files(cg, ss);
		if (err)
			css_kill(cg, ss);
	}
	return err;
}

struct cgroup_subsys_state *css_kill_keep_ref(struct cgroup *cg, struct cgroup_subsys *ss)
{
	struct cgroup_subsys_state *css = cg->subsys[ss->id];
	unsigned long flags;

	if (!css)
		return NULL;
	spin_lock_irqsave(&css_set_lock, flags);
	WRITE_ONCE(css->online, false);
	WRITE_ONCE(cg->subsys[ss->id], NULL);
	spin_unlock_irqrestore(&css_set_lock, flags);
	if (ss->css_offline)
		ss->css_offline(css);
	return css;
}

void css_kill(struct cgroup *cg, struct cgroup_subsys *ss)
{
	struct cgroup_subsys_state *css;

	cgroup_remove_css_files(cg, ss);
	css = css_kill_keep_ref(cg, ss);
	if (css)
		css_put(css);
}

/* Lock-free: subsys[] pointers are single stores and the parent chain is pinned. */
struct cgroup_subsys_state *cgroup_e_css(struct cgroup *cg, enum cgroup_subsys_id id)
{
	struct cgroup_subsys_state *css;

	for (; cg; cg = cg->parent) {
		css = READ_ONCE(cg->subsys[id]);
		if (css)
			return css;
	}
	return NULL; /* the controller is not registered */
}

struct cgroup_subsys_state *task_css(struct task_struct *task, enum cgroup_subsys_id id)
{
	struct cgroup *cg = READ_ONCE(task->cgroup);

	return cgroup_e_css(cg ? cg : &cgroup_root, id);
}

/*
 * cg->subsys[] holds online css's only, but one can go offline, and its count to zero,
 * between the read and the tryget: then the task resolves to another css (its cgroup's
 * parent's, or a new cgroup's after a move), so try again, as Linux's task_get_css().
 */
struct cgroup_subsys_state *task_get_css(struct task_struct *task, enum cgroup_subsys_id id)
{
	struct cgroup_subsys_state *css;

	rcu_read_lock();
	for (;;) {
		css = task_css(task, id);
		if (!css || css_tryget(css))
			break;
		cpu_relax();
	}
	rcu_read_unlock();
	return css;
}

/* Under the lock: a css leaves the ids, and is freed, only after css_set_lock is dropped. */
struct cgroup_subsys_state *css_from_id(int id, enum cgroup_subsys_id ss)
{
	struct cgroup_subsys_state *css;
	unsigned long flags;

	if (id <= 0 || !cgroup_subsys[ss])
		return NULL;
	spin_lock_irqsave(&css_set_lock, flags);
	css = xa_load(&css_ids[ss], (unsigned long)id);
	if (css && !css_tryget(css))
		css = NULL;
	spin_unlock_irqrestore(&css_set_lock, flags);
	return css;
}

/* The css after pos in a pre-order walk of root's subtree. css_set_lock held. */
static struct cgroup_subsys_state *next_pre(struct cgroup_subsys_state *pos,
					    struct cgroup_subsys_state *root)
{
	if (!pos)
		return root;
	if (!list_empty(&pos->children))
		return list_first_entry(&pos->children, struct cgroup_subsys_state, sibling);
	for (; pos != root; pos = pos->parent) {
		if (pos->sibling.next != &pos->parent->children)
			return list_next_entry(pos, sibling);
	}
	return NULL;
}

struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *root)
{
	struct cgroup_subsys_state *next = pos;
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	/* a css whose release is queued has no children and must not be revived: skip it */
	do
		next = next_pre(next, root);
	while (next && !css_get_unless_zero(next));
	spin_unlock_irqrestore(&css_set_lock, flags);
	if (pos)
		css_put(pos);
	return next;
}

void css_for_each_descendant(struct cgroup_subsys_state *root,
			     void (*fn)(struct cgroup_subsys_state *css, void *arg), void *arg)
{
	struct cgroup_subsys_state *pos;
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	for (pos = root; pos; pos = next_pre(pos, root))
		fn(pos, arg);
	spin_unlock_irqrestore(&css_set_lock, flags);
}

bool css_is_descendant(struct cgroup_subsys_state *css, struct cgroup_subsys_state *root)
{
	for (; css; css = css->parent)
		if (css == root)
			return true;
	return false;
}
