/*
 * Large folios in ext2 files (fs/ext2/aops.c, writeback.c, readpage.c): a block-mapped
 * file's buffered writes fill folios of up to 64 KiB, whose blocks are allocated in runs
 * and written as one piece of a bio when they lie in one run on disk, run by run when not
 * (a pointer block between them). Extent-mapped files (ext4) fill them too, their blocks
 * delayed (reserved per block, allocated at writeback). Every test checks the bytes on
 * disk with debugfs and the image with e2fsck.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/pagemap.h>
#include <cgwb/writeback.h>
#include "host.h"
#include "test_ext2.h"
#include "test_ext4.h"
#include "../../../fs/ext2/ext2.h"

static void setup(void)
{
	ext2t_boot(96);
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(ext2_folios, .init = setup, .fini = teardown);

static struct inode *path_inode(const char *path)
{
	struct path p;
	struct inode *inode;

	cr_assert_eq(kern_path(path, LOOKUP_FOLLOW, &p), 0, "%s", path);
	inode = p.dentry->d_inode;
	path_put(&p); /* the dentry cache keeps it while the file exists */
	return inode;
}

/* Pages in the folio caching index of path's file, 0 if none is cached. */
static unsigned long folio_pages_at(const char *path, pgoff_t index)
{
	struct page *page = find_get_page(path_inode(path)->i_mapping, index);
	unsigned long nr;

	if (!page)
		return 0;
	nr = compound_nr(compound_head(page));
	put_page(page);
	return nr;
}

/* A sequential write fills 64 KiB folios, found at each of their indexes; disk and cache agree. */
Test(ext2_folios, a_sequential_write_fills_large_folios)
{
	ext2t_mkfs("-b 4096", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 1, 0, 1 << 20), 0);
	for (pgoff_t i = 0; i < 256; i += 5)
		cr_expect_eq(folio_pages_at(EXT2T_MNT "/f", i), 16, "index %lu", i);
	cr_assert_eq(ext2t_fsync(EXT2T_MNT "/f"), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f", 1, 1 << 20), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/f", 1, 1 << 20);
}

/*
 * 1 KiB blocks: the first folio's 64 blocks are 12 direct ones, the pointer block, then
 * the rest, so writeback goes run by run; an odd length ends in a partial page of a
 * partial folio, whose bytes past the end must not reach the file.
 */
Test(ext2_folios, a_folio_across_a_pointer_block_is_written_run_by_run)
{
	const u64 len = (300 << 10) + 123;

	ext2t_mkfs("-b 1024", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 2, 0, len), 0);
	cr_expect_eq(folio_pages_at(EXT2T_MNT "/f", 0), 16);
	ksys_sync();
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/f", 2, len);
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(ext2t_size(EXT2T_MNT "/f"), (loff_t)len);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f", 2, len), 0);
}

/*
 * Rewrites inside a written folio, unaligned, after its blocks went to disk; then the
 * file cut inside a folio and grown again: the cut part reads as zeros from the disk too
 * (the zeroing of the tail block reaches a page inside the folio).
 */
