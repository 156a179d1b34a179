/*
 * libFuzzer harness: the parsers of a group's limits, io.max, memory.max and memory.high,
 * checked against a reference model of what they accept.
 *
 * Two disks (254:0 and 254:16) and groups a and a/b with the memory and io controllers.
 * An input is a list of writes, each [op][length][bytes]: the op's low bits pick one of the
 * six files, its next bits a device put in front of the bytes ("254:0 ", "254:16 ",
 * "1:2 " or nothing), so that the value part is reached from the first inputs on. Each
 * file is read before and after the write; errors are fine, but
 *   - a refused write changes nothing;
 *   - what is read is text, each limit "max" or whole pages, each io.max line
 *     "MAJ:MIN rbps=V wbps=V riops=V wiops=V" with V "max" or a positive number;
 *   - a memory limit accepted holds what the model makes of the text ("max", or a number
 *     with an optional K/M/G/T and "iB", rounded down to pages), and the model must accept
 *     what the kernel did;
 *   - an io.max line accepted (the model must accept it too) sets the keys it names, as
 *     given ("max" for an IO rate too large to count), and leaves the others as they were;
 *   - a line read back from io.max, written again, changes nothing.
 * Before each input every limit is back to "max", so an input means the same on every run.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/cgroup.h>
#include <cgwb/memcontrol.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "fuzz_files.h"

#define CG "/sys/fs/cgroup"
#define TEXT_MAX 512
#define NR_KEYS 4
#define NO_LIMIT (~0ULL) /* io.max's "max" */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char *const files[] = {
	CG "/a/io.max",   CG "/a/memory.max",   CG "/a/memory.high",
	CG "/a/b/io.max", CG "/a/b/memory.max", CG "/a/b/memory.high",
};
static const char *const prefixes[] = { "", "254:0 ", "254:16 ", "1:2 " };
static const char *const keys[NR_KEYS] = { "rbps", "wbps", "riops", "wiops" };

/* One disk's limits as io.max shows them. */
struct io_limits {
	u64 val[NR_KEYS];
};

static bool is_io_max(const char *path)
{
	return fuzz_ends_with(path, "/io.max");
}

/* ------------------------------------------------------------------ memory limits */

static bool model_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* What a memory limit written as text (up to its first NUL) must read: false if refused. */
static bool model_memory(const char *text, long long *expect)
{
	const char *s = text, *end = text + strlen(text);
	unsigned int shift = 0;
	u64 v = 0;

	while (s < end && model_space(*s))
		s++;
	while (end > s && model_space(end[-1]))
		end--;
	if (end - s == 3 && !memcmp(s, "max", 3)) {
		*expect = -1;
		return true;
	}
	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (~0ULL - (u64)(*s - '0')) / 10)
			return false;
		v = v * 10 + (u64)(*s - '0');
	}
	if (s < end && strchr("kKmMgGtT", *s)) {
		shift = 10 * (unsigned int)(strchr("kmgt", *s | 0x20) - "kmgt" + 1);
		s++;
		if (end - s == 2 && (s[0] | 0x20) == 'i' && (s[1] | 0x20) == 'b')
			s += 2;
	}
	if (s != end || (shift && v > (~0ULL >> shift)))
		return false;
	v <<= shift;
	*expect = (v >> PAGE_SHIFT) >= PAGE_COUNTER_MAX ? -1 : (long long)(v & ~(u64)(PAGE_SIZE - 1));
	return true;
}

static void check_memory(const char *path, const char *text, long written, long long before)
{
	long long after = fuzz_read_number(path), expect;

	if (after != -1 && (after < 0 || after % PAGE_SIZE))
		panic("%s = %lld: not max or whole pages", path, after);
	if (written < 0) {
		if (after != before)
			panic("%s: refused '%s' (%ld) yet changed from %lld to %lld", path, text,
			      written, before, after);
		return;
	}
	if (!model_memory(text, &expect))
		panic("%s: accepted '%s' (reads %lld)", path, text, after);
	if (after != expect)
		panic("%s: '%s' reads %lld, not %lld", path, text, after, expect);
}

/* ------------------------------------------------------------------ io.max */

/* The next token of *pos (split at space, tab, newline) into tok; its length, 0 at the end. */
static size_t next_token(const char **pos, char *tok, size_t size)
{
	const char *p = *pos + strspn(*pos, " \t\n");
	size_t len = strcspn(p, " \t\n");

	strlcpy(tok, p, min(size, len + 1));
	*pos = p + len;
	return len;
}

/* A value as io.max prints it: "max" or a positive number. */
static bool parse_value(const char *s, u64 *v)
{
	if (!strcmp(s, "max")) {
		*v = NO_LIMIT;
		return true;
	}
	return !kstrtoull(s, 10, v) && *v;
}

/* The limits of dev in io.max's text (all max if it has no line for dev). */
static void read_io_limits(const char *path, const char *content, const char *dev,
			   struct io_limits *l)
{
	const char *line = content;

