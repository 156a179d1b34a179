/*
 * Control groups (cgroup v2 hierarchy). Every task belongs to exactly one cgroup; the root
 * always exists. Controllers (memory, io) hang their state off the cgroup.
 */
#ifndef CGWB_CGROUP_H
#define CGWB_CGROUP_H

#include <cgwb/list.h>

struct task_struct;

#define CGROUP_NAME_MAX 64

struct cgroup {
	char name[CGROUP_NAME_MAX];
	struct cgroup *parent;
	struct list_head children;
	struct list_head sibling;
	int refcount;                 /* tasks and other holders; the hierarchy holds one */
	unsigned int nr_tasks;
	unsigned int id;              /* css id: root is 1 */
	bool dying;
};

extern struct cgroup cgroup_root;

void cgroup_init(void);
void cgroup_get(struct cgroup *cg);
void cgroup_put(struct cgroup *cg);
/* Move a task (not yet running or current) into cg. */
void cgroup_attach_task(struct cgroup *cg, struct task_struct *task);
/* Called as a task exits. */
void cgroup_exit_task(struct task_struct *task);
/* "/" for the root, "/a/b" for nested groups; returns the length. */
int cgroup_path(const struct cgroup *cg, char *buf, size_t size);

#endif
