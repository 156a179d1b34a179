/*
 * Recovery: after a crash, the transactions the log holds are written to their places,
 * in three passes over the log as Linux's jbd2 does:
 *
 *   scan    find where the log ends: the first block that is not the next block of the
 *           expected transaction (wrong magic or id), or a commit whose checksum fails;
 *           only transactions whose commit block was reached count;
 *   revoke  record, per filesystem block, the latest transaction that revoked it;
 *   replay  copy every block of every committed transaction to its place, unless a
 *           transaction at or after it revoked the block, or its checksum fails.
 *
 * Copies go through the device's buffer cache (so metadata a mount has already read is
 * updated in place) and are written by the caller's sync. Nothing read from the log is
 * trusted: every tag and revoke record is read inside its block, target blocks must lie on
 * the device, and a pass stops after one lap of the ring, so a corrupt log can end the
 * replay early but never make it loop or write outside the device.
 */
#include "jbd2.h"
#include <cgwb/buffer_head.h>
#include <cgwb/crc32c.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

enum passtype { PASS_SCAN, PASS_REVOKE, PASS_REPLAY };

struct recovery_info {
	u32 start_transaction;
	u32 end_transaction; /* the first one not to replay */
	struct jbd2_revoke_table *revoke;
	u64 dev_blocks;
};

/* The next log block after n, round the ring. */
static u32 log_next(const journal_t *j, u32 n)
{
	return n + 1 >= j->j_last ? j->j_first : n + 1;
}

static unsigned int tail_bytes(const journal_t *j)
{
	return jbd2_has_csum_v2or3(j) ? sizeof(struct jbd2_journal_block_tail) : 0;
}

/* Descriptor and revoke blocks end with a checksum of the whole block. */
static bool jbd2_descriptor_csum_ok(const journal_t *j, const void *block)
{
	unsigned int off = j->j_blocksize - sizeof(struct jbd2_journal_block_tail);
	const struct jbd2_journal_block_tail *t = (const void *)((const u8 *)block + off);

	return !jbd2_has_csum_v2or3(j) ||
	       be32_to_cpu(t->t_checksum) == jbd2_block_csum(j, block, off);
}

static bool jbd2_commit_csum_ok(const journal_t *j, const struct commit_header *h)
{
	unsigned int off = __builtin_offsetof(struct commit_header, h_chksum);

	return !jbd2_has_csum_v2or3(j) || be32_to_cpu(h->h_chksum[0]) == jbd2_block_csum(j, h, off);
}

/* A copy's checksum: crc32c(seed, its transaction id, the copy), in the tag. */
static bool jbd2_block_tag_csum_ok(const journal_t *j, const void *tag, const void *data, u32 seq)
{
	u32 be_seq = cpu_to_be32(seq), crc;

	if (!jbd2_has_csum_v2or3(j))
		return true;
	crc = crc32c(crc32c(j->j_csum_seed, &be_seq, sizeof(be_seq)), data, j->j_blocksize);
	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
		return be32_to_cpu(((const journal_block_tag3_t *)tag)->t_checksum) == crc;
	return be16_to_cpu(((const journal_block_tag_t *)tag)->t_checksum) == (crc & 0xffff);
}

/* The tags of a descriptor block, one at a time: the tag at *off, or NULL after the last. */
static const u8 *next_tag(const journal_t *j, const u8 *block, unsigned int *off, bool *last)
{
	unsigned int size = j->j_blocksize - tail_bytes(j), tb = journal_tag_bytes(j);
	const u8 *tag;
	u32 flags;

	if (*last || *off + tb > size)
		return NULL;
	tag = block + *off;
	flags = j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3 ?
			be32_to_cpu(((const journal_block_tag3_t *)tag)->t_flags) :
			be16_to_cpu(((const journal_block_tag_t *)tag)->t_flags);
	*off += tb + (flags & JBD2_FLAG_SAME_UUID ? 0 : 16);
	*last = flags & JBD2_FLAG_LAST_TAG;
	return tag;
}

