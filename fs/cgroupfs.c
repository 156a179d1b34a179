/*
 * The cgroup2 filesystem on /sys/fs/cgroup: a directory per cgroup (mkdir and rmdir there
 * create and remove cgroups) with the core's files, and each enabled controller's files
 * from its cftype table. The cgroup core (cg/cgroup/) is a floor below: it reaches these
 * directories through the hooks registered here as the filesystem mounts. Every write is
 * parsed completely before anything changes: bad input returns an error and leaves the
 * state as it was.
 */
#include <cgwb/cgroup.h>
#include <cgwb/pseudofs.h>
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>

#define PID_TEXT_MAX 24

static int cgroup_dir_mkdir(struct pseudo_node *parent, const char *name, void *private)
{
	return cgroup_mkdir(private, name, NULL);
}

static int cgroup_dir_rmdir(struct pseudo_node *parent, struct pseudo_node *dir, void *private)
{
	return cgroup_rmdir(pseudo_private(dir));
}

static const struct pseudo_dir_ops cgroup_dir_ops = {
	.mkdir = cgroup_dir_mkdir,
	.rmdir = cgroup_dir_rmdir,
};

/* ---------------------------------------------------------------- cgroup.procs */

struct pid_list {
	struct cgroup *cg;
	int *pids;
	unsigned int n, max;
};

/* With the task list locked: copy only. */
static void collect_pid(struct task_struct *t, void *arg)
{
	struct pid_list *l = arg;

	if (READ_ONCE(t->cgroup) == l->cg && t->state != TASK_DEAD && l->n < l->max)
		l->pids[l->n++] = t->pid;
}

static int procs_show(struct seq_buf *s, void *private)
{
	struct pid_list l = { .cg = private, .max = nr_tasks() + 16 };

	l.pids = kcalloc(l.max, sizeof(*l.pids), GFP_KERNEL);
	if (!l.pids)
		return -ENOMEM;
	for_each_task(collect_pid, &l)
		;
	for (unsigned int i = 0; i < l.n; i++)
		seq_printf(s, "%d\n", l.pids[i]);
	kfree(l.pids);
	return 0;
}

/* One pid per write, as Linux takes it: "123", " 123\n". */
static int parse_pid(const char *buf, size_t len, int *pid)
{
	char text[PID_TEXT_MAX];

	if (len >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, len);
	text[len] = '\0';
	if (kstrtoint(strim(text), 10, pid) || *pid < 0)
		return -EINVAL;
	return 0;
}

static int procs_store(const char *buf, size_t len, void *private)
{
	int pid, err = parse_pid(buf, len, &pid);

	return err ? err : cgroup_attach_pid(private, pid);
}

/* ---------------------------------------------------------------- controllers */

/* "memory io\n": the controllers of mask, by id order. */
static void cgroup_print_mask(struct seq_buf *s, unsigned int mask)
{
	bool first = true;

	for (int i = 0; i < CGROUP_SUBSYS_COUNT; i++) {
		if (cgroup_subsys[i] && (mask & (1U << i))) {
			seq_printf(s, "%s%s", first ? "" : " ", cgroup_subsys[i]->name);
			first = false;
		}
	}
	seq_putc(s, '\n');
}

static int controllers_show(struct seq_buf *s, void *private)
{
	cgroup_print_mask(s, cgroup_controllers_mask(private));
	return 0;
}

static int subtree_control_show(struct seq_buf *s, void *private)
{
	struct cgroup *cg = private;

	cgroup_print_mask(s, READ_ONCE(cg->subtree_control));
	return 0;
}

static int subtree_control_store(const char *buf, size_t len, void *private)
{
	return cgroup_subtree_control_write(private, buf);
}

/* ---------------------------------------------------------------- events and stat */

static int events_show(struct seq_buf *s, void *private)
{
	seq_printf(s, "populated %d\nfrozen 0\n", cgroup_is_populated(private));
	return 0;
}

static int stat_show(struct seq_buf *s, void *private)
{
	struct cgroup *cg = private;

	seq_printf(s, "nr_descendants %u\nnr_dying_descendants %u\n", READ_ONCE(cg->nr_descendants),
		   READ_ONCE(cg->nr_dying_descendants));
	return 0;
}

/* ---------------------------------------------------------------- pressure */
/* io.pressure, memory.pressure, cpu.pressure: Linux's core files, in every cgroup. */

static int io_pressure_show(struct seq_buf *s, void *private)
{
	return psi_show(s, cgroup_psi(private), PSI_IO);
}

static int memory_pressure_show(struct seq_buf *s, void *private)
{
	return psi_show(s, cgroup_psi(private), PSI_MEM);
}

static int cpu_pressure_show(struct seq_buf *s, void *private)
{
	return psi_show(s, cgroup_psi(private), PSI_CPU);
}

/* A trigger is taken if Linux would take it; no event follows (no poll() yet). */
static int pressure_store(const char *buf, enum psi_res res)
{
	struct psi_trigger_spec spec;

	return psi_trigger_parse(buf, res, &spec);
}

static int io_pressure_store(const char *buf, size_t len, void *private)
{
	return pressure_store(buf, PSI_IO);
}