	for (int k = 0; k < NR_KEYS; k++)
		l->val[k] = NO_LIMIT;
	for (; *line; line = strchr(line, '\n') + 1) {
		const char *p = line;
		char tok[64];

		if (!strchr(line, '\n'))
			panic("%s: a line without its newline: '%s'", path, line);
		next_token(&p, tok, sizeof(tok));
		if (strcmp(tok, dev))
			continue;
		for (int k = 0; k < NR_KEYS; k++) {
			size_t klen = strlen(keys[k]);

			next_token(&p, tok, sizeof(tok));
			if (strncmp(tok, keys[k], klen) || tok[klen] != '=' ||
			    !parse_value(tok + klen + 1, &l->val[k]))
				panic("%s: '%s' where %s=VALUE belongs in '%.*s'", path, tok,
				      keys[k], (int)strcspn(line, "\n"), line);
		}
		if (l->val[0] == NO_LIMIT && l->val[1] == NO_LIMIT && l->val[2] == NO_LIMIT &&
		    l->val[3] == NO_LIMIT)
			panic("%s: a line for %s without a limit", path, dev);
	}
}

/* The model of a write: the device and the keys it sets, or false if it must be refused. */
static bool model_io_max(const char *text, char *dev, size_t dev_size, struct io_limits *set,
			 bool *named)
{
	const char *p = text;
	char tok[64];
	unsigned int maj, min;

	if (!next_token(&p, tok, sizeof(tok)) || sscanf(tok, "%u:%u", &maj, &min) != 2)
		return false;
	snprintf(dev, dev_size, "%u:%u", maj, min); /* as io.max prints it ("+254:0" is 254:0) */
	for (int k = 0; k < NR_KEYS; k++)
		named[k] = false;
	while (next_token(&p, tok, sizeof(tok))) {
		char *eq = strchr(tok, '=');
		int k;

		if (!eq)
			return false;
		*eq = 0;
		for (k = 0; k < NR_KEYS && strcmp(tok, keys[k]); k++)
			;
		if (k == NR_KEYS || !parse_value(eq + 1, &set->val[k]))
			return false;
		if (k >= 2 && set->val[k] >= UINT_MAX)
			set->val[k] = NO_LIMIT; /* IOs/s beyond what the counters hold: no limit */
		named[k] = true;
	}
	return true;
}

static void check_io_max(const char *path, const char *text, long written, const char *before,
			 const char *after)
{
	struct io_limits old, now, set;
	bool named[NR_KEYS];
	char dev[32];

	if (written < 0) {
		if (strcmp(before, after))
			panic("%s: refused '%s' (%ld) yet changed from '%s' to '%s'", path, text,
			      written, before, after);
		return;
	}
	if (!model_io_max(text, dev, sizeof(dev), &set, named))
		panic("%s: accepted '%s'", path, text);
	read_io_limits(path, before, dev, &old);
	read_io_limits(path, after, dev, &now);
	for (int k = 0; k < NR_KEYS; k++) {
		u64 expect = named[k] ? set.val[k] : old.val[k];

		if (now.val[k] != expect)
			panic("%s: after '%s' %s is %llu, not %llu", path, text, keys[k],
			      (unsigned long long)now.val[k], (unsigned long long)expect);
	}
}

/* Every line read back, written again, changes nothing. */
static void check_io_max_fixed_point(const char *path, const char *content)
{
	static char again[TEXT_MAX];

	for (const char *line = content; *line; line = strchr(line, '\n') + 1) {
		long n = fuzz_write(path, line, strcspn(line, "\n") + 1);

		if (n < 0)
			panic("%s: refused its own line '%.*s': %ld", path,
			      (int)strcspn(line, "\n"), line, n);
	}
	if (fuzz_read(path, again, sizeof(again)) < 0 || strcmp(again, content))
		panic("%s: read '%s', wrote it back, reads '%s'", path, content, again);
}

/* ------------------------------------------------------------------ the run */

static void write_limit(const char *path, const char *text, size_t len)
{
	static char before[TEXT_MAX], after[TEXT_MAX];
	long long old = 0;
	long n, r;

	if (is_io_max(path)) {
		r = fuzz_read(path, before, sizeof(before));
		BUG_ON(r < 0);
	} else {
		old = fuzz_read_number(path);
	}
	n = fuzz_write(path, text, len);
	if (!is_io_max(path)) {
		check_memory(path, text, n, old);
		return;
	}
	r = fuzz_read(path, after, sizeof(after));
	if (r < 0)
		panic("%s: unreadable: %ld", path, r);
	fuzz_check_text(path, after, r);
	check_io_max(path, text, n, before, after);
	check_io_max_fixed_point(path, after);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_boot_groups_a_b(2);
	return 0;
}

/* Every limit back to "max". */
static void restore(void)
{
	static const char *const unlimit[] = {
		"254:0 rbps=max wbps=max riops=max wiops=max",
		"254:16 rbps=max wbps=max riops=max wiops=max",
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (!is_io_max(files[i])) {
			BUG_ON(fuzz_write(files[i], "max", 3) < 0);
			continue;
		}
		for (size_t d = 0; d < ARRAY_SIZE(unlimit); d++)
			BUG_ON(fuzz_write(files[i], unlimit[d], strlen(unlimit[d])) < 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char text[TEXT_MAX];

	if (size > 4096)
		return -1;
	restore();
	while (end - p >= 2) {
		unsigned int op = p[0];
		const char *prefix = prefixes[(op >> 3) % ARRAY_SIZE(prefixes)];
		size_t len = min((size_t)p[1], (size_t)(end - p - 2)), plen = strlen(prefix);

		memcpy(text, prefix, plen);
		memcpy(text + plen, p + 2, len);
		text[plen + len] = 0;
		write_limit(files[(op & 7) % ARRAY_SIZE(files)], text, plen + len);
		p += 2 + len;
	}
	return 0;
}
