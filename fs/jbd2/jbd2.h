/*
 * What the files of fs/jbd2/ share beyond include/cgwb/jbd2.h: the journal's byte order,
 * the sizes that depend on its features, block reads, the revoke table, and the commit's
 * superblock write and checkpoint.
 */
#ifndef CGWB_FS_JBD2_H
#define CGWB_FS_JBD2_H

#include <cgwb/jbd2.h>
#include <cgwb/printk.h>

static inline u32 be32_to_cpu(u32 v)
{
	return __builtin_bswap32(v);
}

static inline u32 cpu_to_be32(u32 v)
{
	return __builtin_bswap32(v);
}

static inline u16 be16_to_cpu(u16 v)
{
	return __builtin_bswap16(v);
}

/* Transaction ids wrap: compare them as Linux's tid_gt()/tid_geq(). */
static inline bool tid_gt(u32 x, u32 y)
{
	return (s32)(x - y) > 0;
}

static inline bool tid_geq(u32 x, u32 y)
{
	return (s32)(x - y) >= 0;
}

static inline bool jbd2_has_csum_v2or3(const journal_t *j)
{
	return j->j_incompat & (JBD2_FEATURE_INCOMPAT_CSUM_V2 | JBD2_FEATURE_INCOMPAT_CSUM_V3);
}

#define JBD2_CRC32C_CHKSUM 4 /* s_checksum_type */

/* journal.c */
/* Journal block n (referenced), or an ERR_PTR (logged). */
struct buffer_head *jbd2_jread(journal_t *j, u32 n);
/* Bytes of one descriptor tag, as the features make it. */
unsigned int journal_tag_bytes(const journal_t *j);
/* crc32c(seed, block) with its 4 bytes at csum_off taken as zeros. */
u32 jbd2_block_csum(const journal_t *j, const void *block, unsigned int csum_off);

/* commit.c: the journal superblock's log start (0: empty) and first transaction, on disk */
int jbd2_write_superblock(journal_t *j, u32 start, u32 sequence);
/* checkpoint.c: a committed transaction's buffers to their home blocks, flushed */
int jbd2_checkpoint(journal_t *j, transaction_t *t);

/* recovery.c: replay the log the superblock points at; 0 or -errno */
int jbd2_journal_recover(journal_t *j);

/* revoke.c: filesystem blocks revoked by a transaction, kept during recovery */
struct jbd2_revoke_table;
struct jbd2_revoke_table *jbd2_revoke_table_create(void);
void jbd2_revoke_table_destroy(struct jbd2_revoke_table *t);
/* Remember that transaction seq revoked block (the latest revocation wins). */
int jbd2_set_revoke(struct jbd2_revoke_table *t, u64 block, u32 seq);
/* Must transaction seq's copy of block be skipped (revoked by seq or a later one)? */
bool jbd2_test_revoke(struct jbd2_revoke_table *t, u64 block, u32 seq);

#endif
