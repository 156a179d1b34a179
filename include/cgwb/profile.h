/*
 * The kernel profiler, as Linux's `profile=N` (kernel/profile.c): every timer tick of every
 * CPU counts the address it interrupted in a bucket of 2^N bytes of kernel text. /proc/profile
 * (fs/proc/profile.c) reports the counts by function; a write there clears them.
 */
#ifndef CGWB_PROFILE_H
#define CGWB_PROFILE_H

#include <cgwb/types.h>

/* Reads profile=N from the command line; 0, or -EINVAL/-ENOMEM with a message. */
int profile_init(void);
bool profile_enabled(void);
/* From the timer tick, with the interrupted address. */
void profile_tick(u64 pc);
void profile_reset(void);

struct profile_entry {
	const char *name; /* the function, or "?" for text with no symbol */
	unsigned long ticks;
};
/*
 * The functions that took ticks, most first, in a kmalloc'd array the caller frees
 * (*nr entries); *total counts every tick, those outside the text too.
 */
int profile_report(struct profile_entry **entries, unsigned int *nr, unsigned long *total);

#endif
