/* Shared by the pseudo filesystem framework's files (tree.c, inode.c). */
#ifndef CGWB_FS_PSEUDO_INTERNAL_H
#define CGWB_FS_PSEUDO_INTERNAL_H

#include <cgwb/pseudofs.h>
#include <cgwb/fs.h>
#include <cgwb/list.h>

struct pseudo_fs {
	struct file_system_type type;
	struct pseudo_node *root;
	struct super_block *sb; /* the one superblock every mount shares, or NULL */
	unsigned long magic;
};

struct pseudo_node {
	char *name;
	umode_t mode;
	unsigned long ino;
	struct pseudo_fs *fs;
	struct pseudo_node *parent; /* referenced */
	struct list_head children;  /* directories: live children (pseudo_mutex) */
	struct list_head sibling;
	int refcount; /* the tree's, inodes', open files' (pseudo_lock) */
	int active;   /* callbacks running now (pseudo_lock) */
	bool removed;
	pseudo_show_t show;
	pseudo_store_t store;
	pseudo_truncate_t truncate; /* on truncation to 0, or NULL: ignored */
	bool stream;                /* show() runs per read, not per open (trace_pipe) */
	void *private;
	const struct pseudo_dir_ops *dir_ops;
	char *link_target;
};

void pseudo_get(struct pseudo_node *node);
void pseudo_put(struct pseudo_node *node);
/* Enter/leave a callback of node; false if it was removed. */
bool pseudo_get_active(struct pseudo_node *node);
void pseudo_put_active(struct pseudo_node *node);
/* The live child called name (referenced), or NULL. */
struct pseudo_node *pseudo_child_get(struct pseudo_node *dir, const char *name, size_t len);
/* The index-th live child: its name copied into buf (NAME_MAX + 1), ino and mode. */
bool pseudo_child_at(struct pseudo_node *dir, loff_t index, char *buf, unsigned long *ino,
		     umode_t *mode);
int pseudo_register_type(struct pseudo_fs *fs);

#endif
