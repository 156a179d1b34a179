/*
 * /proc/slabinfo in Linux's format (version 2.1): one line per object cache. The
 * allocator has no per-CPU arrays, so the tunables are 0; a slab is one page.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/slab.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "../vfs.h"
#include "proc.h"

#define SLABINFO_MAX 128 /* caches listed; more are left out */

struct slabinfo_line {
	char name[24];
	unsigned long active, total, pages;
	size_t size;
};

struct slabinfo_walk {
	struct slabinfo_line *lines;
	unsigned int n;
};

/* Under the allocator's lock: copied only, printed (which may allocate) after it. */
static void slabinfo_copy(const struct kmem_cache_info *c, void *arg)
{
	struct slabinfo_walk *w = arg;
	struct slabinfo_line *l = &w->lines[w->n];

	if (w->n == SLABINFO_MAX)
		return;
	strlcpy(l->name, c->name, sizeof(l->name));
	l->active = c->active_objs;
	l->total = c->total_objs;
	l->pages = c->pages;
	l->size = c->object_size;
	w->n++;
}

static int slabinfo_show(struct seq_buf *s, void *private)
{
	struct slabinfo_walk w = { .lines = kcalloc(SLABINFO_MAX, sizeof(*w.lines), GFP_KERNEL) };

	(void)private;
	if (!w.lines)
		return -ENOMEM;
	kmem_cache_for_each(slabinfo_copy, &w);
	seq_puts(s, "slabinfo - version: 2.1\n");
	seq_puts(s, "# name            <active_objs> <num_objs> <objsize> <objperslab> "
		    "<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata "
		    "<active_slabs> <num_slabs> <sharedavail>\n");
	for (unsigned int i = 0; i < w.n; i++) {
		const struct slabinfo_line *l = &w.lines[i];
		unsigned long per_slab = l->pages ? l->total / l->pages : PAGE_SIZE / l->size;

		seq_printf(s,
			   "%-17s %6lu %6lu %6zu %4lu %4d : tunables %4d %4d %4d : slabdata "
			   "%6lu %6lu %6d\n",
			   l->name, l->active, l->total, l->size, per_slab, 1, 0, 0, 0, l->pages,
			   l->pages, 0);
	}
	kfree(w.lines);
	return 0;
}

void proc_slabinfo_init(struct pseudo_node *root)
{
	pseudo_create_file(root, "slabinfo", 0400, slabinfo_show, NULL, NULL);
}
