/* Kernel argument parsing: whitespace-separated key=value words. */
#include <cgwb/string.h>
#include "cmdline.h"

#define CMDLINE_MAX 1024
#define MAX_ARGS 64

static char full[CMDLINE_MAX];
static char words[CMDLINE_MAX];
static struct {
	const char *key, *value;
} args[MAX_ARGS];
static int nr_args;

static void reparse(void)
{
	char *p = words;

	strlcpy(words, full, sizeof(words));
	nr_args = 0;
	while (*p && nr_args < MAX_ARGS) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			*p++ = '\0';
		if (!*p)
			break;
		char *word = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
		char *eq = strchr(word, '=');
		args[nr_args].key = word;
		args[nr_args].value = "";
		if (eq) {
			*eq = '\0';
			args[nr_args].value = eq + 1;
		}
		nr_args++;
	}
}

void cmdline_parse(const char *boot_cmdline)
{
	strlcpy(full, boot_cmdline ? boot_cmdline : "", sizeof(full));
	reparse();
}

void cmdline_append(const char *more)
{
	if (full[0])
		strlcat(full, " ", sizeof(full));
	strlcat(full, more, sizeof(full));
	reparse();
}

const char *cmdline_get(const char *key)
{
	for (int i = nr_args - 1; i >= 0; i--)
		if (!strcmp(args[i].key, key))
			return args[i].value;
	return NULL;
}

const char *cmdline_full(void)
{
	return full;
}
