/*
 * Control groups: the cgroup v2 hierarchy shown at /sys/fs/cgroup.
 *
 * Every task belongs to exactly one cgroup; the root always exists. A controller (memory,
 * io) is enabled on a cgroup when its parent lists it in cgroup.subtree_control (always on
 * the root); it then has a cgroup_subsys_state (css) there. The css that governs a cgroup
 * for a controller is its own if enabled, else the nearest ancestor's (the "effective"
 * css): a task in /a/b where only /a has memory enabled is charged to /a's memcg.
 *
 * css ids are small positive integers per controller; the root's is 1. A css goes
 * offline at rmdir, or when its controller is disabled on the cgroup (no new users:
 * css_tryget fails), and is freed when its last reference goes. Until then it stays in
 * the css tree below its parent, so walks of a subtree (reclaim, hierarchical statistics)
 * still see the offline css and whatever is charged to it.
 */
#ifndef CGWB_CGROUP_H
#define CGWB_CGROUP_H

#include <cgwb/list.h>
#include <cgwb/mutex.h>
#include <cgwb/workqueue.h>
#include <cgwb/psi.h>
#include <cgwb/pseudofs.h>

struct task_struct;
struct cgroup;
struct cgroup_subsys;
struct pseudo_node;

#define CGROUP_NAME_MAX 64
#define CGROUP_MAX_DEPTH 16 /* mkdir deeper fails with -EAGAIN */
#define CGROUP2_SUPER_MAGIC 0x63677270

enum cgroup_subsys_id {
	memory_cgrp_id,
	io_cgrp_id,
	pids_cgrp_id,
	CGROUP_SUBSYS_COUNT,
};

struct cgroup_subsys_state {
	struct cgroup *cgroup; /* referenced */
	struct cgroup_subsys *ss;
	struct cgroup_subsys_state *parent; /* the parent cgroup's effective css, referenced */
	int id;
	int refcnt; /* the cgroup holds one while online */
	bool online;
	/* the core's: the css tree (kept until release) and the release, a grace period late */
	struct list_head sibling;
	struct list_head children;
	struct rcu_work release_rwork;
};

/*
 * A controller's interface file (Linux's struct cftype): show and store are given the
 * file's css as their private pointer. A table of them ends with an entry without a name.
 */
struct cftype {
	const char *name; /* "memory.max" */
	umode_t mode;
	unsigned int flags; /* CFTYPE_* */
	pseudo_show_t show;
	pseudo_store_t store;
};
#define CFTYPE_ONLY_ON_ROOT (1U << 0)
#define CFTYPE_NOT_ON_ROOT (1U << 1)

/*
 * A controller: creates and destroys its per-cgroup state and declares its interface files.
 * css_alloc fills only the controller's part: the core sets the css fields, the id, and
 * links the css into the tree before css_online. Its files must be named "<name>.*" (the
 * filesystem removes them by that prefix when the controller is disabled), and their
 * callbacks must not take cgroup_mutex (the core waits for them while holding it).
 */
struct cgroup_subsys {
	const char *name; /* "memory", "io" */
	enum cgroup_subsys_id id;
	struct cgroup_subsys_state *(*css_alloc)(struct cgroup_subsys_state *parent);
	int (*css_online)(struct cgroup_subsys_state *css);
	/* rmdir (or the controller disabled): stop new users, release what can be */
	void (*css_offline)(struct cgroup_subsys_state *css);
	void (*css_free)(struct cgroup_subsys_state *css);
	/* its files (memory.max, io.stat...), in every cgroup where it is enabled */
	const struct cftype *dfl_cftypes;
	/* a task moves into css's cgroup (after the move; called atomically: must not sleep) */
	void (*attach)(struct task_struct *task, struct cgroup_subsys_state *css);
};

struct cgroup {
	char name[CGROUP_NAME_MAX];
	struct cgroup *parent;     /* referenced */
	struct list_head children; /* live children only */
	struct list_head sibling;
	int refcount;                 /* tasks and other holders; the hierarchy holds one */
	unsigned int nr_tasks;        /* in this cgroup itself */
	unsigned int id;              /* cgroup id: root is 1 */
	unsigned int level;           /* root 0 */
	bool dying;                   /* removed: no new children, tasks go to the parent */
	unsigned int subtree_control; /* bit per controller enabled for the children */
	struct cgroup_subsys_state *subsys[CGROUP_SUBSYS_COUNT]; /* own css where enabled */
	struct pseudo_node *dir;           /* its directory under /sys/fs/cgroup */
	unsigned int nr_descendants;       /* live ones (cgroup.stat) */
	unsigned int nr_dying_descendants; /* removed but still referenced */
	struct psi_group psi;              /* its pressure (the root's is psi_system) */
};

