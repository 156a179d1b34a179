/*
 * Errors found in an ext2 filesystem (Linux's ext2_error() and ext2_msg(); ext4's
 * __ext4_error(), __ext4_msg() and save_error_info() on a type ext4 mount): said on the
 * console, kept in the superblock for e2fsck, and acted on as errors= says.
 *
 * Any file of the driver, and fs/ext4/, may meet corrupt metadata or a lost write in the
 * middle of any operation, so reporting it needs nothing of the mount: only the superblock's
 * buffer, dirtied through metadata.c.
 */
#include "ext2.h"
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

/* Messages name the type the image was mounted as, as Linux's two drivers do. */
static const char *ext2_fs_name(struct super_block *sb)
{
	return EXT2_SB(sb) && EXT2_SB(sb)->s_family ? "EXT4-fs" : "EXT2-fs";
}

/*
 * ext4's messages and errors are rate-limited per filesystem, as Linux's __ext4_msg() and
 * __ext4_error() (s_msg_ratelimit_state, s_err_ratelimit_state: 10 per 5 s, then a count
 * of those suppressed); ext2's are not, as Linux's ext2. An error is still recorded.
 */
static bool ext2_msg_ratelimit(struct super_block *sb)
{
	return !EXT2_SB(sb) || ___ratelimit(&EXT2_SB(sb)->s_msg_ratelimit_state, ext2_fs_name(sb));
}

static bool ext2_error_ratelimit(struct super_block *sb)
{
	return !EXT2_SB(sb) || ___ratelimit(&EXT2_SB(sb)->s_err_ratelimit_state, ext2_fs_name(sb));
}

void ext2_ratelimit_init(struct ext2_sb_info *sbi)
{
	int interval = sbi->s_family ? DEFAULT_RATELIMIT_INTERVAL : 0;

	ratelimit_state_init(&sbi->s_msg_ratelimit_state, interval, DEFAULT_RATELIMIT_BURST);
	ratelimit_state_init(&sbi->s_err_ratelimit_state, interval, DEFAULT_RATELIMIT_BURST);
}

void ext2_msg(struct super_block *sb, const char *level, const char *fmt, ...)
{
	char buf[256], line_fmt[32];
	va_list ap;

	if (!ext2_msg_ratelimit(sb))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* printk takes the level from its format, so the level goes into the format */
	snprintf(line_fmt, sizeof(line_fmt), "%s%%s (%%s): %%s\n", level);
	printk(line_fmt, ext2_fs_name(sb), sb->s_id, buf);
}

/* The on-disk error record e2fsck and dumpe2fs show: a count, the first and the last. */
static void ext2_save_error_info(struct super_block *sb, const char *func)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;
	u32 now = (u32)ktime_get_real_seconds();

	if (!es->s_error_count) {
		es->s_first_error_time = cpu_to_le32(now);
		strlcpy((char *)es->s_first_error_func, func, sizeof(es->s_first_error_func));
	}
	le32_add_cpu(&es->s_error_count, 1);
	es->s_last_error_time = cpu_to_le32(now);
	strlcpy((char *)es->s_last_error_func, func, sizeof(es->s_last_error_func));
}

/*
 * Corrupt metadata or a failed metadata write: say where, remember it on disk (state, error
 * count, first and last error; e2fsck will look), and go on as errors= says. Panic only if
 * the mount asked for it: a disk image alone must not be able to crash us, so a superblock
 * saying "panic" degrades to remount-ro.
 */
void ext2_error(struct super_block *sb, const char *func, const char *fmt, ...)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ext2_error_ratelimit(sb))
		printk(KERN_ERR "%s error (device %s): %s: %s\n", ext2_fs_name(sb), sb->s_id, func,
		       buf);
	if (!sbi || !sbi->s_es)
		return;
	sbi->s_mount_state |= EXT2_ERROR_FS;
	if (sb->s_flags & SB_RDONLY)
		return;
	sbi->s_es->s_state |= cpu_to_le16(EXT2_ERROR_FS);
	ext2_save_error_info(sb, func);
	ext2_sb_dirty(sb);
	if (sbi->s_errors == EXT2_ERRORS_PANIC && sbi->s_errors_panic_asked)
		panic("EXT2-fs (device %s): panic forced after error", sb->s_id);
	if (sbi->s_errors != EXT2_ERRORS_CONTINUE && sb->s_root) {
		ext2_msg(sb, KERN_CRIT, "error: remounting filesystem read-only");
		sb->s_flags |= SB_RDONLY;
	}
}

/*
 * Metadata buffers are written by the block device's writeback, which knows nothing of
 * ext2: a write that failed there shows as a new error on the device's mapping. Record it
 * as an ext2 error, and keep it for the next syncfs or umount to report.
 */
void ext2_check_bdev_write_error(struct super_block *sb, const char *func)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int count = READ_ONCE(bdev_mapping(sb->s_bdev)->wb_err_count);

	if (count == sbi->s_bdev_wb_err_seen)
		return;
	ext2_error(sb, func, "IO error writing metadata to the device");
	sb_record_wb_err(sb, -EIO);
	/* the record goes out now; if that write fails too, it is the same error, not a new one */
	sync_dirty_buffer(sbi->s_sbh);
	sbi->s_bdev_wb_err_seen = READ_ONCE(bdev_mapping(sb->s_bdev)->wb_err_count);
}
