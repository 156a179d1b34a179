/*
 * Inode and dentry caches: reference counts, the LRU and eviction, unlinked-while-open
 * files, pruning under memory pressure, umount's busy check.
 */
#include "vfs_test.h"
#include <cgwb/slab.h>
#include <cgwb/vmstat.h>
#include <cgwb/string.h>

TestSuite(vfs_icache, .init = vfs_test_setup, .fini = vfs_test_teardown);

/* ---------------------------------------------------------------- a tiny hashed fs */
/* "cachefs": every name "N" (a number) exists, as the inode N; inodes are hashed. */
static int evicted;

static struct dentry *cfs_lookup(struct inode *dir, struct dentry *dentry)
{
	unsigned int ino;
	struct inode *inode;

	if (kstrtouint(dentry->d_name.name, 10, &ino) || !ino)
		return d_splice_alias(NULL, dentry);
	inode = iget_locked(dir->i_sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (inode->i_state & I_NEW) {
		inode->i_mode = S_IFREG | 0444;
		unlock_new_inode(inode);
	}
	return d_splice_alias(inode, dentry);
}

static const struct inode_operations cfs_dir_iops = { .lookup = cfs_lookup };

static void cfs_evict(struct inode *inode)
{
	(void)inode;
	evicted++;
}

static const struct super_operations cfs_sops = { .evict_inode = cfs_evict };

static struct super_block *cfs_mount(struct file_system_type *type, int flags, const char *dev,
				     void *data)
{
	struct super_block *sb = alloc_super(type, flags);
	struct inode *root;

	sb->s_op = &cfs_sops;
	set_anon_super(sb);
	root = iget_locked(sb, 1000000);
	root->i_mode = S_IFDIR | 0555;
	root->i_op = &cfs_dir_iops;
	unlock_new_inode(root);
	sb->s_root = d_make_root(root);
	return sb;
}

static struct file_system_type cfs_type = {
	.name = "cachefs",
	.mount = cfs_mount,
	.kill_sb = kill_anon_super,
};

static void mount_cachefs(void)
{
	cr_assert_eq(register_filesystem(&cfs_type), 0);
	cr_assert_eq(do_mkdir("/mnt/c", 0755), 0);
	cr_assert_eq(do_mount("none", "/mnt/c", "cachefs", 0, NULL), 0);
}

Test(vfs_icache, iget_finds_the_cached_inode)
{
	struct path a, b;
	struct super_block *sb;

	mount_cachefs();
	cr_assert_eq(kern_path("/mnt/c/7", 0, &a), 0);
	sb = a.dentry->d_sb;
	struct inode *again = iget_locked(sb, 7);
	cr_assert_eq(again, a.dentry->d_inode);
	cr_assert_eq(again->i_count, 2);
	iput(again);
	cr_assert_eq(kern_path("/mnt/c/7", 0, &b), 0);
	cr_assert_eq(b.dentry, a.dentry); /* the dcache answered */
	path_put(&a);
	path_put(&b);
	cr_assert_eq(kern_path("/mnt/c/zero", 0, &a), -ENOENT);
}

Test(vfs_icache, unused_inodes_stay_cached_until_pruned)
{
	struct path p;
	struct super_block *sb;
	unsigned long before;

	mount_cachefs();
	cr_assert_eq(kern_path("/mnt/c/42", 0, &p), 0);
	sb = p.dentry->d_sb;
	path_put(&p);
	cr_assert_eq(evicted, 0);
	/* the dentry pins the inode: prune the dentry, then the inode is unused, on the LRU */
	before = nr_dentries_cached();
	while (prune_dcache(1000))
		;
	cr_assert_lt(nr_dentries_cached(), before);
	cr_assert_eq(evicted, 0);
	cr_assert_geq(sb->s_nr_inodes_unused, 1);
	/* found again without the filesystem reading it */
	struct inode *inode = iget_locked(sb, 42);
	cr_assert(!(inode->i_state & I_NEW));
	iput(inode);
	/* the first pass gives referenced inodes a second chance */
	prune_icache(1000);
	prune_icache(1000);
	cr_assert_eq(evicted, 1);
	cr_assert_eq(sb->s_nr_inodes_unused, 0);
}

Test(vfs_icache, umount_evicts_and_refuses_when_busy)
{
	struct path p;

	mount_cachefs();
	cr_assert_eq(kern_path("/mnt/c/5", 0, &p), 0);
	cr_assert_eq(do_umount("/mnt/c", 0), -EBUSY);
	path_put(&p);
	cr_assert_eq(kern_path("/mnt/c/6", 0, &p), 0);
	path_put(&p);
	cr_assert_eq(do_umount("/mnt/c", 0), 0);
	cr_assert_eq(evicted, 3); /* 5, 6 and the root */
}

Test(vfs_icache, unlinked_open_file_lives_until_last_close)
{
	char buf[32];
	struct file *f;
	unsigned long inodes;

	cr_assert_eq(vt_write("/tmp/doomed", "still here", 0), 10);
	f = filp_open("/tmp/doomed", O_RDWR, 0);
	cr_assert(!IS_ERR(f));
	inodes = nr_inodes_cached();
	cr_assert_eq(do_unlink("/tmp/doomed"), 0);
	cr_assert_eq(vt_open_err("/tmp/doomed", O_RDONLY), -ENOENT);
	cr_assert_eq(nr_inodes_cached(), inodes);
	cr_assert_eq(file_read(f, buf, sizeof(buf)), 10);
	cr_assert_eq(f->f_inode->i_nlink, 0);
	cr_assert_gt(f->f_mapping->nrpages, 0);
	cr_assert_eq(d_path(&f->f_path, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "/tmp/doomed (deleted)");
	fput(f);
	cr_assert_eq(nr_inodes_cached(), inodes - 1);
}

Test(vfs_icache, umount_busy_with_open_file_or_cwd)
{
	struct file *f;

	cr_assert_eq(do_mkdir("/mnt/t", 0755), 0);
	cr_assert_eq(do_mount("none", "/mnt/t", "tmpfs", 0, NULL), 0);
	cr_assert_eq(vt_write("/mnt/t/f", "x", 0), 1);
	f = filp_open("/mnt/t/f", O_RDONLY, 0);
	cr_assert_eq(do_umount("/mnt/t", 0), -EBUSY);
	fput(f);
	cr_assert_eq(set_fs_pwd("/mnt/t"), 0);
	cr_assert_eq(do_umount("/mnt/t", 0), -EBUSY);
	cr_assert_eq(set_fs_pwd("/"), 0);
	cr_assert_eq(do_mkdir("/mnt/t/below", 0755), 0);
	cr_assert_eq(do_mount("none", "/mnt/t/below", "tmpfs", 0, NULL), 0);
	cr_assert_eq(do_umount("/mnt/t", 0), -EBUSY);
	cr_assert_eq(do_umount("/mnt/t/below", 0), 0);
	cr_assert_eq(do_umount("/mnt/t", 0), 0);
	exit_fs(current);
}

Test(vfs_icache, ramfs_pages_are_unevictable_and_freed_by_unlink)
{
	char *big = malloc(5 * 4096);
	unsigned long unevictable = global_node_page_state_snapshot(NR_UNEVICTABLE);

	memset(big, 'z', 5 * 4096);
	big[5 * 4096 - 1] = 0;
	cr_assert_eq(vt_write("/tmp/big", big, 0), 5 * 4096 - 1);
	cr_assert_eq(global_node_page_state_snapshot(NR_UNEVICTABLE), unevictable + 5);
	cr_assert_eq(global_node_page_state_snapshot(NR_FILE_DIRTY), 0);
	drop_pagecache();
	cr_assert_eq(global_node_page_state_snapshot(NR_UNEVICTABLE), unevictable + 5);
	cr_assert_eq(do_truncate("/tmp/big", 4096), 0);
	cr_assert_eq(global_node_page_state_snapshot(NR_UNEVICTABLE), unevictable + 1);
	cr_assert_eq(do_unlink("/tmp/big"), 0);
	cr_assert_eq(global_node_page_state_snapshot(NR_UNEVICTABLE), unevictable);
	free(big);
}
