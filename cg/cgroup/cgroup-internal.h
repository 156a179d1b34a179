/*
 * Shared by the cgroup core's files: cgroup.c (the hierarchy and task membership), css.c
 * (controller states, ids, references) and subtree-control.c (enabling controllers); the
 * directories and files are fs/cgroupfs.c's.
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

/* The registered controllers as a mask. */
unsigned int cgroup_registered_mask(void);

/* css.c: create cg's own css of ss (online, files added) / take it offline and drop it. */
int css_create(struct cgroup *cg, struct cgroup_subsys *ss);
void css_kill(struct cgroup *cg, struct cgroup_subsys *ss);
/* Offline without dropping the cgroup's reference (rmdir drops it after the files went). */
struct cgroup_subsys_state *css_kill_keep_ref(struct cgroup *cg, struct cgroup_subsys *ss);
/* The root css of ss, at cgroup_init. */
int css_create_root(struct cgroup_subsys *ss);

/* cgroup.c: the filesystem's hooks, each a no-op (0) until it is mounted. */
int cgroup_create_dir(struct cgroup *cg);
void cgroup_remove_dir(struct cgroup *cg);
int cgroup_add_css_files(struct cgroup *cg, struct cgroup_subsys *ss);
void cgroup_remove_css_files(struct cgroup *cg, struct cgroup_subsys *ss);

#endif
