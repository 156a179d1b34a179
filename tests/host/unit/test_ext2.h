/*
 * Shared by the ext2 host tests (test_ext2_*.c): the storage stack brought up on the host
 * platform, images made by mke2fs in a scratch directory and attached as a file-backed
 * disk, file helpers over the VFS, and the host tools (e2fsck, debugfs, dumpe2fs) that
 * judge what the driver left on disk.
 */
#ifndef TEST_EXT2_H
#define TEST_EXT2_H

#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include "filedisk.h"

#define EXT2T_MNT "/mnt"

struct ext2t {
	char dir[64];        /* scratch directory (removed at teardown) */
	char img[96];        /* the image */
	char check_img[128]; /* if set: what fsck, dump and dumpe2fs look at instead */
	struct gendisk *disk;
};

extern struct ext2t ext2t_env;

/* Platform and storage stack up, scratch directory made. mem_mib of arena. */
void ext2t_boot(size_t mem_mib);
void ext2t_shutdown(void);

/* Run a shell command (printf-style); returns its exit status. */
int ext2t_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run a shell command and read the first number it prints into *v (0 and false if none). */
bool ext2t_sh_number(unsigned long long *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* mke2fs -q -F -t ext2 OPTS IMG SIZE_KIB into T.img. */
void ext2t_mkfs(const char *opts, unsigned int size_kib);
/* Attach T.img as vda (once per process) and mount it on /mnt; returns mount's error. */
void ext2t_attach(void);
int ext2t_attach_mount(void);
int ext2t_mount(void);
void ext2t_umount(void);

/* e2fsck -fn: exit status 0 and nothing but the pass and summary lines. */
void ext2t_fsck_clean(void);
/* debugfs dump of path (in the image) compared byte for byte with data. */
void ext2t_expect_dump(const char *path, const void *data, size_t len);
/* ... with len bytes of the ext2t_fill() pattern of seed. */
void ext2t_expect_dump_pattern(const char *path, u32 seed, size_t len);
/* Free blocks and inodes as the on-disk superblock (dumpe2fs -h) says. */
void ext2t_disk_free(u64 *blocks, u64 *inodes);

/* Raw bytes of the image (corruption tests). */
void ext2t_poke(long offset, const void *buf, size_t len);
void ext2t_peek(long offset, void *buf, size_t len);

/* Deterministic contents: byte at offset of a file identified by seed. */
u8 ext2t_pattern(u32 seed, u64 offset);
void ext2t_fill(void *buf, size_t len, u32 seed, u64 offset);

/* VFS file helpers on full paths; each returns 0 or -errno. */
int ext2t_write(const char *path, unsigned int flags, loff_t pos, const void *buf, size_t len);
int ext2t_write_pattern(const char *path, u32 seed, loff_t pos, u64 len);
/* fsync(2) of the file at path: its error. */
int ext2t_fsync(const char *path);
int ext2t_read(const char *path, loff_t pos, void *buf, size_t len, ssize_t *got);
/* Compare a file's size and contents with the pattern. */
int ext2t_check_pattern(const char *path, u32 seed, u64 len);
loff_t ext2t_size(const char *path);
/* Names in a directory (count), with a callback for each entry. */
int ext2t_readdir(const char *path,
		  void (*fn)(const char *name, int len, u64 ino, unsigned int type, void *arg),
		  void *arg);
int ext2t_count_entries(const char *path);
void ext2t_statfs(u64 *bfree, u64 *ffree);
/* The superblock mounted on EXT2T_MNT. */
struct super_block *ext2t_sb(void);

#endif
