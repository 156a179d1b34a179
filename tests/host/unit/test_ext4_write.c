/*
 * Writing ext4 without a journal: images from `mke2fs -t ext4 -O ^has_journal -d` (extent,
 * flex_bg, metadata_csum, 64bit, huge_file, dir_nlink, extra_isize, dir_index) mounted
 * read-write as type ext4, changed through the VFS, and judged on the host: `e2fsck -fn`
 * clean (every checksum, bitmap, count and extent tree right) and `debugfs` dumping the
 * bytes written. New files use extents; sequential writes make few of them; scattered
 * ones grow the tree past depth 1; truncate and unlink give every block back.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/slab.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"

static void setup(void)
{
	ext2t_boot(64);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext4_write, .init = setup, .fini = teardown);

static const char *const nojournal_opts[] = { "-b 1024 -O ^has_journal", "-b 4096 -O "
									 "^has_journal" };

ParameterizedTestParameters(ext4_write, files)
{
	static int index[] = { 0, 1 };

	return cr_make_param_array(int, index, 2);
}

/* debugfs's copy of path equals the pattern of seed over len bytes. */
/* The depth of path's extent tree as debugfs prints it ("Level Entries" then " 0/ 2 ..."). */
static unsigned long long extent_depth(const char *path)
{
	unsigned long long depth = 0;

	ext2t_sh_number(&depth, "debugfs -R 'ex %s' %s 2>/dev/null | awk 'NR==2 {print $2}'", path,
			ext2t_env.img);
	return depth;
}

/* Extents (leaf lines: "L/ L" with L the depth) debugfs lists for path. */
static unsigned long long extent_count(const char *path)
{
	unsigned long long n = 0;

	ext2t_sh_number(&n,
			"debugfs -R 'ex %s' %s 2>/dev/null | awk 'NR > 1 && $1 == $2 \"/\"' | wc "
			"-l",
			path, ext2t_env.img);
	return n;
}

static bool has_extents_flag(const char *path)
{
	return ext2t_sh("debugfs -R 'stat %s' %s 2>/dev/null | grep -q 'Flags: 0x80000'", path,
			ext2t_env.img) == 0;
}

ParameterizedTest(int *opt, ext4_write, files)
{
	static const u64 sizes[] = { 0, 1, 5000, 300000, 3u << 20 };
	char path[64], buf[256];

	ext4t_make_image(nojournal_opts[*opt]);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	for (unsigned int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/new%u", i);
		cr_assert_eq(ext2t_write_pattern(path, 200 + i, 0, sizes[i]), 0, "%s", path);
	}
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d1", 0755), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d1/d2", 0755), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/d1/d2/file", 300, 0, 70000), 0);
	cr_assert_eq(do_symlink("new1", EXT2T_MNT "/d1/fastlink"), 0);
	memset(buf, 'x', 200);
	buf[200] = 0;
	cr_assert_eq(do_symlink(buf, EXT2T_MNT "/d1/slowlink"), 0);
	cr_assert_eq(do_link(EXT2T_MNT "/new3", EXT2T_MNT "/d1/hard"), 0);
	cr_assert_eq(do_rename(EXT2T_MNT "/new2", EXT2T_MNT "/d1/renamed"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/f6"), 0);     /* mke2fs's extents freed */
	cr_assert_eq(do_unlink(EXT2T_MNT "/sparse"), 0); /* with an index level */
	cr_assert_eq(do_truncate(EXT2T_MNT "/f7", 100000), 0);
	cr_assert_eq(do_truncate(EXT2T_MNT "/new4", 1000000), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/dir/sub/deep", 9, 5000, 20000), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	for (unsigned int i = 0; i < 5; i++) {
		if (i == 2)
			continue;
		snprintf(path, sizeof(path), "/new%u", i);
		ext2t_expect_dump_pattern(path, 200 + i, i == 4 ? 1000000 : sizes[i]);
		cr_expect(has_extents_flag(path), "%s is not extent-mapped", path);
	}
	ext2t_expect_dump_pattern("/d1/renamed", 202, 5000);
	ext2t_expect_dump_pattern("/d1/hard", 203, 300000);
	ext2t_expect_dump_pattern("/d1/d2/file", 300, 70000);
	ext2t_expect_dump_pattern("/dir/sub/deep", 9, 25000);
	ext2t_expect_dump_pattern("/f7", 107, 100000);
	cr_expect(has_extents_flag("/d1/d2"), "a new directory is not extent-mapped");
	cr_expect_leq(extent_count("/new4"), 4, "a file written in order has scattered extents");
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /d1/slowlink' %s 2>/dev/null | grep -q 'Fast link'",
			      ext2t_env.img),
		     1);
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /d1/fastlink' %s 2>/dev/null | grep -q 'Fast link "
			      "dest: \"new1\"'",
			      ext2t_env.img),
		     0);
	/* everything made is given back: only the originals' changes remain */
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(do_unlink(EXT2T_MNT "/d1/d2/file"), 0);
	cr_assert_eq(do_rmdir(EXT2T_MNT "/d1/d2"), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/d1/renamed", 202, 5000), 0);
	ext2t_umount();
	ext2t_fsck_clean();
}

