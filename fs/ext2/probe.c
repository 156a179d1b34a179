/*
 * Which member of the family a superblock describes, as blkid names it for mount(8)
 * (util-linux's libblkid, superblocks/ext.c): a journal on an external device is no
 * filesystem; ext3 has a journal and nothing of ext4 (incompat: only filetype, recover,
 * meta_bg; ro_compat: only sparse_super, large_file, btree_dir); ext2 has neither the
 * journal nor more than filetype and meta_bg; anything else is ext4. What makes the
 * difference is the features a kernel must know to mount it, not the image's history.
 */
#include "ext2.h"
#include <cgwb/ext2.h>

#define PROBE_EXT3_INCOMPAT                                               \
	(EXT2_FEATURE_INCOMPAT_FILETYPE | EXT3_FEATURE_INCOMPAT_RECOVER | \
	 EXT2_FEATURE_INCOMPAT_META_BG)
#define PROBE_EXT2_INCOMPAT (EXT2_FEATURE_INCOMPAT_FILETYPE | EXT2_FEATURE_INCOMPAT_META_BG)
#define PROBE_EXT3_RO_COMPAT                                                       \
	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | EXT2_FEATURE_RO_COMPAT_LARGE_FILE | \
	 EXT2_FEATURE_RO_COMPAT_BTREE_DIR)

const char *ext2_probe_fstype(const void *superblock)
{
	const struct ext2_super_block *es = superblock;
	u32 compat = le32_to_cpu(es->s_feature_compat);
	u32 incompat = le32_to_cpu(es->s_feature_incompat);
	u32 ro_compat = le32_to_cpu(es->s_feature_ro_compat);

	if (le16_to_cpu(es->s_magic) != EXT2_SUPER_MAGIC ||
	    (incompat & EXT3_FEATURE_INCOMPAT_JOURNAL_DEV))
		return NULL;
	if (ro_compat & ~PROBE_EXT3_RO_COMPAT)
		return "ext4";
	if (compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)
		return incompat & ~PROBE_EXT3_INCOMPAT ? "ext4" : "ext3";
	return incompat & ~PROBE_EXT2_INCOMPAT ? "ext4" : "ext2";
}
