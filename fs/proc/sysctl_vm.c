/*
 * /proc/sys/vm: the dirty-memory knobs and drop_caches, with Linux's ranges and side
 * effects: a ratio and its bytes twin exclude each other (writing one zeroes the other),
 * dirty limits refresh the writers' ratelimit, and a new writeback interval wakes the
 * flushers so it applies at once. Past Linux: the dirty-throttling policy (dirty_policy,
 * dirty_available_policies) and each policy's parameters, which the policies name.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "proc.h"

/* One word per write, surrounded by blanks at most, into word (size bytes): 0 or -EINVAL. */
static int parse_word(const char *buf, char *word, size_t size)
{
	size_t len;

	while (*buf == ' ' || *buf == '\t' || *buf == '\n')
		buf++;
	len = strcspn(buf, " \t\n");
	if (!len || len >= size || buf[len + strspn(buf + len, " \t\n")])
		return -EINVAL;
	memcpy(word, buf, len);
	word[len] = 0;
	return 0;
}

/* One integer per write, as proc_dointvec's proc_get_long() reads it: a '-' or a digit first. */
static int parse_long(const char *buf, long min, long max, long *val)
{
	char tmp[32];
	s64 v;

	if (parse_word(buf, tmp, sizeof(tmp)) || tmp[0] == '+' || kstrtoll(tmp, 10, &v))
		return -EINVAL;
	if (v < min || v > max)
		return -EINVAL;
	*val = (long)v;
	return 0;
}

static int show_int(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%d\n", *(int *)private);
}

static int show_ulong(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%lu\n", *(unsigned long *)private);
}

/*
 * A dirty limit given as a ratio or as bytes: writing one zeroes its twin and refreshes the
 * writers' ratelimit. Linux's dirty_ratio/dirty_bytes handlers only act when the value
 * changes; the background ones always do.
 */
struct dirty_twin {
	int *ratio;
	unsigned long *bytes;
	long bytes_min;
	bool only_if_changed;
};

static int store_twin(const char *buf, const struct dirty_twin *t, bool bytes)
{
	long v;
	int err = bytes ? parse_long(buf, t->bytes_min, LONG_MAX, &v) : parse_long(buf, 0, 100, &v);

	if (err)
		return err;
	if (t->only_if_changed && (bytes ? (unsigned long)v == *t->bytes : v == *t->ratio))
		return 0;
	if (bytes) {
		*t->bytes = (unsigned long)v;
		*t->ratio = 0;
	} else {
		*t->ratio = (int)v;
		*t->bytes = 0;
	}
	writeback_set_ratelimit();
	return 0;
}

static const struct dirty_twin dirty_limit = {
	&vm_dirty_ratio,
	&vm_dirty_bytes,
	2 * (long)PAGE_SIZE,
	true,
};
static const struct dirty_twin background_limit = {
	&dirty_background_ratio,
	&dirty_background_bytes,
	1,
	false,
};

static int store_dirty_ratio(const char *buf, size_t len, void *private)
{
	return store_twin(buf, &dirty_limit, false);
}

static int store_dirty_bytes(const char *buf, size_t len, void *private)
{
	return store_twin(buf, &dirty_limit, true);
}

static int store_background_ratio(const char *buf, size_t len, void *private)
{
	return store_twin(buf, &background_limit, false);
}

static int store_background_bytes(const char *buf, size_t len, void *private)
{
	return store_twin(buf, &background_limit, true);
}

/*
 * A number within Linux's range for the knob (proc_dointvec_minmax's extra1 and extra2),
 * and what a change does: private is its struct vm_uint.
 */
struct vm_uint {
	unsigned int *value;
	long min, max;
	void (*changed)(unsigned int old, unsigned int now);
};

static int show_vm_uint(struct seq_buf *s, void *private)
{
	const struct vm_uint *k = private;

	return seq_printf(s, "%u\n", READ_ONCE(*k->value));
}

static int store_vm_uint(const char *buf, size_t len, void *private)
{
	const struct vm_uint *k = private;
	unsigned int old = *k->value;
	long v;
	int err = parse_long(buf, k->min, k->max, &v);

	(void)len;
	if (err)
		return err;
	WRITE_ONCE(*k->value, (unsigned int)v);
	if (k->changed)
		k->changed(old, (unsigned int)v);
	return 0;
}

/* A new writeback interval applies at once: the flushers are woken. */
static void writeback_interval_changed(unsigned int old, unsigned int now)
{
	if (now && now != old)
		wakeup_flusher_threads(WB_REASON_PERIODIC);
}

static const struct vm_uint writeback_centisecs = {
	&dirty_writeback_interval,
	0,
	INT_MAX,
	writeback_interval_changed,
};
static const struct vm_uint expire_centisecs = { &dirty_expire_interval, 0, INT_MAX, NULL };