/* Chunks far apart: one extent each, more than a leaf holds, so the tree grows twice. */
static void write_scattered(const char *path, unsigned int chunks, bool backwards, loff_t step)
{
	for (unsigned int k = 0; k < chunks; k++) {
		unsigned int i = backwards ? chunks - 1 - k : k;

		cr_assert_eq(ext2t_write_pattern(path, 77, (loff_t)i * step, 1024), 0,
			     "chunk %u: %s", i, host_log());
	}
}

static void expect_scattered(const char *path, unsigned int chunks, loff_t step, unsigned int keep)
{
	size_t len = (size_t)(keep - 1) * (size_t)step + 1024;
	u8 *want = calloc(1, len);

	for (unsigned int i = 0; i < keep; i++)
		ext2t_fill(want + (size_t)i * (size_t)step, 1024, 77, (u64)i * (u64)step);
	ext2t_expect_dump(path, want, len);
	free(want);
	(void)chunks;
}

ParameterizedTestParameters(ext4_write, extent_tree)
{
	static int backwards[] = { 0, 1 };

	return cr_make_param_array(int, backwards, 2);
}

/*
 * 1 KiB blocks: a leaf holds 84 extents and the root 4 entries, so 600 scattered chunks
 * need leaves split, the root moved down, index nodes split: depth 2. Written backwards,
 * every extent goes first in the first leaf (the keys above it follow).
 */
ParameterizedTest(int *backwards, ext4_write, extent_tree)
{
	const unsigned int chunks = 600;
	const loff_t step = 3072;
	u64 bfree0, ifree0, bfree, ifree;

	ext4t_make_image(nojournal_opts[0]);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	ext2t_statfs(&bfree0, &ifree0);
	write_scattered(EXT2T_MNT "/scattered", chunks, *backwards, step);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_expect_geq(extent_depth("/scattered"), 2, "the tree did not grow to depth 2");
	expect_scattered("/scattered", chunks, step, chunks);

	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(do_truncate(EXT2T_MNT "/scattered", (loff_t)(chunks / 3) * step + 1024), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	expect_scattered("/scattered", chunks, step, chunks / 3 + 1);

	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(do_unlink(EXT2T_MNT "/scattered"), 0);
	ext2t_statfs(&bfree, &ifree);
	cr_expect_eq(bfree, bfree0, "blocks leaked: %llu free before, %llu after",
		     (unsigned long long)bfree0, (unsigned long long)bfree);
	cr_expect_eq(ifree, ifree0);
	ext2t_umount();
	ext2t_fsck_clean();
}

/* Read-only, then remounted read-write: the uninitialised groups are made real first. */
Test(ext4_write, remount_read_write)
{
	struct path p;
	int flags = 0;

	ext4t_make_image(nojournal_opts[0]);
	cr_assert_eq(ext2t_sh("dumpe2fs %s 2>/dev/null | grep -q BLOCK_UNINIT", ext2t_env.img), 0,
		     "mke2fs left no uninitialised group: the test tests nothing");
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_assert_eq(kern_path(EXT2T_MNT, LOOKUP_FOLLOW, &p), 0);
	cr_assert_eq(p.mnt->mnt_sb->s_op->remount_fs(p.mnt->mnt_sb, &flags, NULL), 0, "%s",
		     host_log());
	p.mnt->mnt_flags &= ~MNT_READONLY; /* the VFS has no remount call: its half by hand */
	path_put(&p);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/after_remount", 5, 0, 2u << 20), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_expect_neq(ext2t_sh("dumpe2fs %s 2>/dev/null | grep -q _UNINIT", ext2t_env.img), 0,
		      "an uninitialised group is left");
	ext2t_expect_dump_pattern("/after_remount", 5, 2u << 20);
}

