/*
 * The revoke table of recovery: a block freed by one transaction and reused (as data, not
 * journalled) by a later one must not get an older transaction's copy back at replay.
 * Revoke blocks name such blocks; the scan records, per block, the latest transaction that
 * revoked it, and the replay skips every copy from that transaction or an earlier one.
 *
 * A hash of 256 chains: the table lives only for one recovery.
 */
#include "jbd2.h"
#include <cgwb/slab.h>
#include <cgwb/errno.h>

#define REVOKE_HASH_BITS 8

struct jbd2_revoke_record {
	struct jbd2_revoke_record *next;
	u64 block;
	u32 seq;
};

struct jbd2_revoke_table {
	struct jbd2_revoke_record *hash[1 << REVOKE_HASH_BITS];
};

static unsigned int revoke_hash(u64 block)
{
	return (unsigned int)((block * 0x9e3779b97f4a7c15ULL) >> (64 - REVOKE_HASH_BITS));
}

struct jbd2_revoke_table *jbd2_revoke_table_create(void)
{
	return kzalloc(sizeof(struct jbd2_revoke_table), GFP_KERNEL);
}

void jbd2_revoke_table_destroy(struct jbd2_revoke_table *t)
{
	if (!t)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(t->hash); i++)
		while (t->hash[i]) {
			struct jbd2_revoke_record *r = t->hash[i];

			t->hash[i] = r->next;
			kfree(r);
		}
	kfree(t);
}

static struct jbd2_revoke_record *find_revoke(struct jbd2_revoke_table *t, u64 block)
{
	struct jbd2_revoke_record *r = t->hash[revoke_hash(block)];

	while (r && r->block != block)
		r = r->next;
	return r;
}

int jbd2_set_revoke(struct jbd2_revoke_table *t, u64 block, u32 seq)
{
	struct jbd2_revoke_record *r = find_revoke(t, block);
	unsigned int h = revoke_hash(block);

	if (r) {
		if (tid_gt(seq, r->seq))
			r->seq = seq;
		return 0;
	}
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	*r = (struct jbd2_revoke_record){ .next = t->hash[h], .block = block, .seq = seq };
	t->hash[h] = r;
	return 0;
}

bool jbd2_test_revoke(struct jbd2_revoke_table *t, u64 block, u32 seq)
{
	struct jbd2_revoke_record *r = find_revoke(t, block);

	return r && !tid_gt(seq, r->seq);
}
