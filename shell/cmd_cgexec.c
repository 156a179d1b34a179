/*
 * cgexec -g CGROUP COMMAND [ARG...]: run a command as a task in a cgroup. CGROUP is a path
 * below /sys/fs/cgroup ("A", "A/B", "/A"); libcgroup's "CONTROLLERS:PATH" form is taken
 * too (the controllers are ignored: in cgroup v2 a task is in one cgroup for all of them).
 *
 * It is a special command so that the command becomes a job of the shell that typed it
 * (foreground, Ctrl-C, redirections); in a pipeline or in the background the shell runs it
 * in a subshell task, and the command is that subshell's job, still in CGROUP.
 */
#include <cgwb/shell.h>
#include <cgwb/cgroup.h>
#include <cgwb/string.h>
#include "exec.h"

/* The cgroup named by a -g argument, referenced, or NULL. */
static struct cgroup *cgexec_lookup(const char *name)
{
	struct cgroup *cg = cgroup_lookup(name);
	const char *colon = strchr(name, ':');

	if (!cg && colon)
		cg = cgroup_lookup(colon + 1);
	return cg;
}

static int cmd_cgexec(int argc, char **argv)
{
	struct cgroup *cg;
	int status;

	if (argc < 4 || strcmp(argv[1], "-g") || !argv[2][0])
		return sh_usage("cgexec");
	cg = cgexec_lookup(argv[2]);
	if (!cg)
		return sh_error("cgexec", "cgroup '%s' not found", argv[2]);
	status = shell_run_command(argc - 3, argv + 3, cg, NULL);
	cgroup_put(cg);
	return status;
}
DEFINE_SHELL_CMD(cgexec, "cgexec", "cgexec -g CGROUP COMMAND [ARG...]",
		 "run a command as a task in a cgroup (a path under /sys/fs/cgroup)", cmd_cgexec,
		 SHELL_CMD_SPECIAL);