static void name_of(char *buf, size_t size, unsigned int i)
{
	snprintf(buf, size, EXT2T_MNT "/big/added_name_%05u_with_some_length", i);
}

/*
 * The hashed directory (1 KiB blocks, e2fsck -D indexed it) takes 4000 more names: leaves
 * split, the root fills and moves into a node, nodes split. Every name is then found
 * through the index, e2fsck checks the index (pass 2 verifies each leaf's hash range),
 * and half the names removed leave it right.
 */
Test(ext4_write, htree_insert)
{
	const unsigned int added = 4000;
	unsigned long long levels = 0;
	char path[96];

	ext4t_make_image(nojournal_opts[0]);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	for (unsigned int i = 0; i < added; i++) {
		name_of(path, sizeof(path), i);
		cr_assert_eq(ext2t_write_pattern(path, i, 0, i % 5), 0, "%s: %s", path, host_log());
	}
	for (unsigned int i = 0; i < added; i += 7) {
		name_of(path, sizeof(path), i);
		cr_expect_eq(ext2t_check_pattern(path, i, i % 5), 0, "%s", path);
	}
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/big"), DIR_ENTRIES + added + 2);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_assert(ext2t_sh_number(&levels,
				  "debugfs -R 'htree /big' %s 2>/dev/null | "
				  "awk '/Indirect levels:/ {print $3}'",
				  ext2t_env.img));
	cr_expect_eq(levels, 1, "the index did not grow a level of nodes");
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /big' %s 2>/dev/null | grep -q 'Flags: 0x81000'",
			      ext2t_env.img),
		     0, "the directory lost its index flag");

	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	for (unsigned int i = 0; i < added; i += 2) {
		name_of(path, sizeof(path), i);
		cr_assert_eq(do_unlink(path), 0, "%s", path);
	}
	for (unsigned int i = 1; i < added; i += 2) {
		name_of(path, sizeof(path), i);
		cr_expect_eq(ext2t_check_pattern(path, i, i % 5), 0, "%s", path);
	}
	cr_assert_eq(do_rename(EXT2T_MNT "/f1", EXT2T_MNT "/big/moved_in"), 0);
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/big/moved_in", 101, 1), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/big/moved_in", 101, 1);
}

/*
 * A directory made here grows past its first block: it becomes indexed then (Linux's
 * make_indexed_dir()), not a linear directory of many blocks. e2fsck checks the index and
 * debugfs sees the flag; every name is found, and the directory keeps taking names.
 */
Test(ext4_write, growing_directory_becomes_indexed)
{
	const unsigned int added = 300;
	unsigned long long levels = 99;
	char path[96];

	ext4t_make_image(nojournal_opts[0]);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(do_mkdir(EXT2T_MNT "/grown", 0755), 0);
	for (unsigned int i = 0; i < added; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/grown/name_%05u_of_some_length", i);
		cr_assert_eq(ext2t_write_pattern(path, i, 0, 1), 0, "%s: %s", path, host_log());
	}
	for (unsigned int i = 0; i < added; i += 3) {
		snprintf(path, sizeof(path), EXT2T_MNT "/grown/name_%05u_of_some_length", i);
		cr_expect_eq(ext2t_check_pattern(path, i, 1), 0, "%s", path);
	}
	cr_expect_eq(ext2t_count_entries(EXT2T_MNT "/grown"), added + 2);
	ext2t_umount();
	ext2t_fsck_clean();
	cr_expect_eq(ext2t_sh("debugfs -R 'stat /grown' %s 2>/dev/null | grep -q 'Flags: 0x81000'",
			      ext2t_env.img),
		     0, "the directory did not become indexed");
	cr_assert(ext2t_sh_number(&levels,
				  "debugfs -R 'htree /grown' %s 2>/dev/null | "
				  "awk '/Indirect levels:/ {print $3}'",
				  ext2t_env.img));
	cr_expect_eq(levels, 0);
}