static u64 tag_blocknr(const journal_t *j, const u8 *tag)
{
	const journal_block_tag3_t *t3 = (const void *)tag;
	const journal_block_tag_t *t = (const void *)tag;
	bool v3 = j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3;
	u64 nr = be32_to_cpu(v3 ? t3->t_blocknr : t->t_blocknr);

	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_64BIT)
		nr |= (u64)be32_to_cpu(v3 ? t3->t_blocknr_high : t->t_blocknr_high) << 32;
	return nr;
}

static bool tag_escaped(const journal_t *j, const u8 *tag)
{
	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
		return be32_to_cpu(((const journal_block_tag3_t *)tag)->t_flags) & JBD2_FLAG_ESCAPE;
	return be16_to_cpu(((const journal_block_tag_t *)tag)->t_flags) & JBD2_FLAG_ESCAPE;
}

/* One copy to its place. Errors are logged and the copy skipped, as Linux does. */
static void replay_one(journal_t *j, struct recovery_info *info, const u8 *tag, u32 io_block, u32 seq)
{
	u64 blocknr = tag_blocknr(j, tag);
	struct buffer_head *obh, *nbh;

	if (jbd2_test_revoke(info->revoke, blocknr, seq)) {
		j->j_revoked_blocks++;
		return;
	}
	if (blocknr >= info->dev_blocks) {
		pr_err("JBD2: %s: block %llu in transaction %u is past the device\n", j->j_devname,
		       (unsigned long long)blocknr, seq);
		return;
	}
	obh = jbd2_jread(j, io_block);
	if (IS_ERR(obh))
		return;
	if (!jbd2_block_tag_csum_ok(j, tag, obh->b_data, seq)) {
		pr_err("JBD2: %s: invalid checksum recovering block %llu in transaction %u\n",
		       j->j_devname, (unsigned long long)blocknr, seq);
		brelse(obh);
		return;
	}
	nbh = __getblk(j->j_dev, blocknr, j->j_blocksize);
	if (nbh) {
		lock_buffer(nbh);
		memcpy(nbh->b_data, obh->b_data, j->j_blocksize);
		if (tag_escaped(j, tag))
			*(u32 *)nbh->b_data = cpu_to_be32(JBD2_MAGIC_NUMBER);
		set_buffer_uptodate(nbh);
		unlock_buffer(nbh);
		mark_buffer_dirty(nbh);
		brelse(nbh);
		j->j_replayed_blocks++;
	}
	brelse(obh);
}

/* A descriptor: its copies follow it. Returns the log block after them. */
static u32 do_descriptor(journal_t *j, struct recovery_info *info, const u8 *block, u32 next,
			 u32 seq, enum passtype pass)
{
	unsigned int off = sizeof(journal_header_t);
	bool last = false;
	const u8 *tag;

	while ((tag = next_tag(j, block, &off, &last))) {
		if (pass == PASS_REPLAY)
			replay_one(j, info, tag, next, seq);
		next = log_next(j, next);
	}
	return next;
}

static int scan_revoke_records(journal_t *j, struct recovery_info *info, const u8 *block, u32 seq)
{
	const jbd2_journal_revoke_header_t *h = (const void *)block;
	unsigned int rec = j->j_incompat & JBD2_FEATURE_INCOMPAT_64BIT ? 8 : 4;
	u32 count = be32_to_cpu(h->r_count);

	if (count > j->j_blocksize - tail_bytes(j) || count < sizeof(*h)) {
		pr_err("JBD2: %s: revoke block of transaction %u: count %u\n", j->j_devname, seq,
		       count);
		return -EIO;
	}
	for (unsigned int off = sizeof(*h); off + rec <= count; off += rec) {
		const u32 *p = (const u32 *)(block + off);
		u64 nr = rec == 8 ? (u64)be32_to_cpu(p[0]) << 32 | be32_to_cpu(p[1]) :
				    be32_to_cpu(p[0]);
		int err = jbd2_set_revoke(info->revoke, nr, seq);

		if (err)
			return err;
	}
	return 0;
}

