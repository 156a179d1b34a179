/*
 * The cgroup hierarchy: the root, registration of controllers, cgroup lifetimes, lookup
 * by path, mkdir and rmdir. Task membership is in cgroup-tasks.c, controller states in
 * css.c, the filesystem in cgroupfs.c.
 *
 * Lifetime of a cgroup: mkdir links it below its parent with one reference for the
 * hierarchy; tasks and css's hold one each; a child holds one on its parent. rmdir
 * (refused with -EBUSY while it has tasks or children) unlinks it, takes its controllers
 * offline and drops the hierarchy's reference; the memory goes with the last reference,
 * which may be much later (a removed memcg lives on while pages are charged to it).
 */
#include "cgroup-internal.h"
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>

struct cgroup cgroup_root;
struct cgroup_subsys *cgroup_subsys[CGROUP_SUBSYS_COUNT];
DEFINE_MUTEX(cgroup_mutex);
DEFINE_SPINLOCK(css_set_lock);

static unsigned int next_cgroup_id = 2; /* cgroup_mutex; the root is 1 */

void cgroup_register_subsys(struct cgroup_subsys *ss)
{
	BUG_ON(ss->id >= CGROUP_SUBSYS_COUNT || cgroup_subsys[ss->id]);
	BUG_ON(!ss->css_alloc || !ss->css_free);
	cgroup_subsys[ss->id] = ss;
}

/* Every new task starts in the root cgroup; an exiting one leaves its cgroup. */
static void cgroup_task_init(struct task_struct *task)
{
	cgroup_attach_task(&cgroup_root, task);
}

static const struct task_hooks cgroup_task_hooks = {
	.init = cgroup_task_init,
	.exit = cgroup_exit_task,
};

void cgroup_init(void)
{
	struct cgroup_subsys *ss;
	int i;

	memset(&cgroup_root, 0, sizeof(cgroup_root));
	INIT_LIST_HEAD(&cgroup_root.children);
	INIT_LIST_HEAD(&cgroup_root.sibling);
	cgroup_root.refcount = 1;
	cgroup_root.id = 1;
	for_each_subsys(ss, i) {
		if (css_create_root(ss))
			panic("cgroup: cannot create the root state of controller %s", ss->name);
	}
	register_task_hooks(&cgroup_task_hooks);
}

unsigned int cgroup_registered_mask(void)
{
	struct cgroup_subsys *ss;
	unsigned int mask = 0;
	int i;

	for_each_subsys(ss, i)
		mask |= 1U << i;
	return mask;
}

unsigned int cgroup_controllers_mask(const struct cgroup *cg)
{
	return cg->parent ? READ_ONCE(cg->parent->subtree_control) : cgroup_registered_mask();
}

bool cgroup_controller_enabled(const struct cgroup *cg, enum cgroup_subsys_id id)
{
	return cgroup_subsys[id] && (cgroup_controllers_mask(cg) & (1U << id));
}

void cgroup_get(struct cgroup *cg)
{
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	BUG_ON(cg->refcount <= 0);
	cg->refcount++;
	spin_unlock_irqrestore(&css_set_lock, flags);
}

/* The last reference of a removed cgroup frees it; then its parent loses the child's. */
void cgroup_put(struct cgroup *cg)
{
	while (cg) {
		struct cgroup *parent = cg->parent;
		unsigned long flags;

		spin_lock_irqsave(&css_set_lock, flags);
		BUG_ON(cg->refcount <= 0);
		if (--cg->refcount) {
			spin_unlock_irqrestore(&css_set_lock, flags);
			return;
		}
		BUG_ON(cg == &cgroup_root || !cg->dying);
		for (struct cgroup *a = parent; a; a = a->parent)
			a->nr_dying_descendants--;
		spin_unlock_irqrestore(&css_set_lock, flags);
		psi_group_exit(&cg->psi);
		kfree(cg);
		cg = parent;
	}
}

