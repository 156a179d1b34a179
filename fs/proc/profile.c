/*
 * /proc/profile, there only when the kernel was booted with profile=N (include/cgwb/profile.h).
 * Linux's is binary, for util-linux's readprofile and System.map; here nothing in user space
 * reads it, so it reads as readprofile prints: ticks and function, most first, then the
 * total. Writing anything clears the counts, as on Linux.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/profile.h>
#include <cgwb/seq_buf.h>
#include <cgwb/slab.h>
#include "proc.h"

static int profile_show(struct seq_buf *s, void *private)
{
	struct profile_entry *e;
	unsigned long total;
	unsigned int nr;
	int err;

	(void)private;
	err = profile_report(&e, &nr, &total);
	if (err)
		return err;
	for (unsigned int i = 0; i < nr; i++)
		seq_printf(s, "%8lu %s\n", e[i].ticks, e[i].name);
	seq_printf(s, "%8lu total\n", total);
	kfree(e);
	return 0;
}

static int profile_store(const char *buf, size_t len, void *private)
{
	(void)buf;
	(void)len;
	(void)private;
	profile_reset();
	return 0;
}

void proc_profile_init(struct pseudo_node *root)
{
	if (profile_enabled())
		pseudo_create_file(root, "profile", 0644, profile_show, profile_store, NULL);
}
