/*
 * The pids controller (Linux's kernel/cgroup/pids.c): pids.max bounds the tasks of a
 * group and its descendants; a fork that would take any group with a limit past it fails
 * with -EAGAIN, counted in the forking group's pids.events ("max") and logged once, as
 * Linux's. pids.current is the tasks of the group and its descendants (the cgroup core
 * counts them: nothing is charged here). Moving a task in with cgroup.procs or cgexec is
 * not refused (Linux's migration is not either). pids.max, pids.current and pids.events
 * are not on the root.
 *
 * Forks (sys/process.c) check and attach their child under pids_fork_mutex, so that two
 * forks at once cannot both take the last slot.
 */
#include <cgwb/cgroup.h>
#include <cgwb/pseudofs.h>
#include <cgwb/seq_buf.h>
#include <cgwb/slab.h>
#include <cgwb/mutex.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>

#define PIDS_MAX (~0ULL >> 1) /* "max" */

struct pids_cgroup {
	struct cgroup_subsys_state css;
	u64 limit;
	unsigned long events_max;
};

static DEFINE_MUTEX(pids_fork_mutex);

static struct pids_cgroup *css_pids(struct cgroup_subsys_state *css)
{
	return container_of(css, struct pids_cgroup, css);
}

static struct cgroup_subsys_state *pids_css_alloc(struct cgroup_subsys_state *parent)
{
	struct pids_cgroup *pids = kzalloc(sizeof(*pids), GFP_KERNEL);

	if (!pids)
		return NULL;
	pids->limit = PIDS_MAX;
	return &pids->css;
}

static void pids_css_free(struct cgroup_subsys_state *css)
{
	kfree(css_pids(css));
}

static int pids_max_show(struct seq_buf *s, void *private)
{
	u64 limit = READ_ONCE(css_pids(private)->limit);

	if (limit == PIDS_MAX)
		seq_puts(s, "max\n");
	else
		seq_printf(s, "%llu\n", (unsigned long long)limit);
	return 0;
}

static int pids_max_store(const char *buf, size_t len, void *private)
{
	char word[24];
	size_t n = strcspn(buf, " \t\n");
	u64 limit;

	if (!n || n >= sizeof(word) || buf[n + strspn(buf + n, " \t\n")])
		return -EINVAL;
	memcpy(word, buf, n);
	word[n] = 0;
	if (!strcmp(word, "max"))
		limit = PIDS_MAX;
	else if (kstrtoull(word, 10, &limit) || limit >= PIDS_MAX)
		return -EINVAL;
	WRITE_ONCE(css_pids(private)->limit, limit);
	return 0;
}

static int pids_current_show(struct seq_buf *s, void *private)
{
	struct cgroup_subsys_state *css = private;

	seq_printf(s, "%u\n", cgroup_subtree_nr_tasks(css->cgroup));
	return 0;
}

static int pids_events_show(struct seq_buf *s, void *private)
{
	seq_printf(s, "max %lu\n", READ_ONCE(css_pids(private)->events_max));
	return 0;
}

/* Not on the root, as Linux's: the root has no limit. */
static const struct cftype pids_files[] = {
	{ "pids.max", 0644, CFTYPE_NOT_ON_ROOT, pids_max_show, pids_max_store },
	{ "pids.current", 0444, CFTYPE_NOT_ON_ROOT, pids_current_show, NULL },
	{ "pids.events", 0444, CFTYPE_NOT_ON_ROOT, pids_events_show, NULL },
	{ NULL },
};

/* The group whose limit one more task in cg would break, or NULL. */
static struct cgroup *over_limit(struct cgroup *cg)
{
	for (struct cgroup *a = cg; a; a = a->parent) {
		struct cgroup_subsys_state *css = a->subsys[pids_cgrp_id];
		u64 limit = css ? READ_ONCE(css_pids(css)->limit) : PIDS_MAX;

		if (limit != PIDS_MAX && cgroup_subtree_nr_tasks(a) + 1 > limit)
			return a;
	}
	return NULL;
}

int pids_fork_begin(struct cgroup *cg)
{
	struct cgroup *over;
	char path[64];

	mutex_lock(&pids_fork_mutex);
	over = over_limit(cg);
	if (!over)
		return 0;
	mutex_unlock(&pids_fork_mutex);
	for (struct cgroup *a = cg; a; a = a->parent) {
		struct cgroup_subsys_state *css = a->subsys[pids_cgrp_id];

		if (css) { /* the forking task's own pids group counts the refusal */
			if (!__atomic_fetch_add(&css_pids(css)->events_max, 1, __ATOMIC_RELAXED)) {
				cgroup_path(over, path, sizeof(path));
				pr_info("cgroup: fork rejected by pids controller in %s\n", path);
			}
			break;
		}
	}
	return -EAGAIN;
}

void pids_fork_end(void)
{
	mutex_unlock(&pids_fork_mutex);
}

struct cgroup_subsys pids_cgrp_subsys = {
	.name = "pids",
	.id = pids_cgrp_id,
	.css_alloc = pids_css_alloc,
	.css_free = pids_css_free,
	.dfl_cftypes = pids_files,
};