int cgroup_path(const struct cgroup *cg, char *buf, size_t size)
{
	const struct cgroup *chain[CGROUP_MAX_DEPTH];
	int depth = 0, n = 0;

	if (!cg->parent)
		return scnprintf(buf, size, "/");
	for (; cg->parent && depth < CGROUP_MAX_DEPTH; cg = cg->parent)
		chain[depth++] = cg;
	while (depth--)
		n += scnprintf(buf + n, size - (size_t)n, "/%s", chain[depth]->name);
	return n;
}

/* A live child by name. css_set_lock held. */
static struct cgroup *find_child(struct cgroup *parent, const char *name, size_t len)
{
	struct cgroup *child;

	list_for_each_entry(child, &parent->children, sibling)
		if (strlen(child->name) == len && !memcmp(child->name, name, len))
			return child;
	return NULL;
}

struct cgroup *cgroup_lookup(const char *path)
{
	struct cgroup *cg = &cgroup_root;
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	while (cg) {
		size_t len;

		path += strspn(path, "/");
		len = strcspn(path, "/");
		if (!len)
			break;
		cg = find_child(cg, path, len);
		path += len;
	}
	if (cg)
		cg->refcount++;
	spin_unlock_irqrestore(&css_set_lock, flags);
	return cg;
}

/* "name." or the name of an interface file's prefix: those names belong to the files. */
static bool is_file_prefix(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);

	return !strncmp(name, prefix, len) && name[len] == '.';
}

static int check_name(const char *name)
{
	size_t len = strlen(name);
	struct cgroup_subsys *ss;
	int i;

	if (!len || strchr(name, '/') || strchr(name, '\n') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return -EINVAL;
	if (len >= CGROUP_NAME_MAX)
		return -ENAMETOOLONG;
	if (is_file_prefix(name, "cgroup"))
		return -EINVAL;
	for_each_subsys(ss, i)
		if (is_file_prefix(name, ss->name))
			return -EINVAL;
	return 0;
}

static struct cgroup *cgroup_alloc(struct cgroup *parent, const char *name)
{
	struct cgroup *cg = kzalloc(sizeof(*cg), GFP_KERNEL);

	if (!cg)
		return NULL;
	strlcpy(cg->name, name, sizeof(cg->name));
	INIT_LIST_HEAD(&cg->children);
	INIT_LIST_HEAD(&cg->sibling);
	cg->refcount = 1; /* the hierarchy's */
	cg->parent = parent;
	cg->level = parent->level + 1;
	cg->id = next_cgroup_id++;
	psi_group_init(&cg->psi, cgroup_psi(parent));
	return cg;
}

/* Below its parent, or out (rmdir): visible to lookups and the descendant counts. */
static void cgroup_link(struct cgroup *cg)
{
	unsigned long flags;

	spin_lock_irqsave(&css_set_lock, flags);
	cg->parent->refcount++;
	list_add_tail(&cg->sibling, &cg->parent->children);
	for (struct cgroup *a = cg->parent; a; a = a->parent)
		a->nr_descendants++;
	spin_unlock_irqrestore(&css_set_lock, flags);
}

/* Mark cg removed and unlink it, unless it is busy. cgroup_mutex held. */
static int cgroup_unlink(struct cgroup *cg, bool check_busy)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&css_set_lock, flags);
	if (cg->dying)
		err = -ENOENT;
	else if (check_busy && (cg->nr_tasks || !list_empty(&cg->children)))
		err = -EBUSY;
	if (!err) {
		cg->dying = true;
		list_del_init(&cg->sibling);
		for (struct cgroup *a = cg->parent; a; a = a->parent) {
			a->nr_descendants--;
			a->nr_dying_descendants++;
		}
	}
	spin_unlock_irqrestore(&css_set_lock, flags);
	return err;
}

/* ---------------------------------------------------------------- the filesystem's hooks */

static const struct cgroup_fs_hooks *fs_hooks;

