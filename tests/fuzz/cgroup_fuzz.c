/*
 * libFuzzer harness: the cgroup hierarchy's writers. mkdir and rmdir under /sys/fs/cgroup
 * with any name, and writes to cgroup.subtree_control and cgroup.procs.
 *
 * An input is a script, one operation after another, each an opcode byte and its
 * operands: a group (an index into the groups that exist now), then text taken from the
 * input (a name, a list of controllers, a pid) or a task (one of three that sleep for the
 * whole run). After the script the whole tree is checked against what cgroup v2 promises:
 *   - a group's cgroup.controllers is its parent's cgroup.subtree_control, and its
 *     subtree_control is a part of its controllers that holds memory wherever it holds io;
 *   - a group has a controller's files exactly when it has the controller;
 *   - a group's name is never one of the core's or a controller's file prefixes, never
 *     holds a newline;
 *   - cgroup.stat counts the groups below, cgroup.events says populated exactly when a
 *     task is in the group or below;
 *   - every task is listed in exactly one cgroup.procs, the sleepers among them.
 * Errors are fine. Then every task goes back to the root, the groups are removed and the
 * root's controllers turned off, so an input means the same on every run.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/cgroup.h>
#include <cgwb/completion.h>
#include <cgwb/sched.h>
#include <cgwb/workqueue.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "fuzz_dir.h"
#include "fuzz_files.h"

#define CG "/sys/fs/cgroup"
#define MAX_GROUPS 24 /* mkdir is skipped beyond: the checks stay quick */
#define PATH_LEN (CGROUP_MAX_DEPTH * CGROUP_NAME_MAX + 32) /* the deepest group's path */
#define NR_SLEEPERS 3
#define MAX_PIDS 512
#define TEXT_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum op { OP_MKDIR, OP_RMDIR, OP_CONTROL, OP_PROCS, OP_MOVE, OP_READ, NR_OPS };

struct group {
	char path[PATH_LEN];
	int parent; /* index, -1 for the root */
};

static struct group groups[MAX_GROUPS];
static int nr_groups;
static struct task_struct *sleepers[NR_SLEEPERS];
static DECLARE_COMPLETION(never);
static char text[TEXT_MAX];

/* The input, consumed from the front; reads past its end give zeros. */
struct script {
	const uint8_t *p, *end;
};

static unsigned int next_byte(struct script *s)
{
	return s->p < s->end ? *s->p++ : 0;
}

/* The next n bytes (n from the input) as a string in text: NUL ends it early. */
static size_t next_text(struct script *s)
{
	size_t n = min((size_t)next_byte(s), (size_t)(s->end - s->p));

	memcpy(text, s->p, n);
	text[n] = 0;
	s->p += n;
	return strlen(text);
}

static int sleeper(void *arg)
{
	(void)arg;
	wait_for_completion(&never);
	return 0;
}

static void scan(const char *path, int parent)
{
	struct fuzz_dir *d;
	int self = nr_groups;

	if (nr_groups == MAX_GROUPS)
		return;
	strlcpy(groups[self].path, path, PATH_LEN);
	groups[self].parent = parent;
	nr_groups++;
	d = fuzz_dir_read(path);
	BUG_ON(!d);
	for (int i = 0; i < d->n; i++) {
		char child[PATH_LEN];

		if (d->types[i] != DT_DIR)
			continue;
		if (snprintf(child, sizeof(child), "%s/%s", path, d->names[i]) >= (int)sizeof(child))
			panic("cgroup-fuzz: a path longer than %d bytes", PATH_LEN);
		scan(child, self);
	}
	kfree(d);
}

/* The groups as they are now, parents before children. */
static void rescan(void)
{
	nr_groups = 0;
	scan(CG, -1);
}

static const char *group_file(int g, const char *name)
{
	static char path[PATH_LEN + 32];

	snprintf(path, sizeof(path), "%s/%s", groups[g].path, name);
	return path;
}

static long read_file(int g, const char *name, char *buf, size_t size)
{
	const char *path = group_file(g, name);
	long n = fuzz_read(path, buf, size);

	if (n < 0)
		panic("%s: unreadable: %ld", path, n);
	fuzz_check_text(path, buf, n);
	return n;
}

