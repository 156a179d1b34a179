/*
 * A journal as a mount finds it: the superblock read and checked (magic, version, block
 * size, the log's bounds inside the space its owner gave it, features, checksum), the log
 * replayed if it is not empty (recovery.c), and the superblock then saying "empty".
 *
 * Policy: a superblock this code does not understand refuses the mount (unknown incompat
 * features, fast commits, a checksum type other than crc32c): replaying a log half
 * understood could write garbage over the filesystem. Nothing here writes before the
 * superblock has passed every check.
 */
#include "jbd2.h"
#include <cgwb/buffer_head.h>
#include <cgwb/crc32c.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>

#define JBD2_MIN_JOURNAL_BLOCKS 1024 /* mke2fs never makes a smaller one */

journal_t *jbd2_journal_init(struct block_device *bdev, unsigned int blocksize, u32 len,
			     jbd2_bmap_t bmap, void *owner, const char *devname)
{
	journal_t *j = kzalloc(sizeof(*j), GFP_KERNEL);

	if (!j)
		return NULL;
	j->j_dev = bdev;
	j->j_blocksize = blocksize;
	j->j_total_len = len;
	j->j_bmap = bmap;
	j->j_owner = owner;
	j->j_devname = devname;
	return j;
}

void jbd2_journal_destroy(journal_t *j)
{
	if (!j)
		return;
	brelse(j->j_sb_buffer);
	kfree(j);
}

struct buffer_head *jbd2_jread(journal_t *j, u32 n)
{
	struct buffer_head *bh;
	u64 pblock;
	int err;

	if (n >= j->j_total_len) {
		pr_err("JBD2: %s: journal block %u past the journal's %u\n", j->j_devname, n,
		       j->j_total_len);
		return ERR_PTR(-EIO);
	}
	err = j->j_bmap(j->j_owner, n, &pblock);
	if (err)
		return ERR_PTR(err);
	bh = __bread(j->j_dev, pblock, j->j_blocksize);
	if (!bh) {
		pr_err("JBD2: %s: cannot read journal block %u (device block %llu)\n", j->j_devname,
		       n, (unsigned long long)pblock);
		return ERR_PTR(-EIO);
	}
	return bh;
}

unsigned int journal_tag_bytes(const journal_t *j)
{
	unsigned int sz = sizeof(journal_block_tag_t);

	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
		return sizeof(journal_block_tag3_t);
	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2)
		sz += sizeof(u16);
	return j->j_incompat & JBD2_FEATURE_INCOMPAT_64BIT ? sz : sz - sizeof(u32);
}

u32 jbd2_block_csum(const journal_t *j, const void *block, unsigned int csum_off)
{
	const u32 zero = 0;
	u32 crc = crc32c(j->j_csum_seed, block, csum_off);

	crc = crc32c(crc, &zero, sizeof(zero));
	return crc32c(crc, (const u8 *)block + csum_off + 4, j->j_blocksize - csum_off - 4);
}

/* The superblock's own checksum starts from ~0, not from the journal's seed. */
static u32 jbd2_csum_superblock(const journal_superblock_t *sb)
{
	unsigned int off = __builtin_offsetof(journal_superblock_t, s_checksum);
	const u32 zero = 0;
	u32 crc = crc32c(~0u, sb, off);

	crc = crc32c(crc, &zero, sizeof(zero));
	return crc32c(crc, (const u8 *)sb + off + 4, sizeof(*sb) - off - 4);
}

static int jsb_bad(journal_t *j, const char *why, u32 value)
{
	pr_err("JBD2: %s: bad journal superblock: %s (%u)\n", j->j_devname, why, value);
	return -EINVAL;
}

/* Version 2 only: features and the checksum. */
static int jbd2_check_features(journal_t *j, const journal_superblock_t *sb)
{
	u32 unknown = be32_to_cpu(sb->s_feature_incompat) & ~JBD2_KNOWN_INCOMPAT_FEATURES;

	if (unknown)
		return jsb_bad(j, "unknown incompat features", unknown);
	j->j_incompat = be32_to_cpu(sb->s_feature_incompat);
	if ((j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2) &&
	    (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3))
		return jsb_bad(j, "both checksum versions", j->j_incompat);
	if (!jbd2_has_csum_v2or3(j))
		return 0;
	if (sb->s_checksum_type != JBD2_CRC32C_CHKSUM)
		return jsb_bad(j, "checksum type", sb->s_checksum_type);
	if (be32_to_cpu(sb->s_checksum) != jbd2_csum_superblock(sb))
		return jsb_bad(j, "checksum invalid", be32_to_cpu(sb->s_checksum));
	j->j_csum_seed = crc32c(~0u, sb->s_uuid, sizeof(sb->s_uuid));
	return 0;
}

static int jbd2_load_superblock(journal_t *j)
{
	const journal_superblock_t *sb;
	u32 type, maxlen, first, start;
	struct buffer_head *bh = jbd2_jread(j, 0);

	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	j->j_sb_buffer = bh;
	j->j_superblock = (journal_superblock_t *)bh->b_data;
	sb = j->j_superblock;
	type = be32_to_cpu(sb->s_header.h_blocktype);
	maxlen = be32_to_cpu(sb->s_maxlen);
	first = be32_to_cpu(sb->s_first);
	start = be32_to_cpu(sb->s_start);
	if (be32_to_cpu(sb->s_header.h_magic) != JBD2_MAGIC_NUMBER)
		return jsb_bad(j, "magic", be32_to_cpu(sb->s_header.h_magic));
	if (type != JBD2_SUPERBLOCK_V1 && type != JBD2_SUPERBLOCK_V2)
		return jsb_bad(j, "block type", type);
	if (be32_to_cpu(sb->s_blocksize) != j->j_blocksize)
		return jsb_bad(j, "block size", be32_to_cpu(sb->s_blocksize));
	if (maxlen < JBD2_MIN_JOURNAL_BLOCKS || maxlen > j->j_total_len)
		return jsb_bad(j, "length", maxlen);
	if (!first || first >= maxlen)
		return jsb_bad(j, "first log block", first);
	if (start && (start < first || start >= maxlen))
		return jsb_bad(j, "log start", start);
	j->j_first = first;
	j->j_last = maxlen;
	return type == JBD2_SUPERBLOCK_V2 ? jbd2_check_features(j, sb) : 0;
}

/* The log is replayed: the superblock says "empty", and which transaction comes next. */
static int jbd2_mark_empty(journal_t *j)
{
	journal_superblock_t *sb = j->j_superblock;

	sb->s_start = 0;
	sb->s_sequence = cpu_to_be32(j->j_transaction_sequence);
	if (jbd2_has_csum_v2or3(j))
		sb->s_checksum = cpu_to_be32(jbd2_csum_superblock(sb));
	mark_buffer_dirty(j->j_sb_buffer);
	return sync_dirty_buffer(j->j_sb_buffer);
}

int jbd2_journal_load(journal_t *j)
{
	int err = jbd2_load_superblock(j);

	if (err)
		return err;
	if (!j->j_superblock->s_start)
		return 0;
	err = jbd2_journal_recover(j);
	if (!err)
		err = sync_blockdev(j->j_dev); /* the replayed blocks, before "empty" */
	if (err) {
		pr_err("JBD2: %s: recovery failed (%d)\n", j->j_devname, err);
		return err;
	}
	return jbd2_mark_empty(j);
}