void cgroup_register_fs_hooks(const struct cgroup_fs_hooks *hooks)
{
	lockdep_assert_mutex_held(&cgroup_mutex);
	WARN_ON_ONCE(fs_hooks && fs_hooks != hooks);
	WRITE_ONCE(fs_hooks, hooks); /* cgroup_remove_dir() reads it without the mutex */
}

int cgroup_create_dir(struct cgroup *cg)
{
	return fs_hooks ? fs_hooks->create_dir(cg) : 0;
}

void cgroup_remove_dir(struct cgroup *cg)
{
	const struct cgroup_fs_hooks *hooks = READ_ONCE(fs_hooks);

	if (hooks)
		hooks->remove_dir(cg);
}

int cgroup_add_css_files(struct cgroup *cg, struct cgroup_subsys *ss)
{
	return fs_hooks && ss->dfl_cftypes ? fs_hooks->add_css_files(cg, ss) : 0;
}

void cgroup_remove_css_files(struct cgroup *cg, struct cgroup_subsys *ss)
{
	if (fs_hooks)
		fs_hooks->remove_css_files(cg, ss);
}

/*
 * Tear down an unlinked cgroup: its controllers go offline under cgroup_mutex; then,
 * without it (file callbacks may be waiting for the mutex), the directory goes and the
 * references are dropped.
 */
static void cgroup_destroy(struct cgroup *cg)
{
	struct cgroup_subsys_state *killed[CGROUP_SUBSYS_COUNT] = { NULL };
	int i;

	for (i = CGROUP_SUBSYS_COUNT - 1; i >= 0; i--)
		if (cgroup_subsys[i])
			killed[i] = css_kill_keep_ref(cg, cgroup_subsys[i]);
	mutex_unlock(&cgroup_mutex);
	cgroup_remove_dir(cg);
	for (i = 0; i < CGROUP_SUBSYS_COUNT; i++)
		if (killed[i])
			css_put(killed[i]);
	cgroup_put(cg);
}

/* Controllers of the parent's subtree_control, then the directory with every file. */
static int cgroup_populate(struct cgroup *cg)
{
	unsigned int mask = cg->parent->subtree_control;
	struct cgroup_subsys *ss;
	int err, i;

	err = cgroup_create_dir(cg);
	for_each_subsys(ss, i) {
		if (!err && (mask & (1U << i)))
			err = css_create(cg, ss);
	}
	return err;
}

int cgroup_mkdir(struct cgroup *parent, const char *name, struct cgroup **out)
{
	struct cgroup *cg = NULL;
	unsigned long flags;
	int err = check_name(name);

	if (err)
		return err;
	mutex_lock(&cgroup_mutex);
	spin_lock_irqsave(&css_set_lock, flags);
	if (parent->dying)
		err = -ENOENT;
	else if (parent->level + 1 >= CGROUP_MAX_DEPTH)
		err = -EAGAIN;
	else if (find_child(parent, name, strlen(name)))
		err = -EEXIST;
	spin_unlock_irqrestore(&css_set_lock, flags);
	if (!err)
		cg = cgroup_alloc(parent, name);
	if (!err && !cg)
		err = -ENOMEM;
	if (err) {
		mutex_unlock(&cgroup_mutex);
		return err;
	}
	cgroup_link(cg);
	err = cgroup_populate(cg);
	if (err) {
		cgroup_unlink(cg, false);
		cgroup_destroy(cg); /* unlocks */
		return err;
	}
	mutex_unlock(&cgroup_mutex);
	if (out)
		*out = cg;
	return 0;
}

int cgroup_rmdir(struct cgroup *cg)
{
	int err;

	if (cg == &cgroup_root)
		return -EBUSY;
	mutex_lock(&cgroup_mutex);
	err = cgroup_unlink(cg, true);
	if (err) {
		mutex_unlock(&cgroup_mutex);
		return err;
	}
	cgroup_destroy(cg); /* unlocks */
	return 0;
}
