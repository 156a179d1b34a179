/*
 * The memory controller's files, with Linux's names and formats: memory.current, .max,
 * .high, .peak, .events, .oom.group (non-root groups) and memory.stat (every group, the root too).
 * Sizes are in bytes; limits read "max" when unset and are written as "max" or bytes with
 * an optional K/M/G suffix, rounded down to pages. A write is parsed completely first: bad
 * input is refused with -EINVAL (-ERANGE for a number too large) and changes nothing.
 */
#include "memcg.h"
#include <cgwb/pseudofs.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

#define LIMIT_TEXT_MAX 32

static u64 pages_to_bytes(unsigned long pages)
{
	return (u64)pages << PAGE_SHIFT;
}

/* "max", or a size ("1048576", "512K", "16M", "1G"): pages, capped at PAGE_COUNTER_MAX. */
static int parse_limit(const char *buf, size_t len, unsigned long *pages)
{
	char text[LIMIT_TEXT_MAX], *s;
	u64 bytes;
	int err;

	if (len >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, len);
	text[len] = '\0';
	s = strim(text);
	if (!strcmp(s, "max")) {
		*pages = PAGE_COUNTER_MAX;
		return 0;
	}
	err = parse_size(s, &bytes);
	if (err)
		return err;
	*pages = (unsigned long)min_t(u64, bytes >> PAGE_SHIFT, PAGE_COUNTER_MAX);
	return 0;
}

static void show_limit(struct seq_buf *s, unsigned long pages)
{
	if (pages >= PAGE_COUNTER_MAX)
		seq_puts(s, "max\n");
	else
		seq_printf(s, "%llu\n", (unsigned long long)pages_to_bytes(pages));
}

static int current_show(struct seq_buf *s, void *private)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(private);

	seq_printf(s, "%llu\n",
		   (unsigned long long)pages_to_bytes(page_counter_read(&memcg->memory)));
	return 0;
}

static int peak_show(struct seq_buf *s, void *private)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(private);

	seq_printf(s, "%llu\n",
		   (unsigned long long)pages_to_bytes(READ_ONCE(memcg->memory.watermark)));
	return 0;
}

static int max_show(struct seq_buf *s, void *private)
{
	show_limit(s, READ_ONCE(mem_cgroup_from_css(private)->memory.max));
	return 0;
}

static int max_store(const char *buf, size_t len, void *private)
{
	unsigned long pages;
	int err = parse_limit(buf, len, &pages);

	if (!err)
		memcg_set_max(mem_cgroup_from_css(private), pages);
	return err;
}

static int high_show(struct seq_buf *s, void *private)
{
	show_limit(s, READ_ONCE(mem_cgroup_from_css(private)->memory.high));
	return 0;
}

static int high_store(const char *buf, size_t len, void *private)
{
	unsigned long pages;
	int err = parse_limit(buf, len, &pages);

	if (!err)
		memcg_set_high(mem_cgroup_from_css(private), pages);
	return err;
}

static int events_show(struct seq_buf *s, void *private)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(private);

	seq_printf(s, "low %lu\nhigh %lu\nmax %lu\noom %lu\noom_kill %lu\noom_group_kill %lu\n",
		   READ_ONCE(memcg->events[MEMCG_LOW]), READ_ONCE(memcg->events[MEMCG_HIGH]),
		   READ_ONCE(memcg->events[MEMCG_MAX]), READ_ONCE(memcg->events[MEMCG_OOM]),
		   READ_ONCE(memcg->events[MEMCG_OOM_KILL]),
		   READ_ONCE(memcg->events[MEMCG_OOM_GROUP_KILL]));
	return 0;
}

static int oom_group_show(struct seq_buf *s, void *private)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(private);

	seq_printf(s, "%d\n", READ_ONCE(memcg->oom_group));
	return 0;
}

/* 0 or 1, as Linux's memory_oom_group_write() */
static int oom_group_store(const char *buf, size_t len, void *private)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(private);
	int v;

	if (kstrtoint(buf, 10, &v) || (v != 0 && v != 1))
		return -EINVAL;
	WRITE_ONCE(memcg->oom_group, v);
	return 0;
}

/* memory.stat: page counts as bytes, event counts as they are. */
static const struct {
	const char *name;
	int item; /* node_stat_item, or -1: always 0 (nothing kept of it here) */
} stat_fields[] = {
	{ "anon", NR_ANON_MAPPED },
	{ "file", NR_FILE_PAGES },
	{ "shmem", NR_SHMEM },
	{ "file_mapped", -1 },
	{ "file_dirty", NR_FILE_DIRTY },
	{ "file_writeback", NR_WRITEBACK },
	{ "inactive_anon", -1 },
	{ "active_anon", -1 },
	{ "inactive_file", NR_INACTIVE_FILE },
	{ "active_file", NR_ACTIVE_FILE },
	{ "unevictable", NR_UNEVICTABLE },
};

static int stat_show(struct seq_buf *s, void *private)
{
	struct memcg_stat_sums sums;

	memcg_stat_sum(mem_cgroup_from_css(private), &sums);
	for (size_t i = 0; i < ARRAY_SIZE(stat_fields); i++) {
		long pages = stat_fields[i].item < 0 ? 0 : sums.stat[stat_fields[i].item];

		seq_printf(s, "%s %llu\n", stat_fields[i].name,
			   (unsigned long long)pages_to_bytes(pages > 0 ? (unsigned long)pages : 0));
	}
	seq_printf(s, "pgscan %lu\npgsteal %lu\n", sums.pgscan, sums.pgsteal);
	return 0;
}

const struct cftype memcg_files[] = {
	{ "memory.current", 0444, CFTYPE_NOT_ON_ROOT, current_show, NULL },
	{ "memory.peak", 0444, CFTYPE_NOT_ON_ROOT, peak_show, NULL },
	{ "memory.max", 0644, CFTYPE_NOT_ON_ROOT, max_show, max_store },
	{ "memory.high", 0644, CFTYPE_NOT_ON_ROOT, high_show, high_store },
	{ "memory.events", 0444, CFTYPE_NOT_ON_ROOT, events_show, NULL },
	{ "memory.oom.group", 0644, CFTYPE_NOT_ON_ROOT, oom_group_show, oom_group_store },
	{ "memory.stat", 0444, 0, stat_show, NULL },
	{ NULL },
};