/* The group debugfs says path's inode is in. */
static unsigned long long inode_group(const char *path, unsigned long long ipg)
{
	unsigned long long ino = 0;

	cr_assert(ext2t_sh_number(&ino,
				  "debugfs -R 'stat %s' %s 2>/dev/null | awk '/^Inode:/ {print "
				  "$2}'",
				  path, ext2t_env.img),
		  "debugfs stat %s", path);
	return (ino - 1) / ipg;
}

/*
 * flex_bg placement (flex groups of 2 here, 16 groups): new directories and their files
 * take inodes in the first group of a flex group, where the flex group's inode tables
 * are, and the directories spread over both flex groups. ext2's placement put
 * directories in the groups with the most free blocks: the ones without metadata.
 */
Test(ext4_write, flex_bg_places_inodes_in_a_flex_groups_first_group)
{
	unsigned long long ipg = 0, groups[3];
	char path[96];

	ext4t_make_image("-b 1024 -g 2048 -O ^has_journal -G 2");
	cr_assert(ext2t_sh_number(&ipg,
				  "dumpe2fs -h %s 2>/dev/null | awk '/^Inodes per group:/ {print "
				  "$4}'",
				  ext2t_env.img));
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	for (int d = 0; d < 3; d++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/d%d", d);
		cr_assert_eq(do_mkdir(path, 0755), 0);
		for (int f = 0; f < 4; f++) {
			snprintf(path, sizeof(path), EXT2T_MNT "/d%d/f%d", d, f);
			cr_assert_eq(ext2t_write_pattern(path, (u32)f, 0, 1), 0, "%s", host_log());
		}
	}
	ext2t_umount();
	ext2t_fsck_clean();
	for (int d = 0; d < 3; d++) {
		snprintf(path, sizeof(path), "/d%d", d);
		groups[d] = inode_group(path, ipg);
		cr_expect_eq(groups[d] % 2, 0, "%s in group %llu", path, groups[d]);
		for (int f = 0; f < 4; f++) {
			snprintf(path, sizeof(path), "/d%d/f%d", d, f);
			cr_expect_eq(inode_group(path, ipg) / 2, groups[d] / 2,
				     "%s outside its directory's flex group", path);
			cr_expect_eq(inode_group(path, ipg) % 2, 0, "%s not in a first group", path);
		}
	}
	cr_expect(groups[0] != groups[1] || groups[1] != groups[2],
		  "every directory in group %llu: not spread", groups[0]);
}

/* ---------------------------------------------------------------- with a journal */

static const char *const journal_opts[] = { "-b 1024", "-b 4096" };

ParameterizedTestParameters(ext4_write, journalled)
{
	static int index[] = { 0, 1 };

	return cr_make_param_array(int, index, 2);
}

