/* Whole-file writes and reads of pseudo files for the fuzz harnesses (fuzz_files.h). */
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "fuzz_files.h"

long fuzz_write(const char *path, const void *buf, size_t len)
{
	struct file *f = filp_open(path, O_WRONLY | O_TRUNC, 0);
	long n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = file_write(f, buf, len);
	fput(f);
	return n;
}

long fuzz_read(const char *path, char *buf, size_t size)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	long n = 0, total = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (total < (long)size - 1 && (n = file_read(f, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	buf[total] = 0;
	fput(f);
	return n < 0 ? n : total;
}

void fuzz_check_text(const char *path, const char *buf, long n)
{
	for (long i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (!(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)))
			panic("%s: byte %#x at %ld of what it reads", path, c, i);
	}
}

bool fuzz_ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

long long fuzz_read_number(const char *path)
{
	char buf[64], *nl;
	s64 v;

	if (fuzz_read(path, buf, sizeof(buf)) < 0)
		panic("%s: unreadable", path);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	if (!strcmp(buf, "max"))
		return -1;
	if (kstrtoll(buf, 10, &v))
		panic("%s reads '%s', not a number", path, buf);
	return v;
}

void fuzz_dirname(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;

	strlcpy(dir, path, min(size, len + 1));
}
