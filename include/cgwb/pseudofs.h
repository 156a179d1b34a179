/*
 * Pseudo filesystems (/proc, /sys, /sys/kernel/debug, cgroupfs): a tree of nodes that
 * subsystems build and change at run time, shown through the VFS as directories, files
 * and symlinks.
 *
 * Files. A readable file has a show() callback that prints its whole content into a
 * seq_buf when the file is opened: reads then serve that snapshot, so a reader sees one
 * consistent state however it splits its reads. A writable file has a store() callback,
 * called once per write() with that write's bytes (NUL-terminated for convenience): it
 * returns 0 (the write consumed everything) or -errno, which the writer gets back
 * (echo 1 > file prints "Invalid argument" for -EINVAL). Opening for reading a file
 * without show(), or for writing one without store(), fails with -EACCES.
 *
 * Directories. pseudo_mkdir() makes a plain directory. A directory given pseudo_dir_ops
 * lets users mkdir/rmdir below it: mkdir(2) calls ops->mkdir, which creates the new
 * directory with pseudo_mkdir() (and its files) and returns 0 or -errno; rmdir(2) calls
 * ops->rmdir, which may refuse (-EBUSY) or tear its object down and return 0, after which
 * the framework removes the directory node if the callback did not.
 *
 * Lifetimes. Callbacks run with the node "active"; pseudo_remove() unlinks a node and its
 * subtree and waits until no callback of theirs runs, so on return the subsystem may free
 * what private pointed to. Files left open on a removed node keep their snapshot for
 * reading; writes fail with -ENODEV. Nodes are created and removed in process context.
 *
 * Example:
 *	static int stat_show(struct seq_buf *s, void *private)
 *	{
 *		struct thing *t = private;
 *		seq_printf(s, "count %lu\n", t->count);
 *		return 0;
 *	}
 *	dir = pseudo_mkdir(pseudo_sysfs_root(), "thing");
 *	pseudo_create_file(dir, "stat", 0444, stat_show, NULL, t);
 */
#ifndef CGWB_PSEUDOFS_H
#define CGWB_PSEUDOFS_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>
#include <cgwb/seq_buf.h>

typedef unsigned int umode_t;

/* ---------------------------------------------------------------- nodes */
struct pseudo_node;

/* Print the file's content into s; 0 or -errno (the open then fails with it). */
typedef int (*pseudo_show_t)(struct seq_buf *s, void *private);
/* Act on one write of len bytes (buf[len] == 0); 0 or -errno. */
typedef int (*pseudo_store_t)(const char *buf, size_t len, void *private);
/* Act on a truncation to size 0 (an open with O_TRUNC, `: > file`); 0 or -errno. */
typedef int (*pseudo_truncate_t)(void *private);

struct pseudo_dir_ops {
	int (*mkdir)(struct pseudo_node *parent, const char *name, void *private);
	int (*rmdir)(struct pseudo_node *parent, struct pseudo_node *dir, void *private);
};

/*
 * A new pseudo filesystem type fs_name (mountable with do_mount(..., fs_name, ...)) and
 * its root directory. Every mount shows the same tree.
 */
struct pseudo_node *pseudo_fs_register(const char *fs_name, unsigned long magic);

/* The trees mounted at /proc, /sys and /sys/kernel/debug (after vfs_init). */
struct pseudo_node *pseudo_proc_root(void);
struct pseudo_node *pseudo_sysfs_root(void);
struct pseudo_node *pseudo_debugfs_root(void);

/* New nodes (ERR_PTR(-EEXIST) if the name is taken, -ENOENT if parent was removed). */
struct pseudo_node *pseudo_mkdir(struct pseudo_node *parent, const char *name);
struct pseudo_node *pseudo_mkdir_ops(struct pseudo_node *parent, const char *name,
				     const struct pseudo_dir_ops *ops, void *private);
/* mode: permission bits (0444, 0644, 0200); the file type is added. */
struct pseudo_node *pseudo_create_file(struct pseudo_node *parent, const char *name, umode_t mode,
				       pseudo_show_t show, pseudo_store_t store, void *private);
/*
 * A read-only file read as a stream (Linux's trace_pipe): nothing is printed at open; a
 * read that finds the previous output consumed calls show() again, which may sleep until
 * there is something new (interruptibly: its -EINTR is the read's). A show() that prints
 * nothing ends the stream (the read returns 0).
 */
struct pseudo_node *pseudo_create_stream(struct pseudo_node *parent, const char *name, umode_t mode,
					 pseudo_show_t show, void *private);
struct pseudo_node *pseudo_symlink(struct pseudo_node *parent, const char *name, const char *target);
/*
 * Give a writable file an action on truncation to size 0 (Linux's `trace` clears on an open
 * with O_TRUNC). Files without one ignore truncation, as they ignore sizes and times.
 * Before the file is first opened.
 */
void pseudo_set_truncate(struct pseudo_node *file, pseudo_truncate_t truncate);
/* Every directory of path ("a/b/c") under parent, made as needed; the last one. */
struct pseudo_node *pseudo_mkdir_p(struct pseudo_node *parent, const char *path);
/* Remove node and everything below it, waiting for running callbacks (see above). */
void pseudo_remove(struct pseudo_node *node);
/* Remove the children of dir whose names start with prefix (a controller's "memory." files). */
void pseudo_remove_prefixed(struct pseudo_node *dir, const char *prefix);
/* The same, but for the names that end with keep_suffix (the cgroup core's "io.pressure"). */
void pseudo_remove_prefixed_except(struct pseudo_node *dir, const char *prefix,
				   const char *keep_suffix);
/*
 * Give an existing directory mkdir/rmdir hooks, as pseudo_mkdir_ops does for a new one: how
 * a filesystem's root (pseudo_fs_register) gets them (cgroupfs). Before the first mount.
 */
void pseudo_set_dir_ops(struct pseudo_node *dir, const struct pseudo_dir_ops *ops, void *private);
/* The node at path ("a/b") under dir, or NULL. Valid until the node is removed. */
struct pseudo_node *pseudo_lookup(struct pseudo_node *dir, const char *path);

void *pseudo_private(const struct pseudo_node *node);
const char *pseudo_name(const struct pseudo_node *node);
struct pseudo_node *pseudo_parent(const struct pseudo_node *node);

#endif
