/* rm [-f] [-r] PATH... and rmdir DIR...: removing names, with coreutils' messages. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"
#include "internal.h"

#define RM_FORCE SH_OPT('f')
#define RM_RECURSIVE SH_OPT('r')

struct child_names {
	struct dir_context ctx;
	char **v;
	int n, cap;
	bool nomem;
};

static bool collect_child(struct dir_context *ctx, const char *name, int len, loff_t off, u64 ino,
			  unsigned int type)
{
	struct child_names *c = container_of(ctx, struct child_names, ctx);

	(void)off;
	(void)ino;
	(void)type;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		char **v = krealloc(c->v, (size_t)cap * sizeof(char *), GFP_KERNEL);
		if (!v)
			goto nomem;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n] = kstrndup(name, (size_t)len, GFP_KERNEL);
	if (!c->v[c->n])
		goto nomem;
	c->n++;
	return true;
nomem:
	c->nomem = true;
	return false;
}

/*
 * A path still to remove. The tree is walked with this stack on the heap, not by recursion:
 * a tree thousands of directories deep must not overflow the kernel stack.
 */
struct rm_entry {
	struct list_head node; /* on the stack, top first */
	struct rm_entry *parent;
	char *path;
	bool expanded; /* a directory whose children were pushed: rmdir once they are gone */
	bool failed;   /* something inside could not go: the directory stays */
};

static int rm_push(struct list_head *stack, struct rm_entry *parent, char *path)
{
	struct rm_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e) {
		kfree(path);
		return -ENOMEM;
	}
	e->parent = parent;
	e->path = path;
	list_add(&e->node, stack);
	return 0;
}

/* Push what is inside dir (names read first: removing while reading moves entries). */
static int rm_push_children(struct list_head *stack, struct rm_entry *dir)
{
	struct child_names c = { .ctx.actor = collect_child };
	struct file *f = filp_open(dir->path, O_RDONLY | O_DIRECTORY, 0);
	int err, i;

	if (IS_ERR(f))
		return sh_operand_error("rm", "cannot remove", dir->path, (int)PTR_ERR(f));
	err = iterate_dir(f, &c.ctx);
	fput(f);
	if (!err && c.nomem)
		err = -ENOMEM;
	for (i = 0; !err && i < c.n; i++) {
		char *p = fs_join(dir->path, c.v[i]);

		err = p ? rm_push(stack, dir, p) : -ENOMEM;
	}
	for (i = 0; i < c.n; i++)
		kfree(c.v[i]);
	kfree(c.v);
	return err ? sh_operand_error("rm", "cannot remove", dir->path, err) : 0;
}

/* One step on the top entry: 0 if it is done with (removed, or failed), 1 if it grew. */
static int rm_step(struct list_head *stack, struct rm_entry *e, u64 flags)
{
	struct kstat st;
	int err;

	if (e->expanded) {
		err = e->failed ? 0 : do_rmdir(e->path);
	} else {
		err = vfs_lstat(e->path, &st);
		if (!err && S_ISDIR(st.mode)) {
			if (!(flags & RM_RECURSIVE))
				err = -EISDIR;
			else if (rm_push_children(stack, e))
				e->failed = true; /* said why already */
			else
				e->expanded = true;
			if (e->expanded || e->failed)
				return e->expanded;
		} else if (!err) {
			err = do_unlink(e->path);
		}
	}
	if (err && !(err == -ENOENT && (flags & RM_FORCE))) {
		e->failed = true;
		sh_operand_error("rm", "cannot remove", e->path, err);
	}
	return 0;
}

static int rm_path(const char *path, u64 flags)
{
	LIST_HEAD(stack);
	char *top = kstrdup(path, GFP_KERNEL);
	bool failed = false;

	if (!top || rm_push(&stack, NULL, top))
		return sh_operand_error("rm", "cannot remove", path, -ENOMEM);
	while (!list_empty(&stack)) {
		struct rm_entry *e = list_first_entry(&stack, struct rm_entry, node);

		if (signal_pending(current))
			e->failed = true; /* Ctrl-C: what is left stays */
		else if (rm_step(&stack, e, flags))
			continue;
		if (e->failed)
			*(e->parent ? &e->parent->failed : &failed) = true;
		list_del(&e->node);
		kfree(e->path);
		kfree(e);
	}
	return failed ? 1 : 0;
}

static bool dot_or_dotdot(const char *path)
{
	char base[NAME_MAX + 1];

	fs_basename(path, base, sizeof(base));
	return !strcmp(base, ".") || !strcmp(base, "..");
}

/* One operand of rm; ctx: the flags. */
static int rm_operand(const char *path, void *ctx)
{
	u64 flags = *(u64 *)ctx;

	if ((flags & RM_RECURSIVE) && dot_or_dotdot(path))
		return sh_error("rm", "refusing to remove '.' or '..' directory: skipping '%s'",
				path);
	if ((flags & RM_RECURSIVE) && !strcmp(path, "/"))
		return sh_error("rm", "it is dangerous to operate recursively on '/'");
	return rm_path(path, flags);
}

static int cmd_rm(int argc, char **argv)
{
	u64 flags;
	int first = sh_flags(argc, argv, "fr", &flags);

	if (first < 0)
		return 2;
	if (first == argc)
		return (flags & RM_FORCE) ? 0 : sh_missing_operand("rm", "operand");
	return sh_for_each_operand(argc, argv, first, rm_operand, &flags);
}
DEFINE_SHELL_CMD(rm, "rm", "rm [-f] [-r] PATH...", "remove files (-r: and directories)", cmd_rm, 0);

static int rmdir_operand(const char *path, void *ctx)
{
	int err = do_rmdir(path);

	return err ? sh_operand_error("rmdir", "failed to remove", path, err) : 0;
}

static int cmd_rmdir(int argc, char **argv)
{
	return sh_operands_main(argc, argv, "", "operand", rmdir_operand);
}
DEFINE_SHELL_CMD(rmdir, "rmdir", "rmdir DIR...", "remove empty directories", cmd_rmdir, 0);