Test(ext2_folios, rewrites_and_a_cut_inside_a_folio_reach_the_disk)
{
	static u8 data[256 << 10];
	static u8 more[10000];

	ext2t_mkfs("-b 1024", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	ext2t_fill(data, sizeof(data), 3, 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/f", 0, 0, data, sizeof(data)), 0);
	ksys_sync();
	ext2t_fill(more, sizeof(more), 4, 70001);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/f", 0, 70001, more, sizeof(more)), 0);
	memcpy(data + 70001, more, sizeof(more));
	cr_assert_eq(do_truncate(EXT2T_MNT "/f", 100001), 0);
	cr_assert_eq(do_truncate(EXT2T_MNT "/f", sizeof(data)), 0);
	memset(data + 100001, 0, sizeof(data) - 100001);
	ksys_sync();
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump("/f", data, sizeof(data));
}

/*
 * A full disk met by a large folio's write into a hole inside the file: the blocks it got
 * are zeroed, the write goes on a page at a time as far as the disk allows, and the hole's
 * bytes past it still read as zeros, from the cache and from the disk.
 */
Test(ext2_folios, a_full_disk_inside_a_hole_leaves_zeros_and_fills_to_the_last_block)
{
	const loff_t size = 1 << 20, at = 512 << 10;
	static u8 buf[64 << 10], back[64 << 10];
	u64 bfree, ffree;
	loff_t full;
	ssize_t got;
	int err;

	ext2t_mkfs("-b 1024 -m 0", 2 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/sparse", 0, 0, buf, 0), 0); /* created */
	cr_assert_eq(do_truncate(EXT2T_MNT "/sparse", size), 0);
	err = ext2t_write_pattern(EXT2T_MNT "/fill", 5, 0, 4 << 20);
	cr_assert_eq(err, -ENOSPC, "filling the disk gave %d", err);
	ksys_sync(); /* the blocks freed below hold its bytes on disk */
	ext2t_statfs(&bfree, &ffree);
	/* as with pages: less than a page's blocks and its pointer block left */
	cr_expect_leq(bfree, 4, "the fill stopped with %llu blocks free", (unsigned long long)bfree);
	/* 20 blocks free again: fewer than a folio's 64 */
	full = ext2t_size(EXT2T_MNT "/fill");
	cr_assert_eq(do_truncate(EXT2T_MNT "/fill", (full & ~1023) - (20 << 10)), 0);
	memset(buf, 0x5a, sizeof(buf));
	err = ext2t_write(EXT2T_MNT "/sparse", 0, at, buf, sizeof(buf));
	cr_assert_eq(err, -ENOSPC, "the write into the hole gave %d", err);
	ext2t_statfs(&bfree, &ffree);
	cr_expect_leq(bfree, 4, "the write stopped with %llu blocks free", (unsigned long long)bfree);
	cr_assert_eq(ext2t_read(EXT2T_MNT "/sparse", at, back, sizeof(back), &got), 0);
	cr_assert_eq(got, (ssize_t)sizeof(back));
	size_t written = 0;
	while (written < sizeof(back) && back[written] == 0x5a)
		written++;
	cr_expect_gt(written, 0, "nothing of the write went in");
	for (size_t i = written; i < sizeof(back); i++)
		cr_assert_eq(back[i], 0, "byte %zu of the hole reads %#x", i, back[i]);
	ksys_sync();
	ext2t_umount();
	ext2t_fsck_clean();
	u8 *want = calloc(1, (size_t)size);
	memset(want + at, 0x5a, written);
	ext2t_expect_dump("/sparse", want, (size_t)size);
	free(want);
}

/* Blocks reserved for path's delayed writes, not yet allocated. */
static u32 reserved_blocks(const char *path)
{
	return EXT2_I(path_inode(path))->i_reserved_data_blocks;
}

/*
 * Extent-mapped files (an ext4 mount, delayed allocation) fill large folios too: every
 * block of them reserved once, allocated at writeback in one extent, written.
 */
Test(ext2_folios, extent_mapped_files_fill_large_folios_with_delayed_blocks)
{
	ext4t_make_image("-b 4096");
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 7, 0, (1 << 20) + 5000), 0);
	cr_expect_eq(folio_pages_at(EXT2T_MNT "/f", 0), 16);
	cr_expect_eq(folio_pages_at(EXT2T_MNT "/f", 33), 16);
	cr_expect_gt(folio_pages_at(EXT2T_MNT "/f", 256), 1, "the short end in a single page");
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 258);
	ksys_sync();
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 0, "reservations left after writeback");
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_expect_dump_pattern("/f", 7, (1 << 20) + 5000);
	cr_expect_eq(ext4t_extents_matching("/f", "/Uninit/"), 0, "an extent left unwritten");
	cr_expect_leq(ext4t_extents_matching("/f", "1"), 1, "1 MiB in order in %llu extents",
		      ext4t_extents_matching("/f", "1"));
}

/*
 * Inside one delayed 64 KiB folio of 1 KiB blocks: a rewrite reserves nothing more, a cut
 * gives back the blocks past the new end (the folio stays whole: its blocks' state is
 * its own), a write past a gap reserves its block alone; the gap is a hole on disk.
 */