static void write_file(int g, const char *name, const char *buf)
{
	fuzz_write(group_file(g, name), buf, strlen(buf));
}

static int pick_group(struct script *s)
{
	return (int)(next_byte(s) % (unsigned int)nr_groups);
}

/* What OP_READ reads (the controllers' files may be missing). */
static const char *const read_names[] = {
	"cgroup.procs", "cgroup.controllers", "cgroup.subtree_control",
	"cgroup.stat",  "memory.stat",        "memory.current",
	"io.stat",
};

static void run_op(struct script *s)
{
	char path[PATH_LEN + 300];
	int g;

	switch (next_byte(s) % NR_OPS) {
	case OP_MKDIR:
		g = pick_group(s);
		next_text(s);
		if (nr_groups == MAX_GROUPS)
			break;
		snprintf(path, sizeof(path), "%s/%s", groups[g].path, text);
		if (!do_mkdir(path, 0755))
			rescan();
		break;
	case OP_RMDIR:
		g = pick_group(s);
		if (!do_rmdir(groups[g].path))
			rescan();
		break;
	case OP_CONTROL:
		g = pick_group(s);
		next_text(s);
		write_file(g, "cgroup.subtree_control", text);
		break;
	case OP_PROCS:
		g = pick_group(s);
		next_text(s);
		write_file(g, "cgroup.procs", text);
		break;
	case OP_MOVE:
		g = pick_group(s);
		snprintf(text, sizeof(text), "%d\n", sleepers[next_byte(s) % NR_SLEEPERS]->pid);
		write_file(g, "cgroup.procs", text);
		break;
	case OP_READ:
		g = pick_group(s);
		for (size_t i = 0; i < ARRAY_SIZE(read_names); i++) {
			long n = fuzz_read(group_file(g, read_names[i]), text, sizeof(text));

			if (n >= 0)
				fuzz_check_text(group_file(g, read_names[i]), text, n);
		}
		break;
	}
}

/* Does the space-separated list hold word? */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\n' || !p[len]))
			return true;
	return false;
}

static void check_controllers(int g, const char *registered)
{
	char controllers[128], control[128], parent_control[128];
	const char *name = strrchr(groups[g].path, '/') + 1;

	read_file(g, "cgroup.controllers", controllers, sizeof(controllers));
	read_file(g, "cgroup.subtree_control", control, sizeof(control));
	if (groups[g].parent >= 0) {
		read_file(groups[g].parent, "cgroup.subtree_control", parent_control,
			  sizeof(parent_control));
		if (strcmp(controllers, parent_control))
			panic("%s: controllers '%s', its parent hands down '%s'", groups[g].path,
			      controllers, parent_control);
	}
	if (has_word(control, "io") && !has_word(control, "memory"))
		panic("%s: io without memory in subtree_control '%s'", groups[g].path, control);
	if (groups[g].parent < 0)
		return;
	if (strchr(name, '\n') || str_has_prefix(name, "cgroup."))
		panic("a group named '%s'", name);
	/* every registered controller: in subtree_control only if in controllers, its files
	 * (NAME.max) exactly when in controllers, never a prefix of a group's name */
	for (const char *p = registered; *(p += strspn(p, " \n")); p += strcspn(p, " \n")) {
		char word[32], max_file[40];
		struct kstat st;
		bool on;

		strlcpy(word, p, min(sizeof(word), strcspn(p, " \n") + 1));
		on = has_word(controllers, word);
		if (has_word(control, word) && !on)
			panic("%s: '%s' in subtree_control but not in controllers", groups[g].path,
			      word);
		snprintf(max_file, sizeof(max_file), "%s.max", word);
		if (on != !vfs_lstat(group_file(g, max_file), &st))
			panic("%s: controller %s %s, its file %s %s", groups[g].path, word,
			      on ? "on" : "off", max_file, on ? "missing" : "there");
		if (str_has_prefix(name, word) && name[strlen(word)] == '.')
			panic("a group named '%s'", name);
	}
}

struct census {
	int pids[MAX_PIDS];
	int nr;
	bool populated[MAX_GROUPS];
};

