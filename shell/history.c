/* Command history: a fixed ring of the last HISTORY_SIZE lines. */
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include "history.h"

static char *entries[HISTORY_SIZE];
static int total; /* lines ever added; the newest is at (total - 1) % SIZE */

const char *history_back(int n)
{
	if (n < 1 || n > history_count())
		return NULL;
	return entries[(total - n) % HISTORY_SIZE];
}

int history_count(void)
{
	return total < HISTORY_SIZE ? total : HISTORY_SIZE;
}

void history_add(const char *line)
{
	const char *last = history_back(1);
	char *copy;

	if (!*line || (last && !strcmp(last, line)))
		return;
	copy = kstrdup(line, GFP_KERNEL);
	if (!copy)
		return;
	kfree(entries[total % HISTORY_SIZE]);
	entries[total % HISTORY_SIZE] = copy;
	total++;
}