static int memory_pressure_store(const char *buf, size_t len, void *private)
{
	return pressure_store(buf, PSI_MEM);
}

static int cpu_pressure_store(const char *buf, size_t len, void *private)
{
	return pressure_store(buf, PSI_CPU);
}

/* ---------------------------------------------------------------- directories */

/* Linux's cgroup_base_files: in every cgroup, each given the cgroup itself. */
static const struct cftype cgroup_base_files[] = {
	{ "cgroup.procs", 0644, 0, procs_show, procs_store },
	{ "cgroup.controllers", 0444, 0, controllers_show, NULL },
	{ "cgroup.subtree_control", 0644, 0, subtree_control_show, subtree_control_store },
	{ "cgroup.events", 0444, CFTYPE_NOT_ON_ROOT, events_show, NULL },
	{ "cgroup.stat", 0444, 0, stat_show, NULL },
	{ "io.pressure", 0644, 0, io_pressure_show, io_pressure_store },
	{ "memory.pressure", 0644, 0, memory_pressure_show, memory_pressure_store },
	{ "cpu.pressure", 0644, 0, cpu_pressure_show, cpu_pressure_store },
	{ NULL },
};

/* The files of a table that belong in cg's directory, each given private. */
static int cgroupfs_add_files(struct cgroup *cg, const struct cftype *cfts, void *private)
{
	for (const struct cftype *cft = cfts; cft->name; cft++) {
		struct pseudo_node *node;

		if ((cft->flags & CFTYPE_NOT_ON_ROOT) && !cg->parent)
			continue;
		if ((cft->flags & CFTYPE_ONLY_ON_ROOT) && cg->parent)
			continue;
		node = pseudo_create_file(cg->dir, cft->name, cft->mode, cft->show, cft->store,
					  private);
		if (IS_ERR_OR_NULL(node))
			return node ? (int)PTR_ERR(node) : -ENOMEM;
	}
	return 0;
}

/*
 * The directory (left in place on error: the caller's teardown removes it once it has
 * dropped cgroup_mutex, since a file callback may already be waiting for the mutex).
 */
static int cgroupfs_create_dir(struct cgroup *cg)
{
	struct pseudo_node *dir;

	if (!cg->parent->dir)
		return 0; /* made before the filesystem was up: no directories below it */
	dir = pseudo_mkdir_ops(cg->parent->dir, cg->name, &cgroup_dir_ops, cg);
	if (IS_ERR(dir))
		return (int)PTR_ERR(dir);
	cg->dir = dir;
	return cgroupfs_add_files(cg, cgroup_base_files, cg);
}

static void cgroupfs_remove_dir(struct cgroup *cg)
{
	struct pseudo_node *dir = cg->dir;

	cg->dir = NULL;
	pseudo_remove(dir);
}

/* ss's files in cg's directory, each given ss's css there. */
static int cgroupfs_add_css_files(struct cgroup *cg, struct cgroup_subsys *ss)
{
	struct cgroup_subsys_state *css = cg->subsys[ss->id];

	if (!cg->dir || !css)
		return 0;
	return cgroupfs_add_files(cg, ss->dfl_cftypes, css);
}

static void cgroupfs_remove_css_files(struct cgroup *cg, struct cgroup_subsys *ss)
{
	char prefix[CGROUP_NAME_MAX];

	if (!cg->dir)
		return;
	scnprintf(prefix, sizeof(prefix), "%s.", ss->name);
	/* io.pressure and memory.pressure are the core's, whatever the controllers */
	pseudo_remove_prefixed_except(cg->dir, prefix, ".pressure");
}

static const struct cgroup_fs_hooks cgroupfs_hooks = {
	.create_dir = cgroupfs_create_dir,
	.remove_dir = cgroupfs_remove_dir,
	.add_css_files = cgroupfs_add_css_files,
	.remove_css_files = cgroupfs_remove_css_files,
};

/* The root's files, then the hooks (cgroups made from now on get directories), then the mount. */
int cgroup_fs_init(void)
{
	struct pseudo_node *root = pseudo_fs_register("cgroup2", CGROUP2_SUPER_MAGIC);
	int err;

	if (IS_ERR(root))
		return (int)PTR_ERR(root);
	pseudo_set_dir_ops(root, &cgroup_dir_ops, &cgroup_root);
	mutex_lock(&cgroup_mutex);
	cgroup_root.dir = root;
	err = cgroupfs_add_files(&cgroup_root, cgroup_base_files, &cgroup_root);
	for (int i = 0; i < CGROUP_SUBSYS_COUNT; i++) {
		if (!err && cgroup_subsys[i] && cgroup_subsys[i]->dfl_cftypes)
			err = cgroupfs_add_css_files(&cgroup_root, cgroup_subsys[i]);
	}
	if (!err)
		cgroup_register_fs_hooks(&cgroupfs_hooks);
	mutex_unlock(&cgroup_mutex);
	if (!err)
		err = do_mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	if (err)
		pr_err("cgroup: cannot set up /sys/fs/cgroup: %d\n", err);
	return err;
}
