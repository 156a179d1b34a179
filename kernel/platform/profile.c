/*
 * The tick profiler (include/cgwb/profile.h). Sampling at the tick sees only what runs with
 * interrupts on: a function that keeps them off has its time given to the first instruction
 * after it turns them back on (spin_unlock_irqrestore, local_irq_enable). Ticks at an
 * address outside the kernel's text (none today) count in the total only.
 *
 * The counters are added to atomically by every CPU's tick; a reset races ticks and may keep a
 * few of them, which a profile does not mind.
 */
#include <cgwb/profile.h>
#include <cgwb/platform.h>
#include <cgwb/compiler.h>
#include <cgwb/vmalloc.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/memlayout.h>
#include "ksyms.h"

static unsigned long *prof_buffer;
static unsigned long prof_len;
static unsigned int prof_shift;
static unsigned long prof_total;

int profile_init(void)
{
	const char *arg = cmdline_get("profile");
	unsigned long long shift;

	if (!arg)
		return 0;
	if (kstrtoull(arg, 10, &shift) || shift > 16) {
		pr_err("profile=%s: not a bucket shift from 0 to 16; no profiling\n", arg);
		return -EINVAL;
	}
	prof_shift = (unsigned int)shift;
	prof_len = ((unsigned long)(__text_end - __kernel_start) >> prof_shift) + 1;
	prof_buffer = vmalloc(prof_len * sizeof(*prof_buffer));
	if (!prof_buffer) {
		pr_err("profile: no memory for %lu buckets; no profiling\n", prof_len);
		return -ENOMEM;
	}
	memset(prof_buffer, 0, prof_len * sizeof(*prof_buffer));
	pr_info("profile: kernel profiling enabled (shift %u, %lu buckets)\n", prof_shift, prof_len);
	return 0;
}

bool profile_enabled(void)
{
	return prof_buffer != NULL;
}

void profile_tick(u64 pc)
{
	u64 base = (u64)(uintptr_t)__kernel_start;

	if (!prof_buffer || !pc)
		return;
	__atomic_fetch_add(&prof_total, 1, __ATOMIC_RELAXED);
	if (pc >= base && pc < (u64)(uintptr_t)__text_end)
		__atomic_fetch_add(&prof_buffer[(pc - base) >> prof_shift], 1, __ATOMIC_RELAXED);
}

void profile_reset(void)
{
	if (!prof_buffer)
		return;
	for (unsigned long i = 0; i < prof_len; i++)
		WRITE_ONCE(prof_buffer[i], 0);
	WRITE_ONCE(prof_total, 0);
}

/* Adds a bucket's ticks to the last entry if it is the same function, else opens one. */
static unsigned int profile_add(struct profile_entry *e, unsigned int n, unsigned int max,
				u64 *last_start, u64 pc, unsigned long ticks)
{
	const char *name = "?";
	u64 off = 0, size;
	u64 start;

	ksym_lookup(pc, &name, &off, &size);
	start = pc - off;
	if (n && start == *last_start) {
		e[n - 1].ticks += ticks;
		return n;
	}
	if (n == max)
		return n;
	*last_start = start;
	e[n] = (struct profile_entry){ .name = name, .ticks = ticks };
	return n + 1;
}

/* Most ticks first; an insertion sort: the functions hit are a few hundred. */
static void profile_sort(struct profile_entry *e, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		struct profile_entry x = e[i];
		unsigned int j = i;

		for (; j && e[j - 1].ticks < x.ticks; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

int profile_report(struct profile_entry **entries, unsigned int *nr, unsigned long *total)
{
	const unsigned int max = 2048;
	u64 base = (u64)(uintptr_t)__kernel_start, last_start = 0;
	struct profile_entry *e;
	unsigned int n = 0;

	if (!prof_buffer)
		return -ENODEV;
	e = kcalloc(max, sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	*total = READ_ONCE(prof_total);
	for (unsigned long i = 0; i < prof_len; i++) {
		unsigned long ticks = READ_ONCE(prof_buffer[i]);

		if (ticks)
			n = profile_add(e, n, max, &last_start, base + ((u64)i << prof_shift), ticks);
	}
	profile_sort(e, n);
	*entries = e;
	*nr = n;
	return 0;
}