/* The same round of changes as without a journal, through it; umount leaves it empty. */
ParameterizedTest(int *opt, ext4_write, journalled)
{
	char path[64];

	ext4t_make_image(journal_opts[*opt]);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q needs_recovery", ext2t_env.img),
		     0, "a live journal must say needs_recovery on disk");
	for (unsigned int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/new%u", i);
		cr_assert_eq(ext2t_write_pattern(path, 200 + i, 0, 70000u * i + 1), 0, "%s", path);
	}
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/new3"), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/d1", 0755), 0);
	cr_assert_eq(do_rename(EXT2T_MNT "/new2", EXT2T_MNT "/d1/renamed"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/f6"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/sparse"), 0);
	cr_assert_eq(do_truncate(EXT2T_MNT "/f7", 100000), 0);
	for (unsigned int i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), EXT2T_MNT "/big/j%03u", i);
		cr_assert_eq(ext2t_write_pattern(path, i, 0, 10), 0, "%s", path);
	}
	ext2t_umount();
	ext2t_fsck_clean();
	cr_expect_neq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q needs_recovery", ext2t_env.img),
		      0, "umount left needs_recovery");
	for (unsigned int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), i == 2 ? "/d1/renamed" : "/new%u", i);
		ext2t_expect_dump_pattern(path, 200 + i, 70000u * i + 1);
	}
	ext2t_expect_dump_pattern("/f7", 107, 100000);
	ext2t_expect_dump_pattern("/big/j299", 299, 10);
	/* every buffer was dirtied under a handle: none escaped the transactions' atomicity */
	cr_expect(!host_log_contains("WARNING"), "%s", host_log());
}

ParameterizedTestParameters(ext4_write, journal_replays_after_crash)
{
	static int csum_v3[] = { 0, 1 };

	return cr_make_param_array(int, csum_v3, 2);
}

/*
 * A crash after a commit and before its checkpoint, made on the host: the image after an
 * fsync, with every block the journal logged put back as it was before the transaction.
 * e2fsck -fy replays the log (then -fn is clean and the file is whole), and so does our
 * own mount. Without journal checksums, and with csum_v3 and 64-bit tags (set by debugfs
 * `jo -c`), whose every tag, descriptor and commit block checksum both replays check.
 */
ParameterizedTest(int *csum_v3, ext4_write, journal_replays_after_crash)
{
	char before[100], crash[100], ours[100];
	unsigned long long logged = 0;

	ext4t_make_image("-b 1024");
	if (*csum_v3) {
		cr_assert_eq(ext2t_sh("printf 'jo -c\\njc\\n' | debugfs -w -f - %s >/dev/null 2>&1",
				      ext2t_env.img),
			     0);
		cr_assert_eq(ext2t_sh("dumpe2fs -h %s 2>/dev/null | grep -q journal_checksum_v3",
				      ext2t_env.img),
			     0, "debugfs did not turn csum_v3 on");
	}
	snprintf(before, sizeof(before), "%s/before.img", ext2t_env.dir);
	snprintf(crash, sizeof(crash), "%s/crash.img", ext2t_env.dir);
	snprintf(ours, sizeof(ours), "%s/ours.img", ext2t_env.dir);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f1"), 0); /* everything so far checkpointed */
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, before), 0);
	cr_assert_eq(do_mkdir(EXT2T_MNT "/crashdir", 0755), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/crashdir/file", 42, 0, 100000), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/crashdir/file"), 0);
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, crash), 0);
	/* the logged blocks back to their old contents: the checkpoint never happened */
	cr_assert_eq(ext2t_sh("debugfs -R 'logdump -a' %s 2>/dev/null | "
			      "sed -n 's/.*FS block \\([0-9]*\\) logged at.*/\\1/p' | sort -u > "
			      "%s/logged",
			      crash, ext2t_env.dir),
		     0);
	cr_assert(ext2t_sh_number(&logged, "wc -l < %s/logged", ext2t_env.dir));
	cr_assert_gt(logged, 3, "the journal holds no transaction");
	cr_assert_eq(ext2t_sh("while read b; do dd if=%s of=%s bs=1024 skip=$b seek=$b count=1 "
			      "conv=notrunc status=none; done < %s/logged",
			      before, crash, ext2t_env.dir),
		     0);
	cr_assert_eq(ext2t_sh("cp %s %s", crash, ours), 0);
	cr_assert_eq(ext2t_sh("e2fsck -fy %s > %s/replay.log 2>&1; e2fsck -fn %s > %s/after.log "
			      "2>&1",
			      crash, ext2t_env.dir, crash, ext2t_env.dir),
		     0, "e2fsck -fn after e2fsck's replay is not clean");
	cr_expect_neq(ext2t_sh("grep -q 'Fix? yes' %s/replay.log", ext2t_env.dir), 0,
		      "e2fsck -fy had more to do than the replay (%s/replay.log)", ext2t_env.dir);
	snprintf(ext2t_env.check_img, sizeof(ext2t_env.check_img), "%s", crash);
	ext2t_expect_dump_pattern("/crashdir/file", 42, 100000);
	ext2t_umount();
	/* our replay of the same crash */
	cr_assert_eq(ext2t_sh("cp %s %s", ours, ext2t_env.img), 0);
	cr_assert_eq(ext4t_mount(SB_RDONLY), 0, "%s", host_log());
	cr_expect(host_log_contains("recovery complete: 1 transactions"), "%s", host_log());
	cr_expect_eq(ext2t_check_pattern(EXT2T_MNT "/crashdir/file", 42, 100000), 0);
	ext2t_umount();
	ext2t_env.check_img[0] = 0;
	ext2t_fsck_clean();
}

