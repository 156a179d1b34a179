/*
 * Shared by the cgroup core's files: cgroup.c (the hierarchy and task membership), css.c
 * (controller states, ids, references), cgroupfs.c (the directories and core files) and
 * subtree-control.c (enabling controllers).
 */
#ifndef CGWB_CG_CGROUP_INTERNAL_H
#define CGWB_CG_CGROUP_INTERNAL_H

#include <cgwb/cgroup.h>
#include <cgwb/spinlock.h>

/*
 * Task membership (task->cgroup, nr_tasks), cgroup and css reference counts, cg->subsys[],
 * the cgroup and css trees and the css id tables. Taken with irqsave: pages are uncharged
 * (a css_put) with the page-cache lock held and interrupts off.
 */
extern spinlock_t css_set_lock;

#define for_each_subsys(ss, i)                          \
	for ((i) = 0; (i) < CGROUP_SUBSYS_COUNT; (i)++) \
		if (!((ss) = cgroup_subsys[i])) {       \
		} else

/* Controllers a cgroup may enable for its children: what its parent gave it. */
unsigned int cgroup_controllers_mask(const struct cgroup *cg);
/* The registered controllers as a mask. */
unsigned int cgroup_registered_mask(void);

/* css.c: create cg's own css of ss (online, files added) / take it offline and drop it. */
int css_create(struct cgroup *cg, struct cgroup_subsys *ss);
void css_kill(struct cgroup *cg, struct cgroup_subsys *ss);
/* Offline without dropping the cgroup's reference (rmdir drops it after the files went). */
struct cgroup_subsys_state *css_kill_keep_ref(struct cgroup *cg, struct cgroup_subsys *ss);
/* The root css of ss, at cgroup_init. */
int css_create_root(struct cgroup_subsys *ss);

/* cgroupfs.c: a cgroup's directory and core files, if the filesystem is up. */
int cgroup_create_dir(struct cgroup *cg);
void cgroup_remove_dir(struct cgroup *cg);
/* Remove a controller's files ("memory.*") from cg's directory. */
void cgroup_remove_ss_files(struct cgroup *cg, struct cgroup_subsys *ss);

/* subtree-control.c: apply a write of cgroup.subtree_control ("+memory -io"). */
int cgroup_subtree_control_write(struct cgroup *cg, const char *buf);
/* "memory io\n": the controllers of mask, by id order. */
struct seq_buf;
void cgroup_print_mask(struct seq_buf *s, unsigned int mask);

#endif
