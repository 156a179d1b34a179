/*
 * sim_echo() (sim.h) on its own, without Criterion, so that the host benchmarks of
 * tests/host/bench/ can use it too.
 */
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include "sim.h"

int sim_echo(const char *path, const char *s)
{
	struct file *f = filp_open(path, O_WRONLY, 0);
	ssize_t n;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	n = file_write(f, s, strlen(s));
	fput(f);
	return n < 0 ? (int)n : 0;
}