/* The superblock's first orphan inode (dumpe2fs), 0 if none. */
static unsigned long long first_orphan(const char *img)
{
	unsigned long long ino = 0;

	ext2t_sh_number(&ino,
			"dumpe2fs -h %s 2>/dev/null | awk '/^First orphan inode:/ {print $4}'", img);
	return ino;
}

/*
 * A file unlinked while open is an orphan: the unlink's commit puts it on the superblock's
 * list (Linux's s_last_orphan, the chain through i_dtime), its eviction takes it off.
 * A crash while it is open leaves the list: the next read-write mount replays the journal,
 * then frees the inode and its blocks, and e2fsck finds the image clean. Two orphans, the
 * second closed first: the list is unlinked in its middle too.
 */
Test(ext4_write, orphans_are_freed_after_a_crash)
{
	char crash[100];
	struct file *f3, *f4;
	unsigned long long ino = 0;

	ext4t_make_image("-b 1024");
	snprintf(crash, sizeof(crash), "%s/crash.img", ext2t_env.dir);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	f3 = filp_open(EXT2T_MNT "/f3", O_RDONLY, 0);
	f4 = filp_open(EXT2T_MNT "/f4", O_RDONLY, 0);
	cr_assert(!IS_ERR(f3) && !IS_ERR(f4));
	cr_assert_eq(do_unlink(EXT2T_MNT "/f3"), 0);
	cr_assert_eq(do_unlink(EXT2T_MNT "/f4"), 0);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f1"), 0); /* the unlinks' commit */
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, crash), 0);
	cr_assert_neq(first_orphan(crash), 0, "the unlinks left no orphan list");
	fput(f3); /* the list's second: the head skips it */
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f1"), 0);
	cr_assert(ext2t_sh_number(&ino, "echo %llu", first_orphan(ext2t_env.img)));
	cr_assert_neq(ino, 0, "f4 is still open");
	fput(f4);
	ext2t_umount();
	cr_expect_eq(first_orphan(ext2t_env.img), 0, "the list outlived its inodes");
	ext2t_fsck_clean();

	/* the crash: both still open */
	cr_assert_eq(ext2t_sh("cp %s %s", crash, ext2t_env.img), 0);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_expect(host_log_contains("2 orphan inodes deleted"), "%s", host_log());
	ext2t_umount();
	cr_expect(!host_log_contains("WARNING"), "%s", host_log());
	cr_expect_eq(first_orphan(ext2t_env.img), 0);
	ext2t_fsck_clean();
}

/*
 * The commit that carries an unlink carries the inode's last link gone, even when the
 * inode's eviction has begun and waits for the commit to end (evict() marks it freeing
 * before the filesystem asks for its handle; marked so here around a commit): a crash
 * after it finds the inode on the orphan list with no links, freed by the next mount,
 * never linked and in no directory.
 */