/* The pressure stall group of cg: its own, psi_system for the root (Linux's cgroup_psi()). */
static inline struct psi_group *cgroup_psi(struct cgroup *cg)
{
	return cg->parent ? &cg->psi : &psi_system;
}

extern struct cgroup cgroup_root;
extern struct cgroup_subsys *cgroup_subsys[CGROUP_SUBSYS_COUNT];
/*
 * Serialises hierarchy changes: mkdir, rmdir, subtree_control and moves through
 * cgroup.procs. Task membership itself (task->cgroup, nr_tasks) and css references are
 * under a spinlock, so tasks are created, moved and exit without it.
 */
extern struct mutex cgroup_mutex;

/**
 * cgroup_init() - create the root cgroup and each registered controller's root state
 *
 * Tasks created from then on join their creator's cgroup (the task hooks). A controller
 * whose root state cannot be made panics.
 *
 * Context: boot, once, after the controllers registered.
 */
void cgroup_init(void);
/**
 * cgroup_register_subsys() - register a controller
 * @ss: the controller, static, with its css_alloc() and css_free()
 *
 * Context: boot, before cgroup_init() (its root css is created there).
 */
void cgroup_register_subsys(struct cgroup_subsys *ss);
/**
 * cgroup_subtree_nr_tasks() - the tasks in a cgroup and its live descendants (pids.current)
 * @cg: the cgroup
 *
 * Context: any context; takes css_set_lock (irq-safe); never sleeps.
 * Return: the count.
 */
unsigned int cgroup_subtree_nr_tasks(struct cgroup *cg);

/* The pids controller (cg/pids/pids.c). */
extern struct cgroup_subsys pids_cgrp_subsys;
/**
 * pids_fork_begin() - may one more task join a cgroup?
 * @cg: the cgroup the new task is to join
 *
 * On success the pids fork mutex stays held: the caller attaches its child, then calls
 * pids_fork_end(). A refusal is counted in the forking task's own pids group
 * (pids.events max) and logged the first time.
 *
 * Context: process context; may sleep (the mutex).
 * Return: 0, or -EAGAIN if a pids.max of @cg or an ancestor forbids it.
 */
int pids_fork_begin(struct cgroup *cg);
/**
 * pids_fork_end() - end a fork pids_fork_begin() allowed
 *
 * Context: the task that called pids_fork_begin(), after it attached its child.
 */
void pids_fork_end(void);
/**
 * cgroup_fs_init() - mount the hierarchy on /sys/fs/cgroup (fs/cgroupfs.c)
 *
 * The root's files (the core ones and each controller's), the filesystem's hooks (cgroups
 * made from then on get directories), then the cgroup2 mount.
 *
 * Context: boot, once, after vfs_init(); may sleep.
 * Return: 0, or a negative errno (logged).
 */
int cgroup_fs_init(void);

/*
 * The cgroup filesystem (fs/cgroupfs.c) is a floor above the core: it registers these as
 * it mounts, with cgroup_mutex held; until then cgroups have no directories (early boot,
 * host tests). create_dir makes cg's directory with the core's files, add_css_files adds
 * ss's files there (both with cgroup_mutex held; on error the directory is left to
 * remove_dir, which runs without the mutex: a file callback may be waiting for it);
 * remove_css_files removes ss's files (the controller disabled), with the mutex held.
 */
struct cgroup_fs_hooks {
	int (*create_dir)(struct cgroup *cg);
	void (*remove_dir)(struct cgroup *cg);
	int (*add_css_files)(struct cgroup *cg, struct cgroup_subsys *ss);
	void (*remove_css_files)(struct cgroup *cg, struct cgroup_subsys *ss);
};
/**
 * cgroup_register_fs_hooks() - give the core its filesystem's hooks
 * @hooks: static; registered once (another set later is warned about and replaces it)
 *
 * Context: cgroup_mutex held (the filesystem mounting: cgroup_fs_init()).
 */
void cgroup_register_fs_hooks(const struct cgroup_fs_hooks *hooks);
/**
 * cgroup_controllers_mask() - the controllers a cgroup may enable for its children
 * @cg: the cgroup
 *
 * What its parent's cgroup.subtree_control gave it; every registered controller for the
 * root (cgroup.controllers).
 *
 * Context: any context; a lockless read.
 * Return: a mask with bit 1 << id per controller.
 */