/* Record g's tasks; every pid listed once in the whole tree; g and its ancestors populated. */
static void count_tasks(int g, struct census *c)
{
	static char procs[TEXT_MAX];

	read_file(g, "cgroup.procs", procs, sizeof(procs));
	for (char *p = procs, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		int pid;

		*nl = 0;
		if (kstrtoint(p, 10, &pid))
			panic("%s: '%s' in cgroup.procs", groups[g].path, p);
		for (int i = 0; i < c->nr; i++)
			if (c->pids[i] == pid)
				panic("pid %d listed twice (the second time in %s)", pid,
				      groups[g].path);
		BUG_ON(c->nr == MAX_PIDS);
		c->pids[c->nr++] = pid;
		for (int a = g; a >= 0; a = groups[a].parent)
			c->populated[a] = true;
	}
}

static void check_tree(void)
{
	char registered[128], buf[256];
	struct census c = { .nr = 0 };

	read_file(0, "cgroup.controllers", registered, sizeof(registered));
	for (int g = 0; g < nr_groups; g++) {
		check_controllers(g, registered);
		count_tasks(g, &c);
	}
	for (int i = 0; i < NR_SLEEPERS; i++) {
		int found = 0;

		for (int j = 0; j < c.nr; j++)
			found += c.pids[j] == sleepers[i]->pid;
		if (found != 1)
			panic("sleeper %d listed %d times", sleepers[i]->pid, found);
	}
	for (int g = 1; g < nr_groups; g++) {
		int below = 0, n;

		for (int d = g + 1; d < nr_groups; d++)
			for (int a = groups[d].parent; a >= 0; a = groups[a].parent)
				below += a == g;
		read_file(g, "cgroup.stat", buf, sizeof(buf));
		if (sscanf(buf, "nr_descendants %d", &n) != 1 || n != below)
			panic("%s: cgroup.stat says '%s', %d groups below", groups[g].path, buf,
			      below);
		read_file(g, "cgroup.events", buf, sizeof(buf));
		if (!str_has_prefix(buf, c.populated[g] ? "populated 1\n" : "populated 0\n"))
			panic("%s: cgroup.events '%s' with%s tasks", groups[g].path, buf,
			      c.populated[g] ? "" : "out");
	}
}

/* Tasks back to the root, the groups removed (children first), the root's controllers off. */
static void restore(void)
{
	char registered[128], off[160] = "", stat[128];

	for (int g = 1; g < nr_groups; g++) {
		static char procs[TEXT_MAX];

		read_file(g, "cgroup.procs", procs, sizeof(procs));
		for (char *p = procs, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
			*nl = 0;
			write_file(0, "cgroup.procs", p);
		}
	}
	for (int g = nr_groups - 1; g > 0; g--)
		if (do_rmdir(groups[g].path))
			panic("cgroup-fuzz: cannot remove %s", groups[g].path);
	read_file(0, "cgroup.controllers", registered, sizeof(registered));
	for (const char *p = registered; *(p += strspn(p, " \n")); p += strcspn(p, " \n"))
		snprintf(off + strlen(off), sizeof(off) - strlen(off), " -%.*s",
			 (int)strcspn(p, " \n"), p);
	write_file(0, "cgroup.subtree_control", off);
	rescan();
	BUG_ON(nr_groups != 1);
	/* the removed groups' controller states are released by work items; then, with no
	 * task and no page charged to them, nothing may hold a removed group */
	flush_workqueue(system_wq);
	read_file(0, "cgroup.stat", stat, sizeof(stat));
	if (!strstr(stat, "nr_dying_descendants 0\n"))
		panic("removed groups not freed: cgroup.stat says '%s'", stat);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_boot_cgroups(1); /* a disk, so that the io controller has a device in io.stat */
	for (int i = 0; i < NR_SLEEPERS; i++) {
		sleepers[i] = kthread_run(sleeper, NULL, "sleeper%d", i);
		BUG_ON(!sleepers[i]);
	}
	rescan();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script s = { data, data + size };

	if (size > 4096)
		return -1;
	while (s.p < s.end)
		run_op(&s);
	check_tree();
	restore();
	return 0;
}