/*
 * A block of the log in a pass: 1 to go on, 0 at the end of the log, or -errno. *next is
 * the block after it (and after a descriptor's copies); *seq moves on at a commit.
 */
static int do_block(journal_t *j, struct recovery_info *info, const u8 *block, u32 *next, u32 *seq,
		    enum passtype pass)
{
	const journal_header_t *h = (const void *)block;

	if (be32_to_cpu(h->h_magic) != JBD2_MAGIC_NUMBER || be32_to_cpu(h->h_sequence) != *seq)
		return 0;
	switch (be32_to_cpu(h->h_blocktype)) {
	case JBD2_DESCRIPTOR_BLOCK:
		if (!jbd2_descriptor_csum_ok(j, block))
			return 0; /* the scan ends here; the later passes stop before */
		*next = do_descriptor(j, info, block, *next, *seq, pass);
		return 1;
	case JBD2_COMMIT_BLOCK:
		if (pass == PASS_SCAN && !jbd2_commit_csum_ok(j, (const void *)block)) {
			pr_err("JBD2: %s: commit block of transaction %u: checksum invalid\n",
			       j->j_devname, *seq);
			return 0;
		}
		(*seq)++;
		return 1;
	case JBD2_REVOKE_BLOCK:
		if (!jbd2_descriptor_csum_ok(j, block))
			return 0;
		if (pass != PASS_REVOKE)
			return 1;
		return scan_revoke_records(j, info, block, *seq) ?: 1;
	}
	return 0; /* an unknown block type ends the log, as in Linux */
}

static int do_one_pass(journal_t *j, struct recovery_info *info, enum passtype pass)
{
	u32 seq = be32_to_cpu(j->j_superblock->s_sequence);
	u32 next = be32_to_cpu(j->j_superblock->s_start);
	u32 lap = j->j_last - j->j_first, walked = 0;
	int ret = 1;

	info->start_transaction = seq;
	while (ret > 0 && walked++ < lap) {
		struct buffer_head *bh;
		u32 here = next;

		if (pass != PASS_SCAN && tid_geq(seq, info->end_transaction))
			break;
		bh = jbd2_jread(j, here);
		if (IS_ERR(bh))
			return (int)PTR_ERR(bh);
		next = log_next(j, here);
		ret = do_block(j, info, (const u8 *)bh->b_data, &next, &seq, pass);
		brelse(bh);
	}
	if (ret < 0)
		return ret;
	if (pass == PASS_SCAN)
		info->end_transaction = seq;
	else if (seq != info->end_transaction)
		pr_err("JBD2: %s: recovery pass %d ended at transaction %u, expected %u\n",
		       j->j_devname, pass, seq, info->end_transaction);
	return 0;
}

int jbd2_journal_recover(journal_t *j)
{
	struct recovery_info info = {
		.dev_blocks = (bdev_nr_sectors(j->j_dev) << SECTOR_SHIFT) / j->j_blocksize,
	};
	int err;

	info.revoke = jbd2_revoke_table_create();
	if (!info.revoke)
		return -ENOMEM;
	err = do_one_pass(j, &info, PASS_SCAN);
	if (!err)
		err = do_one_pass(j, &info, PASS_REVOKE);
	if (!err)
		err = do_one_pass(j, &info, PASS_REPLAY);
	jbd2_revoke_table_destroy(info.revoke);
	j->j_replayed_transactions = info.end_transaction - info.start_transaction;
	/* the next id after the last seen, so that no stale block of the log can pass as new */
	j->j_transaction_sequence = info.end_transaction + 1;
	return err;
}