Test(ext4_write, a_commit_beside_an_unlinked_inodes_eviction_carries_the_unlink)
{
	char crash[100];
	struct inode *inode;
	struct file *f;

	ext4t_make_image("-b 1024");
	snprintf(crash, sizeof(crash), "%s/crash.img", ext2t_env.dir);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	f = filp_open(EXT2T_MNT "/f3", O_RDONLY, 0);
	cr_assert(!IS_ERR(f));
	inode = f->f_mapping->host;
	cr_assert_eq(do_unlink(EXT2T_MNT "/f3"), 0);
	spin_lock(&inode->i_lock);
	inode->i_state |= I_FREEING;
	spin_unlock(&inode->i_lock);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f1"), 0); /* the unlink's commit */
	cr_assert_eq(ext2t_sh("cp %s %s", ext2t_env.img, crash), 0);
	spin_lock(&inode->i_lock);
	inode->i_state &= ~I_FREEING;
	spin_unlock(&inode->i_lock);
	fput(f);
	ext2t_umount();
	ext2t_fsck_clean();

	/* the crash: e2fsck frees the orphan and finds nothing else, and so does our mount */
	cr_assert_eq(ext2t_sh("cp %s %s/ours.img", crash, ext2t_env.dir), 0);
	cr_assert_leq(ext2t_sh("e2fsck -fy %s > %s/fsck-y.log 2>&1", crash, ext2t_env.dir), 1);
	cr_expect_neq(ext2t_sh("grep -q '? yes' %s/fsck-y.log", ext2t_env.dir), 0,
		      "e2fsck -fy repaired the crash image (an unattached inode: the unlink "
		      "committed without the inode's last link gone?)");
	cr_assert_eq(ext2t_sh("cp %s/ours.img %s", ext2t_env.dir, ext2t_env.img), 0);
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_expect(host_log_contains("1 orphan inode deleted"), "%s", host_log());
	ext2t_umount();
	ext2t_fsck_clean();
}

/* The journal superblock's log start: 0 while nothing was committed since the mount. */
static unsigned long long journal_start(void)
{
	unsigned long long start = 0;

	cr_assert(ext2t_sh_number(&start,
				  "dumpe2fs -h %s 2>/dev/null | awk '/^Journal start:/ {print $3}'",
				  ext2t_env.img));
	return start;
}

/*
 * kjournald2 commits on its own every commit= seconds (virtual time here), 5 by default:
 * a file written without fsync is on disk once the interval has passed, not before. With
 * nodelalloc (blocks allocated at write time, data=ordered) its data goes with that
 * commit; with delayed allocation the data goes when writeback takes it (30 s old) and its
 * extents say written from the commit after.
 */
Test(ext4_write, commit_interval)
{
	ext4t_make_image("-b 1024");
	ext2t_attach();
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "nodelalloc,commit=2"), 0, "%s",
		     host_log());
	cr_assert_eq(journal_start(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/lazy", 9, 0, 50000), 0);
	msleep(1000);
	cr_expect_eq(journal_start(), 0, "a commit before commit=2 seconds");
	msleep(2000);
	cr_expect_neq(journal_start(), 0, "no commit after commit=2 seconds");
	ext2t_expect_dump_pattern("/lazy", 9, 50000);
	ext2t_umount();
	cr_expect_eq(journal_start(), 0, "umount left the journal not empty");

	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "delalloc"), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/lazy2", 10, 0, 50000), 0);
	msleep(4000);
	cr_expect_eq(journal_start(), 0, "a commit before the default 5 seconds");
	msleep(2000);
	cr_expect_neq(journal_start(), 0, "no commit after the default 5 seconds");
	msleep(45000);
	ext2t_expect_dump_pattern("/lazy2", 10, 50000);
	ext2t_umount();
	ext2t_fsck_clean();
}

/* Mount options: data=journal (not written here) and a bad commit= are refused. */
Test(ext4_write, journal_options_refused)
{
	ext4t_make_image("-b 1024");
	ext2t_attach();
	cr_expect_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "data=journal"), -EINVAL);
	cr_expect(host_log_contains("unrecognized mount option \"data=journal\""), "%s", host_log());
	cr_expect_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "commit=5s"), -EINVAL);
	cr_assert_eq(do_mount("/dev/vda", EXT2T_MNT, "ext4", 0, "data=writeback,commit=0"), 0, "%s",
		     host_log());
	ext2t_umount();
	ext2t_fsck_clean();
}
