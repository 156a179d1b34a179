/* The profiler on the host: the simulator has no kernel text to sample, so it is never on. */
#include <cgwb/profile.h>
#include <cgwb/errno.h>

int profile_init(void)
{
	return 0;
}

bool profile_enabled(void)
{
	return false;
}

void profile_tick(u64 pc)
{
	(void)pc;
}

void profile_reset(void)
{
}

int profile_report(struct profile_entry **entries, unsigned int *nr, unsigned long *total)
{
	(void)entries;
	(void)nr;
	(void)total;
	return -ENODEV;
}
