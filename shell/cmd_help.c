/* help [COMMAND]: the commands and what they do. */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

struct cmd_list {
	const struct shell_cmd **v;
	int n, max;
};

static void collect(const struct shell_cmd *cmd, void *arg)
{
	struct cmd_list *l = arg;

	if (l->v && l->n < l->max)
		l->v[l->n] = cmd;
	l->n++;
}

static void sort_by_name(const struct shell_cmd **v, int n)
{
	for (int i = 1; i < n; i++) {
		const struct shell_cmd *c = v[i];
		int j = i;

		for (; j > 0 && strcmp(v[j - 1]->name, c->name) > 0; j--)
			v[j] = v[j - 1];
		v[j] = c;
	}
}

static int help_one(const char *name)
{
	const struct shell_cmd *cmd = shell_find_cmd(name);

	if (!cmd)
		return sh_error("help", "%s: no such command", name);
	sh_out("usage: %s\n%s\n", cmd->usage, cmd->summary);
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	struct cmd_list l = { 0 };

	if (argc > 2)
		return sh_usage("help");
	if (argc == 2)
		return help_one(argv[1]);
	shell_for_each_cmd(collect, &l);
	l.max = l.n;
	l.n = 0;
	l.v = kcalloc((size_t)l.max, sizeof(*l.v), GFP_KERNEL);
	if (!l.v)
		return sh_error("help", "%s", errstr(-ENOMEM));
	shell_for_each_cmd(collect, &l);
	sort_by_name(l.v, l.n);
	for (int i = 0; i < l.n; i++)
		sh_out("  %-10s %s\n", l.v[i]->name, l.v[i]->summary);
	kfree(l.v);
	return 0;
}
DEFINE_SHELL_CMD(help, "help", "help [COMMAND]", "list the commands, or show how to use one",
		 cmd_help, 0);
