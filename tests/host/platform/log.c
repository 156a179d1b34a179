/*
 * The console of host runs: printk's finished lines are kept in memory for tests to search,
 * and copied to stderr when CGWB_TEST_VERBOSE is set in the environment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include "host_internal.h"

/* A simulation can log a lot: past this, the oldest half is dropped. */
#define LOG_MAX (8u << 20)

static char *log_text; /* NUL-terminated */
static size_t log_len, log_cap;
static bool verbose;
static int last_level = -1;

void host_log_init(void)
{
	const char *v = getenv("CGWB_TEST_VERBOSE");

	verbose = v && *v && strcmp(v, "0");
}

bool host_log_verbose(void)
{
	return verbose;
}

static bool log_reserve(size_t len)
{
	size_t cap = log_cap ? log_cap : 64 * 1024;
	char *p;

	while (cap < log_len + len + 1)
		cap *= 2;
	if (cap == log_cap)
		return true;
	p = realloc(log_text, cap);
	if (!p)
		return false;
	log_text = p;
	log_cap = cap;
	return true;
}

static void drop_oldest_half(void)
{
	char *cut = strchr(log_text + log_len / 2, '\n');
	size_t keep = cut ? log_len - (size_t)(cut + 1 - log_text) : 0;

	memmove(log_text, log_text + log_len - keep, keep);
	log_len = keep;
	log_text[log_len] = '\0';
}

void printk_emit(int level, const char *line, size_t len)
{
	last_level = level;
	/*
	 * Without host_platform_init() nobody searches the log, and what gets logged then is
	 * usually why a test fails: kmalloc without the arena ("page allocation failure").
	 */
	if (verbose || !host_platform_up())
		fwrite(line, 1, len, stderr);
	if (log_len + len > LOG_MAX)
		drop_oldest_half();
	if (!log_reserve(len))
		return; /* out of host memory: losing log text beats failing the run */
	memcpy(log_text + log_len, line, len);
	log_len += len;
	log_text[log_len] = '\0';
}

const char *host_log(void)
{
	return log_text ? log_text : "";
}

bool host_log_contains(const char *needle)
{
	return strstr(host_log(), needle) != NULL;
}

unsigned int host_log_count(const char *needle)
{
	size_t step = strlen(needle);
	unsigned int n = 0;

	if (!step)
		return 0;
	for (const char *p = host_log(); (p = strstr(p, needle)); p += step)
		n++;
	return n;
}

int host_log_last_level(void)
{
	return last_level;
}

void host_log_clear(void)
{
	log_len = 0;
	if (log_text)
		log_text[0] = '\0';
}

void host_log_dump_tail(size_t max_bytes)
{
	const char *start = host_log();

	if (log_len > max_bytes) {
		const char *nl = strchr(start + log_len - max_bytes, '\n');
		start = nl ? nl + 1 : start + log_len - max_bytes;
	}
	fputs(start, stderr);
}

void host_log_exit(void)
{
	free(log_text);
	log_text = NULL;
	log_len = log_cap = 0;
}
