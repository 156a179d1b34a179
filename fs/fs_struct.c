/*
 * Working directories. A task's fs_struct holds a referenced path (so the directory's
 * mount cannot be unmounted under it, and a removed directory stays usable as "." until
 * the task leaves it); a task without one works from the root. A child starts in its
 * parent's directory with its own copy (cd in one never moves the other), or, cloned with
 * CLONE_FS as threads are, shares the parent's: a chdir of any moves them all, as Linux's.
 */
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include "vfs.h"

static struct fs_struct *alloc_fs_struct(const struct path *pwd)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs), GFP_KERNEL);

	if (!fs)
		return NULL;
	fs->users = 1;
	spin_lock_init(&fs->lock);
	fs->pwd = *pwd;
	path_get(&fs->pwd);
	return fs;
}

void get_fs_pwd(struct path *pwd)
{
	struct fs_struct *fs = current ? current->fs : NULL;

	if (!fs) {
		get_fs_root(pwd);
		return;
	}
	spin_lock(&fs->lock);
	*pwd = fs->pwd;
	path_get(pwd);
	spin_unlock(&fs->lock);
}

/* Make path (referenced by the caller, who keeps its reference) the task's directory. */
static int set_task_pwd(struct task_struct *task, const struct path *path)
{
	struct fs_struct *fs = task->fs;
	struct path old;

	if (!fs) {
		fs = alloc_fs_struct(path);
		if (!fs)
			return -ENOMEM;
		task->fs = fs;
		return 0;
	}
	path_get(path);
	spin_lock(&fs->lock);
	old = fs->pwd;
	fs->pwd = *path;
	spin_unlock(&fs->lock);
	path_put(&old);
	return 0;
}

int set_fs_pwd(const char *name)
{
	struct path path;
	int err = kern_path(name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);

	if (err)
		return err;
	err = set_task_pwd(current, &path);
	path_put(&path);
	return err;
}

void task_copy_fs(struct task_struct *child, struct task_struct *parent)
{
	struct path pwd;

	if (!parent || !parent->fs || child->fs)
		return;
	spin_lock(&parent->fs->lock);
	pwd = parent->fs->pwd;
	path_get(&pwd);
	spin_unlock(&parent->fs->lock);
	child->fs = alloc_fs_struct(&pwd); /* no memory: the child starts at the root */
	path_put(&pwd);
}

int task_share_fs(struct task_struct *child, struct task_struct *parent)
{
	struct fs_struct *fs = parent->fs;

	if (!fs) {
		struct path root;

		get_fs_root(&root);
		fs = alloc_fs_struct(&root);
		path_put(&root);
		if (!fs)
			return -ENOMEM;
		parent->fs = fs; /* only the parent itself runs this: nobody else reads it yet */
	}
	spin_lock(&fs->lock);
	fs->users++;
	spin_unlock(&fs->lock);
	child->fs = fs;
	return 0;
}

void exit_fs(struct task_struct *task)
{
	struct fs_struct *fs = task->fs;
	int users;

	if (!fs)
		return;
	task->fs = NULL;
	spin_lock(&fs->lock);
	users = --fs->users;
	spin_unlock(&fs->lock);
	if (users)
		return;
	path_put(&fs->pwd);
	kfree(fs);
}