unsigned int cgroup_controllers_mask(const struct cgroup *cg);
/**
 * cgroup_subtree_control_write() - apply a write of cgroup.subtree_control
 * @cg: the cgroup whose children get or lose the controllers
 * @buf: "+memory -io": words of +NAME or -NAME, parsed whole before anything changes
 *
 * Enabling io brings memory along; disabling memory while io stays is refused.
 *
 * Context: process context; takes cgroup_mutex; may sleep.
 * Return: 0; -EINVAL for a bad word, an unknown or unavailable controller, or memory
 * taken away from io; -EBUSY while a child still hands down what would go; -ENODEV if @cg
 * was removed; -ENOMEM.
 */
int cgroup_subtree_control_write(struct cgroup *cg, const char *buf);
void cgroup_get(struct cgroup *cg);
/**
 * cgroup_put() - drop a reference on a cgroup
 * @cg: the cgroup
 *
 * The last reference of a removed cgroup frees it; its parent then loses the child's
 * reference, the same way.
 *
 * Context: any context where css_set_lock may be taken; never sleeps.
 */
void cgroup_put(struct cgroup *cg);
/**
 * cgroup_attach_task() - move a task into a cgroup
 * @cg: the cgroup; a removed one's nearest live ancestor takes its place
 * @task: the task: one not yet running, or current
 *
 * Its controllers' states follow (each controller's attach).
 *
 * Context: process context; takes css_set_lock (irq-safe).
 */
void cgroup_attach_task(struct cgroup *cg, struct task_struct *task);
/**
 * cgroup_attach_pid() - move a task into a cgroup by pid (a write to cgroup.procs)
 * @cg: the cgroup
 * @pid: the task's pid; 0 is the caller
 *
 * Context: process context; takes cgroup_mutex, then css_set_lock; may sleep.
 * Return: 0; -EINVAL for a negative pid or a kernel thread (they stay in the root);
 * -ESRCH if no such task lives; -ENODEV if @cg was removed.
 */
int cgroup_attach_pid(struct cgroup *cg, int pid);
/* Called as a task exits. */
void cgroup_exit_task(struct task_struct *task);
/**
 * cgroup_path() - a cgroup's path in the hierarchy
 * @cg: the cgroup
 * @buf: where to print it
 * @size: room in @buf
 *
 * "/" for the root, "/a/b" for nested groups, cut to @size.
 *
 * Context: any context where the cgroup's names cannot change (they do not after mkdir).
 * Return: the length printed.
 */
int cgroup_path(const struct cgroup *cg, char *buf, size_t size);
/**
 * cgroup_lookup() - the cgroup at a path
 * @path: relative to the hierarchy's root ("a/b", "/a/b"); repeated slashes are one
 *
 * Only live cgroups are found.
 *
 * Context: any context; takes css_set_lock (irq-safe); never sleeps.
 * Return: the cgroup with a reference (cgroup_put() it), or NULL.
 */
struct cgroup *cgroup_lookup(const char *path);
/**
 * cgroup_mkdir() - create a cgroup (what mkdir in the cgroup filesystem calls)
 * @parent: its parent
 * @name: its name: no '/', newline, "." or "..", shorter than CGROUP_NAME_MAX, and not
 *        the prefix of a file name ("cgroup.*", "memory.*"...)
 * @out: set to the new cgroup on success (the hierarchy holds it), or NULL
 *
 * The parent's cgroup.subtree_control gives it its controllers; its directory comes with
 * them once the filesystem is up.
 *
 * Context: process context; takes cgroup_mutex; may sleep.
 * Return: 0; -EINVAL or -ENAMETOOLONG for the name; -EEXIST; -ENOENT if @parent was
 * removed; -EAGAIN past CGROUP_MAX_DEPTH; -ENOMEM or a controller's error.
 */
int cgroup_mkdir(struct cgroup *parent, const char *name, struct cgroup **out);
/**
 * cgroup_rmdir() - remove a cgroup without tasks or children (what rmdir calls)
 * @cg: the cgroup
 *
 * Its controllers go offline; it is freed when the last reference goes (pages charged to
 * it keep it as a dying descendant).
 *
 * Context: process context; takes cgroup_mutex; may sleep.
 * Return: 0; -EBUSY for the root or a cgroup with tasks or children; -ENOENT if removed
 * already.
 */
