/*
 * The kernel profiler, as Linux's `profile=N` (kernel/profile.c): every timer tick of every
 * CPU counts the address it interrupted in a bucket of 2^N bytes of kernel text. /proc/profile
 * (fs/proc/profile.c) reports the counts by function; a write there clears them.
 */
#ifndef CGWB_PROFILE_H
#define CGWB_PROFILE_H

#include <cgwb/types.h>

/**
 * profile_init() - start the profiler if the command line asks (profile=N)
 *
 * N, from 0 to 16, is the log2 of the bucket size in bytes of kernel text.
 *
 * Context: boot, once; may sleep.
 * Return: 0 (also without profile=); -EINVAL for a bad N or -ENOMEM, each logged (no
 * profiling then).
 */
int profile_init(void);
/**
 * profile_enabled() - is the profiler counting?
 *
 * Context: any context.
 * Return: true if it is (never on the host).
 */
bool profile_enabled(void);
/* From the timer tick, with the interrupted address. */
void profile_tick(u64 pc);
/**
 * profile_reset() - clear the profiler's counts (a write to /proc/profile)
 *
 * Context: any context; ticks counted meanwhile may survive.
 */
void profile_reset(void);

struct profile_entry {
	const char *name; /* the function, or "?" for text with no symbol */
	unsigned long ticks;
};
/*
 * The functions that took ticks, most first, in a kmalloc'd array the caller frees
 * (*nr entries); *total counts every tick, those outside the text too.
 */
/**
 * profile_report() - the profiler's counts by function
 * @entries: set to a kmalloc'd array the caller frees, most ticks first
 * @nr: set to its length
 * @total: set to every tick counted, those outside the text too
 *
 * Context: process context; may sleep.
 * Return: 0; -ENODEV if the profiler is off; -ENOMEM.
 */
int profile_report(struct profile_entry **entries, unsigned int *nr, unsigned long *total);

#endif
