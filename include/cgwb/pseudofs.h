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

/**
 * pseudo_fs_register() - a new pseudo filesystem type and its root directory
 * @fs_name: the type's name, mountable with do_mount(..., fs_name, ...); static
 * @magic: its statfs f_type
 *
 * Every mount shows the same tree.
 *
 * Context: process context; may sleep.
 * Return: the root directory, or an ERR_PTR: -ENOMEM, or -EBUSY if a filesystem type of
 * that name exists.
 */
struct pseudo_node *pseudo_fs_register(const char *fs_name, unsigned long magic);

/* The trees mounted at /proc, /sys and /sys/kernel/debug (after vfs_init). */
struct pseudo_node *pseudo_proc_root(void);
struct pseudo_node *pseudo_sysfs_root(void);
struct pseudo_node *pseudo_debugfs_root(void);

/* New nodes. */
/**
 * pseudo_mkdir() - a new plain directory
 * @parent: the directory it goes in
 * @name: its name
 *
 * Context: process context; may sleep.
 * Return: the node, or an ERR_PTR: -EINVAL for a bad name, -EEXIST if the name is taken,
 * -ENOENT if @parent was removed, -ENOTDIR, -ENOMEM.
 */
struct pseudo_node *pseudo_mkdir(struct pseudo_node *parent, const char *name);
/**
 * pseudo_mkdir_ops() - a new directory below which users may mkdir and rmdir
 * @parent: the directory it goes in
 * @name: its name
 * @ops: the hooks mkdir(2) and rmdir(2) call (with ->mkdir the directory is writable)
 * @private: passed to the hooks
 *
 * Context: process context; may sleep.
 * Return: the node, or an ERR_PTR as pseudo_mkdir().
 */
struct pseudo_node *pseudo_mkdir_ops(struct pseudo_node *parent, const char *name,
				     const struct pseudo_dir_ops *ops, void *private);
/**
 * pseudo_create_file() - a new file
 * @parent: the directory it goes in
 * @name: its name
 * @mode: permission bits (0444, 0644, 0200); the file type is added
 * @show: prints its content at open, or NULL for a write-only file
 * @store: acts on each write, or NULL for a read-only file
 * @private: passed to the callbacks
 *
 * Context: process context; may sleep.
 * Return: the node, or an ERR_PTR: -EINVAL for a bad name or neither callback, or as
 * pseudo_mkdir().
 */
struct pseudo_node *pseudo_create_file(struct pseudo_node *parent, const char *name, umode_t mode,
				       pseudo_show_t show, pseudo_store_t store, void *private);
/**
 * pseudo_create_stream() - a new read-only file read as a stream (Linux's trace_pipe)
 * @parent: the directory it goes in
 * @name: its name
 * @mode: permission bits
 * @show: called by a read that finds the previous output consumed; it may sleep until
 *        there is something new (interruptibly: its -EINTR is the read's); printing
 *        nothing ends the stream (the read returns 0)
 * @private: passed to @show
 *
 * Nothing is printed at open.
 *
 * Context: process context; may sleep.
 * Return: the node, or an ERR_PTR: -EINVAL without @show, or as pseudo_create_file().
 */
struct pseudo_node *pseudo_create_stream(struct pseudo_node *parent, const char *name, umode_t mode,
					 pseudo_show_t show, void *private);
struct pseudo_node *pseudo_symlink(struct pseudo_node *parent, const char *name, const char *target);
/**
 * pseudo_set_truncate() - give a writable file an action on truncation to size 0
 * @file: the file, with a store() (anything else BUGs)
 * @truncate: called on an open with O_TRUNC (Linux's trace clears then)
 *
 * Files without one ignore truncation, as they ignore sizes and times.
 *
 * Context: before the file is first opened.
 */
void pseudo_set_truncate(struct pseudo_node *file, pseudo_truncate_t truncate);
/**
 * pseudo_mkdir_p() - every directory of a path, made as needed
 * @parent: where the path starts
 * @path: "a/b/c"; repeated slashes are one
 *
 * Context: process context; may sleep.
 * Return: the last directory, or an ERR_PTR: -ENAMETOOLONG, or as pseudo_mkdir() (two
 * callers making the same directory at once may get -EEXIST).
 */
struct pseudo_node *pseudo_mkdir_p(struct pseudo_node *parent, const char *path);
/**
 * pseudo_remove() - remove a node and everything below it
 * @node: the node; nothing is done for an ERR_PTR, NULL, a root or a node removed already
 *
 * Waits until no callback of the subtree runs: on return the subsystem may free what
 * their private pointed to. Files left open keep their snapshot for reading; writes fail
 * with -ENODEV.
 *
 * Context: process context; sleeps; not from a callback of the subtree.
 */
void pseudo_remove(struct pseudo_node *node);
/* Remove the children of dir whose names start with prefix (a controller's "memory." files). */
void pseudo_remove_prefixed(struct pseudo_node *dir, const char *prefix);
/**
 * pseudo_remove_prefixed_except() - remove a directory's children of a prefix, but some
 * @dir: the directory
 * @prefix: the names removed start with it (a controller's "io.")
 * @keep_suffix: but names that end with it stay (the cgroup core's "io.pressure")
 *
 * Each is removed as pseudo_remove() does.
 *
 * Context: process context; sleeps; not from a callback of the nodes removed.
 */
void pseudo_remove_prefixed_except(struct pseudo_node *dir, const char *prefix,
				   const char *keep_suffix);
/**
 * pseudo_set_dir_ops() - give an existing directory mkdir/rmdir hooks
 * @dir: the directory (a filesystem's root from pseudo_fs_register(): cgroupfs)
 * @ops: the hooks, as pseudo_mkdir_ops() takes them
 * @private: passed to the hooks
 *
 * Context: process context, before the first mount; may sleep.
 */
void pseudo_set_dir_ops(struct pseudo_node *dir, const struct pseudo_dir_ops *ops, void *private);
/**
 * pseudo_lookup() - the node at a path
 * @dir: where the path starts
 * @path: "a/b"; repeated slashes are one
 *
 * No reference is taken.
 *
 * Context: process context; may sleep (the tree's mutex).
 * Return: the node, valid until it is removed; or NULL.
 */
struct pseudo_node *pseudo_lookup(struct pseudo_node *dir, const char *path);

/**
 * pseudo_private() - a node's private pointer
 * @node: the node
 *
 * Context: any context.
 * Return: what it was created with (or pseudo_set_dir_ops() gave it).
 */
void *pseudo_private(const struct pseudo_node *node);
const char *pseudo_name(const struct pseudo_node *node);
struct pseudo_node *pseudo_parent(const struct pseudo_node *node);

#endif