int cgroup_rmdir(struct cgroup *cg);
/**
 * cgroup_is_populated() - does a cgroup or a descendant hold a task?
 * @cg: the cgroup
 *
 * cgroup.events' "populated".
 *
 * Context: any context; takes css_set_lock (irq-safe); never sleeps.
 * Return: true if it does.
 */
bool cgroup_is_populated(struct cgroup *cg);

/**
 * cgroup_e_css() - a cgroup's effective state for a controller
 * @cg: the cgroup
 * @id: the controller
 *
 * The state of @cg or of its nearest ancestor where the controller is enabled. Lock-free;
 * no reference is taken.
 *
 * Context: any context; never sleeps.
 * Return: the css; the root's at worst (NULL only for a controller not registered).
 */
struct cgroup_subsys_state *cgroup_e_css(struct cgroup *cg, enum cgroup_subsys_id id);
/**
 * task_css() - a task's effective state for a controller
 * @task: the task (outside any cgroup: the root's)
 * @id: the controller
 *
 * No reference is taken: the css may be freed a grace period after the task leaves it,
 * so the caller holds rcu_read_lock() or keeps it otherwise (task_get_css() takes one).
 *
 * Context: any context; never sleeps.
 * Return: the css; the root's at worst.
 */
struct cgroup_subsys_state *task_css(struct task_struct *task, enum cgroup_subsys_id id);
/**
 * task_get_css() - a task's effective state for a controller, with a reference
 * @task: the task
 * @id: the controller
 *
 * Tries again if the css went offline between the read and the reference, as Linux's.
 *
 * Context: any context; never sleeps.
 * Return: the css with a reference (online when taken).
 */
struct cgroup_subsys_state *task_get_css(struct task_struct *task, enum cgroup_subsys_id id);
/**
 * css_from_id() - a controller's state by its id
 * @id: the css id (a memcg's mem_cgroup_id()...)
 * @ss: the controller
 *
 * Context: any context; takes css_set_lock (irq-safe); never sleeps.
 * Return: the css with a reference if it is online, else NULL.
 */
struct cgroup_subsys_state *css_from_id(int id, enum cgroup_subsys_id ss);
/**
 * css_get() - take another reference on a css
 * @css: the css, on which the caller holds a reference already
 *
 * Context: any context; never sleeps.
 */
void css_get(struct cgroup_subsys_state *css);
bool css_tryget(struct cgroup_subsys_state *css); /* fails once offline */
/**
 * css_put() - drop a reference on a css
 * @css: the css
 *
 * The last reference queues its release a grace period later, as Linux's css_free_rwork,
 * so that a lockless reader that reached it through an RCU-protected pointer still finds
 * it.
 *
 * Context: any context, interrupts off included (a page's uncharge); never sleeps.
 */
void css_put(struct cgroup_subsys_state *css);
static inline bool css_is_dying(const struct cgroup_subsys_state *css)
{
	return !css->online;
}
/* Is the controller enabled on cg (its parent's subtree_control lists it, or cg is root)? */
bool cgroup_controller_enabled(const struct cgroup *cg, enum cgroup_subsys_id id);

/* Walks of a css subtree, root first (pre-order), offline css included. */
/**
 * css_next_descendant_pre() - the next css of a pre-order walk of a subtree
 * @pos: the css the previous step returned, whose reference is dropped; NULL to start
 * @root: the subtree's root
 *
 * Offline css are visited too; one whose release is queued is skipped. The caller may
 * sleep between steps; stopping early, it puts the css it holds.
 *
 * Context: any context; takes css_set_lock (irq-safe); never sleeps.
 * Return: the next css with a reference (@root first), or NULL at the end.
 */
struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *root);
/**
 * css_for_each_descendant() - call a function on each css of a subtree, pre-order
 * @root: the subtree's root, visited first
 * @fn: called with each css and @arg, under css_set_lock with interrupts off: it must not
 *      sleep (quick sums such as hierarchical statistics)
 * @arg: passed to @fn
 *
 * Context: any context.
 */
void css_for_each_descendant(struct cgroup_subsys_state *root,
			     void (*fn)(struct cgroup_subsys_state *css, void *arg), void *arg);
/**
 * css_is_descendant() - is a css a subtree's root or below it?
 * @css: the css
 * @root: the subtree's root
 *
 * Context: any context, both css held.
 * Return: true if it is.
 */
bool css_is_descendant(struct cgroup_subsys_state *css, struct cgroup_subsys_state *root);

#endif