/* A new lazy-timestamp interval applies at once (Linux's dirtytime_interval_handler()). */
static void dirtytime_changed(unsigned int old, unsigned int now)
{
	(void)old;
	(void)now;
	dirtytime_interval_changed();
}

static const struct vm_uint dirtytime_seconds = {
	&dirtytime_expire_interval,
	0,
	INT_MAX,
	dirtytime_changed,
};
/* 0: Linux's foreign-inode detection; 1: also switch after one clear round (opt-in). */
static const struct vm_uint fast_switch = { &vm_dirty_foreign_fast_switch, 0, 1, NULL };

/* The dirty-throttling policy in force, by name (as tcp_congestion_control). */
static int show_policy(struct seq_buf *s, void *private)
{
	return seq_printf(s, "%s\n", dirty_policy_name());
}

static int store_policy(const char *buf, size_t len, void *private)
{
	char name[32];

	(void)len;
	return parse_word(buf, name, sizeof(name)) ?: dirty_policy_select(name);
}

static void list_policy(const char *name, void *arg)
{
	struct seq_buf *s = arg;

	seq_printf(s, "%s%s", s->len ? " " : "", name);
}

static int show_available_policies(struct seq_buf *s, void *private)
{
	dirty_policy_for_each(list_policy, s);
	return seq_puts(s, "\n");
}

/* A policy's parameter: private is its name. */
static int show_policy_param(struct seq_buf *s, void *private)
{
	unsigned int v;
	int err = dirty_policy_param_show(private, &v);

	return err ? err : seq_printf(s, "%u\n", v);
}

static int store_policy_param(const char *buf, size_t len, void *private)
{
	long v;
	int err = parse_long(buf, 0, UINT_MAX, &v);

	(void)len;
	return err ? err : dirty_policy_param_store(private, (unsigned long)v);
}

static void create_policy_param(const char *name, void *arg)
{
	pseudo_create_file(arg, name, 0644, show_policy_param, store_policy_param, (void *)name);
}

static int store_drop_caches(const char *buf, size_t len, void *private)
{
	long v;
	int err = parse_long(buf, 1, 4, &v);

	(void)len;
	(void)private;
	if (err)
		return err;
	if (v & 1)
		drop_pagecache();
	if (v & 2) {
		/* dentries pin inodes: drop them first, then the inodes they held */
		while (prune_dcache(1024))
			;
		while (prune_icache(1024))
			;
	}
	return 0;
}

/* laptop_mode: seconds here, jiffies inside (Linux's proc_dointvec_jiffies) */
static int show_laptop_mode(struct seq_buf *s, void *private)
{
	(void)private;
	return seq_printf(s, "%d\n", READ_ONCE(laptop_mode) / HZ);
}

static int store_laptop_mode(const char *buf, size_t len, void *private)
{
	long v;
	int err = parse_long(buf, 0, INT_MAX / HZ, &v);

	(void)len;
	(void)private;
	if (!err)
		WRITE_ONCE(laptop_mode, (int)v * HZ);
	return err;
}

struct vm_knob {
	const char *name;
	umode_t mode;
	pseudo_show_t show;
	pseudo_store_t store;
	void *data;
};

static const struct vm_knob vm_knobs[] = {
	{ "dirty_ratio", 0644, show_int, store_dirty_ratio, &vm_dirty_ratio },
	{ "dirty_bytes", 0644, show_ulong, store_dirty_bytes, &vm_dirty_bytes },
	{ "dirty_background_ratio", 0644, show_int, store_background_ratio, &dirty_background_ratio },
	{ "dirty_background_bytes", 0644, show_ulong, store_background_bytes,
	  &dirty_background_bytes },
	{ "dirty_writeback_centisecs", 0644, show_vm_uint, store_vm_uint,
	  (void *)&writeback_centisecs },
	{ "dirty_expire_centisecs", 0644, show_vm_uint, store_vm_uint, (void *)&expire_centisecs },
	{ "dirtytime_expire_seconds", 0644, show_vm_uint, store_vm_uint, (void *)&dirtytime_seconds },
	{ "dirty_foreign_fast_switch", 0644, show_vm_uint, store_vm_uint, (void *)&fast_switch },
	{ "dirty_policy", 0644, show_policy, store_policy, NULL },
	{ "dirty_available_policies", 0444, show_available_policies, NULL, NULL },
	{ "drop_caches", 0200, NULL, store_drop_caches, NULL },
	{ "laptop_mode", 0644, show_laptop_mode, store_laptop_mode, NULL },
};

void proc_sys_vm_init(struct pseudo_node *root)
{
	struct pseudo_node *vm = pseudo_mkdir_p(root, "sys/vm");

	if (IS_ERR(vm))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(vm_knobs); i++)
		pseudo_create_file(vm, vm_knobs[i].name, vm_knobs[i].mode, vm_knobs[i].show,
				   vm_knobs[i].store, vm_knobs[i].data);
	dirty_policy_for_each_param(create_policy_param, vm);
}
