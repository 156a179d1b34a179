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

void cgroup_init(void);
/* Register a controller before cgroup_init (its root css is created there). */
void cgroup_register_subsys(struct cgroup_subsys *ss);
/* Tasks in cg and its live descendants (pids.current). */
unsigned int cgroup_subtree_nr_tasks(struct cgroup *cg);

/*
 * The pids controller (cg/pids/pids.c). A fork into cg: pids_fork_begin() is 0 if no
 * group's pids.max forbids one more task (then the caller attaches its child and calls
 * pids_fork_end()), or -EAGAIN (counted, logged once). May sleep.
 */
extern struct cgroup_subsys pids_cgrp_subsys;
int pids_fork_begin(struct cgroup *cg);
void pids_fork_end(void);
/* Mount the hierarchy on /sys/fs/cgroup (fs/cgroupfs.c, after vfs_init): 0 or -errno. */
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
void cgroup_register_fs_hooks(const struct cgroup_fs_hooks *hooks);
/* Controllers a cgroup may enable for its children: what its parent gave it. */
unsigned int cgroup_controllers_mask(const struct cgroup *cg);
/* Apply a write of cgroup.subtree_control ("+memory -io"): 0 or -errno. */
int cgroup_subtree_control_write(struct cgroup *cg, const char *buf);
void cgroup_get(struct cgroup *cg);
void cgroup_put(struct cgroup *cg);
/* Move a task (not yet running, or current) into cg (its nearest live ancestor if removed). */
void cgroup_attach_task(struct cgroup *cg, struct task_struct *task);
/* Move the task with this pid (0: current) into cg, as a write to cg's cgroup.procs. */
int cgroup_attach_pid(struct cgroup *cg, int pid);
/* Called as a task exits. */
void cgroup_exit_task(struct task_struct *task);
/* "/" for the root, "/a/b" for nested groups; returns the length. */
int cgroup_path(const struct cgroup *cg, char *buf, size_t size);
/* The cgroup at a path relative to the hierarchy root ("a/b", "/a/b"), referenced. */
struct cgroup *cgroup_lookup(const char *path);
/* mkdir / rmdir without the filesystem (what the cgroupfs calls): 0 or -errno. */
int cgroup_mkdir(struct cgroup *parent, const char *name, struct cgroup **out);
int cgroup_rmdir(struct cgroup *cg);
/* Does cg or a descendant hold a task (cgroup.events "populated")? */
bool cgroup_is_populated(struct cgroup *cg);

/* Effective css of a cgroup / task for a controller (never NULL: the root's at worst). */
struct cgroup_subsys_state *cgroup_e_css(struct cgroup *cg, enum cgroup_subsys_id id);
struct cgroup_subsys_state *task_css(struct task_struct *task, enum cgroup_subsys_id id);
/* The task's effective css, referenced (online when taken). */
struct cgroup_subsys_state *task_get_css(struct task_struct *task, enum cgroup_subsys_id id);
/* The css with this id, referenced, if online. */
struct cgroup_subsys_state *css_from_id(int id, enum cgroup_subsys_id ss);
void css_get(struct cgroup_subsys_state *css);
bool css_tryget(struct cgroup_subsys_state *css); /* fails once offline */
void css_put(struct cgroup_subsys_state *css);
static inline bool css_is_dying(const struct cgroup_subsys_state *css)
{
	return !css->online;
}
/* Is the controller enabled on cg (its parent's subtree_control lists it, or cg is root)? */
bool cgroup_controller_enabled(const struct cgroup *cg, enum cgroup_subsys_id id);

/*
 * Walks of a css subtree, root first (pre-order), offline css included:
 * - css_next_descendant_pre returns the css after pos (pos NULL: root itself), referenced,
 *   and drops the caller's reference on pos; NULL at the end. The caller may sleep between
 *   steps; stopping early, it puts the css it holds.
 * - css_for_each_descendant calls fn on each css with the css lock held (fn must not
 *   sleep): for quick sums such as hierarchical statistics.
 */
struct cgroup_subsys_state *css_next_descendant_pre(struct cgroup_subsys_state *pos,
						    struct cgroup_subsys_state *root);
void css_for_each_descendant(struct cgroup_subsys_state *root,
			     void (*fn)(struct cgroup_subsys_state *css, void *arg), void *arg);
/* Is css root or below it? */
bool css_is_descendant(struct cgroup_subsys_state *css, struct cgroup_subsys_state *root);

#endif
