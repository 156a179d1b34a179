/*
 * A program's descriptor table (Linux's fs/file.c: files_struct, fdget, unshare_files).
 *
 * - A task's own table is its files[] (the shell fills 0, 1 and 2 before a program starts),
 *   which only the task itself touches: no lock. fork copies it (a reference per file).
 * - clone with CLONE_FILES (every glibc thread, and a process that asks) moves the table into
 *   a files_struct that the two tasks then share, under its lock: a descriptor one opens,
 *   closes or dups is the other's at once. The task's files[] stays empty meanwhile.
 * - A file looked up in a shared table is referenced until the system call ends
 *   (files_put_borrowed(), from do_syscall_64()): another thread may close the descriptor
 *   meanwhile, and the file stays until the call is done, as Linux's fdget(). The first
 *   TASK_FILES_HELD such files of a call are noted in the task (a read or write needs
 *   one), the others in a list allocated as they come (a poll of many descriptors).
 * - execve and a task's end take the table back into files[] (a copy while others share it;
 *   the last one takes the files themselves), so do_exit() closes them as any task's, and
 *   the end is reported after that.
 */
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/spinlock.h>
#include <cgwb/errno.h>
#include "internal.h"

struct files_struct {
	spinlock_t lock;
	int refs; /* the tasks sharing it (the lock; read without it when 1) */
	struct file *fd[TASK_NR_FILES];
};

/* A file referenced by the system call in progress (current->files_borrowed). */
struct borrowed_file {
	struct file *file;
	struct borrowed_file *next;
};

/* current's table, locked if it is shared: unlock with table_unlock(). */
static struct file **table_lock(void)
{
	struct files_struct *fs = current->files_shared;

	if (!fs)
		return current->files;
	spin_lock(&fs->lock);
	return fs->fd;
}

static void table_unlock(void)
{
	if (current->files_shared)
		spin_unlock(&current->files_shared->lock);
}

static bool borrowed(struct file *f)
{
	for (unsigned int i = 0; i < current->nr_files_held; i++)
		if (current->files_held[i] == f)
			return true;
	for (struct borrowed_file *b = current->files_borrowed; b; b = b->next)
		if (b->file == f)
			return true;
	return false;
}

struct file *fd_file(int fd)
{
	struct borrowed_file *b = NULL;
	struct file *f;
	bool taken = false;

	if (fd < 0 || fd >= TASK_NR_FILES)
		return NULL;
	if (!current->files_shared)
		return current->files[fd];
	/* shared with nobody left (only current could share it again): as Linux's fdget() */
	if (READ_ONCE(current->files_shared->refs) == 1)
		return current->files_shared->fd[fd];
	if (current->nr_files_held == TASK_FILES_HELD) {
		b = kmalloc(sizeof(*b), GFP_KERNEL);
		if (!b)
			return NULL; /* no way to hold it: as if the descriptor were closed */
	}
	f = table_lock()[fd];
	if (f && !borrowed(f)) {
		get_file(f);
		taken = true;
	}
	table_unlock();
	if (!taken) {
		kfree(b);
		return f; /* NULL, or already held by this call */
	}
	if (!b) {
		current->files_held[current->nr_files_held++] = f;
		return f;
	}
	b->file = f;
	b->next = current->files_borrowed;
	current->files_borrowed = b;
	return f;
}

void files_put_borrowed(void)
{
	struct borrowed_file *b;

	while ((b = current->files_borrowed)) {
		current->files_borrowed = b->next;
		fput(b->file);
		kfree(b);
	}
	while (current->nr_files_held)
		fput(current->files_held[--current->nr_files_held]);
}

int fd_install(struct file *file, int from)
{
	struct file **tab = table_lock();
	int ret = -EMFILE;

	for (int fd = max(from, 0); fd < TASK_NR_FILES; fd++) {
		if (!tab[fd]) {
			tab[fd] = file;
			ret = fd;
			break;
		}
	}
	table_unlock();
	return ret;
}

struct file *fd_remove(int fd)
{
	struct file **tab;
	struct file *f;

	if (fd < 0 || fd >= TASK_NR_FILES)
		return NULL;
	tab = table_lock();
	f = tab[fd];
	tab[fd] = NULL;
	table_unlock();
	return f;
}

struct file *fd_replace(int fd, struct file *file)
{
	struct file **tab = table_lock();
	struct file *old = tab[fd];

	tab[fd] = file;
	table_unlock();
	return old;
}

void files_copy_to(struct task_struct *t)
{
	struct file **tab = table_lock();

	for (int fd = 0; fd < TASK_NR_FILES; fd++)
		t->files[fd] = tab[fd] ? get_file(tab[fd]) : NULL;
	table_unlock();
}

int files_make_shared(void)
{
	struct files_struct *fs;

	if (current->files_shared)
		return 0;
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return -ENOMEM;
	spin_lock_init(&fs->lock);
	fs->refs = 1;
	for (int fd = 0; fd < TASK_NR_FILES; fd++) {
		fs->fd[fd] = current->files[fd];
		current->files[fd] = NULL;
	}
	current->files_shared = fs;
	return 0;
}

void files_share_with(struct task_struct *t)
{
	struct files_struct *fs = current->files_shared;

	spin_lock(&fs->lock);
	fs->refs++;
	spin_unlock(&fs->lock);
	t->files_shared = fs;
}

void files_unshare(void)
{
	struct files_struct *fs = current->files_shared;
	bool last;

	if (!fs)
		return;
	spin_lock(&fs->lock);
	last = !--fs->refs;
	for (int fd = 0; fd < TASK_NR_FILES; fd++) {
		current->files[fd] = fs->fd[fd];
		if (!last && fs->fd[fd])
			get_file(fs->fd[fd]); /* the others keep theirs */
	}
	spin_unlock(&fs->lock);
	current->files_shared = NULL;
	if (last)
		kfree(fs);
}