Test(ext2_folios, partial_writes_and_a_cut_inside_a_delayed_folio)
{
	u8 *want = calloc(1, 30100);

	ext4t_make_image("-b 1024");
	cr_assert_eq(ext4t_mount(0), 0, "%s", host_log());
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 3, 0, 64 << 10), 0);
	cr_assert_eq(folio_pages_at(EXT2T_MNT "/f", 5), 16);
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 64);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 3, 10000, 2500), 0);
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 64, "a rewrite reserved again");
	cr_assert_eq(do_truncate(EXT2T_MNT "/f", 20000), 0);
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 20, "a cut to 20000 bytes keeps 20 blocks");
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 3, 30000, 100), 0);
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 21);
	ksys_sync();
	cr_expect_eq(reserved_blocks(EXT2T_MNT "/f"), 0);
	ext2t_umount();
	ext2t_fsck_clean();
	ext2t_fill(want, 20000, 3, 0);
	ext2t_fill(want + 30000, 100, 3, 30000);
	ext2t_expect_dump("/f", want, 30100);
	cr_expect_eq(ext4t_extents_matching("/f", "/Uninit/"), 0, "an extent left unwritten");
	free(want);
}

/* Pages cached in large folios among path's first nr indexes (a cold cache read). */
static unsigned long large_folio_pages(const char *path, pgoff_t nr)
{
	unsigned long n = 0;

	for (pgoff_t i = 0; i < nr; i++)
		n += folio_pages_at(path, i) > 1;
	return n;
}

/* Readahead after a remount: a file read from the disk fills large folios, bytes intact. */
Test(ext2_folios, a_cold_sequential_read_fills_large_folios)
{
	ext2t_mkfs("-b 4096", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 8, 0, 1 << 20), 0);
	ext2t_umount();
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(folio_pages_at(EXT2T_MNT "/f", 0), 0, "cached across the remount");
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f", 8, 1 << 20), 0);
	cr_expect_geq(large_folio_pages(EXT2T_MNT "/f", 256), 192,
		      "only %lu of 256 pages came in large folios",
		      large_folio_pages(EXT2T_MNT "/f", 256));
	cr_expect_eq(folio_pages_at(EXT2T_MNT "/f", 200), 16);
}

/*
 * 1 KiB blocks: the first folio has the pointer block among its blocks (read page by
 * page), the last ends with a partial page; both read right from a cold cache.
 */
Test(ext2_folios, a_cold_read_across_a_pointer_block_and_a_short_end)
{
	const u64 len = (300 << 10) + 123;
	u8 tail[4096];
	ssize_t got;

	ext2t_mkfs("-b 1024", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	cr_assert_eq(ext2t_write_pattern(EXT2T_MNT "/f", 9, 0, len), 0);
	ext2t_umount();
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(ext2t_check_pattern(EXT2T_MNT "/f", 9, len), 0);
	cr_expect_gt(folio_pages_at(EXT2T_MNT "/f", 0), 1);
	cr_expect_gt(large_folio_pages(EXT2T_MNT "/f", 75), 0);
	cr_assert_eq(ext2t_read(EXT2T_MNT "/f", (loff_t)len - 100, tail, sizeof(tail), &got), 0);
	cr_assert_eq(got, 100, "read %zd bytes at the end", got);
}

/* A sparse file's folios with holes inside read zeros there, data around them, cold. */
Test(ext2_folios, a_cold_read_of_holes_inside_folios_gives_zeros)
{
	static u8 want[256 << 10], back[256 << 10];
	u8 a[4096], b[6000];
	ssize_t got;

	ext2t_mkfs("-b 4096", 16 << 10);
	cr_assert_eq(ext2t_attach_mount(), 0);
	ext2t_fill(a, sizeof(a), 10, 40 << 10);
	ext2t_fill(b, sizeof(b), 11, 100000);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/s", 0, 40 << 10, a, sizeof(a)), 0);
	cr_assert_eq(ext2t_write(EXT2T_MNT "/s", 0, 100000, b, sizeof(b)), 0);
	cr_assert_eq(do_truncate(EXT2T_MNT "/s", sizeof(want)), 0);
	memcpy(want + (40 << 10), a, sizeof(a));
	memcpy(want + 100000, b, sizeof(b));
	ext2t_umount();
	cr_assert_eq(ext2t_mount(), 0);
	cr_assert_eq(ext2t_read(EXT2T_MNT "/s", 0, back, sizeof(back), &got), 0);
	cr_assert_eq(got, (ssize_t)sizeof(back));
	for (size_t i = 0; i < sizeof(back); i++)
		cr_assert_eq(back[i], want[i], "byte %zu reads %#x, not %#x", i, back[i], want[i]);
	cr_expect_gt(large_folio_pages(EXT2T_MNT "/s", 64), 0);
}
