/*
 * Copying between files in the kernel (Linux's do_sendfile() in fs/read_write.c and
 * vfs_copy_file_range()): sendfile from a regular file (or a block device) to a file or a
 * pipe, copy_file_range between regular files of one file system. Linux splices pages
 * through a pipe; here the data passes through a kernel buffer, a chunk at a time, with
 * Linux's checks in Linux's order, so a program sees the same errors.
 *
 * - sendfile reads at *offset (which is written back) or at the input's position (which
 *   advances); the output's position always advances. To a pipe one call moves at most
 *   64 KiB, Linux's default pipe capacity (Linux moves what fits in it).
 * - copy_file_range shortens the copy to the input's end, refuses an overlap within one
 *   file (-EINVAL) and files of two file systems (-EXDEV: none here has its own
 *   ->copy_file_range, for which Linux 5.19 and later refuse a cross-device copy).
 */
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/pipe.h>
#include <cgwb/vmalloc.h>
#include <cgwb/errno.h>
#include "internal.h"

#define MAX_RW_COUNT 0x7ffff000UL  /* INT_MAX & PAGE_MASK: the most one call moves */
#define COPY_CHUNK (1UL << 20)     /* the bounce buffer's size at most */
#define PIPE_DEF_SIZE (64UL << 10) /* Linux's default pipe capacity */

/* Linux's FMODE_PREAD: a file opened by a path (not a pipe or the console). */
static bool can_pread(const struct file *f)
{
	return f->f_path.dentry && f->f_inode;
}

static bool is_reg(const struct file *f)
{
	return can_pread(f) && S_ISREG(f->f_inode->i_mode);
}

/* Linux's rw_verify_area(): a count negative as a ssize_t, or a range past loff_t's. */
static long rw_verify(loff_t pos, size_t count)
{
	if ((ssize_t)count < 0 || pos < 0 || (loff_t)((u64)pos + count) < 0)
		return -EINVAL;
	return 0;
}

/*
 * len bytes from in at *ipos to out at *opos, both advanced by what was written: that
 * count, or the error if nothing was. Ends early at the input's end, a short write, or a
 * signal to take.
 */
static long copy_chunks(struct file *in, loff_t *ipos, struct file *out, loff_t *opos, size_t len)
{
	size_t chunk = min(len, COPY_CHUNK), done = 0;
	void *buf;
	long err = 0;

	if (!len)
		return 0;
	buf = kvmalloc(chunk, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while (done < len) {
		size_t want = min(len - done, chunk);
		loff_t rpos = *ipos;
		long r = kernel_read(in, buf, want, &rpos), w;

		if (r <= 0) {
			err = r;
			break;
		}
		w = kernel_write(out, buf, (size_t)r, opos);
		if (w < 0) {
			err = w;
			break;
		}
		*ipos += w;
		done += (size_t)w;
		if (w < r || (size_t)r < want || signal_pending(current))
			break;
	}
	kvfree(buf);
	return done ? (long)done : err;
}

/* The largest offset either file's file system allows (a pipe's: no limit of its own). */
static loff_t max_bytes(const struct file *in, const struct file *out)
{
	loff_t max = in->f_inode->i_sb->s_maxbytes;

	if (can_pread(out) && out->f_inode->i_sb->s_maxbytes < max)
		max = out->f_inode->i_sb->s_maxbytes;
	return max;
}

/* To a pipe (at most its capacity) or a file at its position (not appending). */
static long sendfile_out(struct file *in, loff_t *pos, struct file *out, size_t count)
{
	loff_t out_pos = out->f_pos;
	long ret;

	if (file_is_pipe(out))
		return copy_chunks(in, pos, out, &out->f_pos, min(count, PIPE_DEF_SIZE));
	if (out->f_flags & O_APPEND)
		return -EINVAL;
	ret = rw_verify(out_pos, count);
	if (ret)
		return ret;
	ret = copy_chunks(in, pos, out, &out_pos, count);
	if (ret > 0)
		out->f_pos = out_pos;
	return ret;
}

/* Linux's do_sendfile(): ppos NULL reads at (and advances) the input's position. */
static long do_sendfile(int out_fd, int in_fd, loff_t *ppos, size_t count)
{
	struct file *in = fd_file(in_fd), *out;
	loff_t pos, max;
	long ret;

	if (!in || !file_readable(in))
		return -EBADF;
	if (ppos && !can_pread(in))
		return -ESPIPE;
	pos = ppos ? *ppos : in->f_pos;
	ret = rw_verify(pos, count);
	if (ret)
		return ret;
	count = min(count, MAX_RW_COUNT);
	out = fd_file(out_fd);
	if (!out || !file_writable(out))
		return -EBADF;
	/* only a regular file or a block device can be spliced from */
	if (!can_pread(in) || (!S_ISREG(in->f_inode->i_mode) && !S_ISBLK(in->f_inode->i_mode)))
		return -EINVAL;
	max = max_bytes(in, out);
	if (pos + (loff_t)count > max) {
		if (pos >= max)
			return -EOVERFLOW;
		count = (size_t)(max - pos);
	}
	ret = sendfile_out(in, &pos, out, count);
	if (ret > 0) {
		if (ppos)
			*ppos = pos;
		else
			in->f_pos = pos;
	}
	return ret;
}

static long sys_sendfile(u64 out_fd, u64 in_fd, u64 uoffset, u64 count, u64 a4, u64 a5)
{
	loff_t pos;
	long ret;

	if (!uoffset)
		return do_sendfile((int)out_fd, (int)in_fd, NULL, count);
	if (copy_from_user(&pos, uoffset, sizeof(pos)))
		return -EFAULT;
	ret = do_sendfile((int)out_fd, (int)in_fd, &pos, count);
	return copy_to_user(uoffset, &pos, sizeof(pos)) ? -EFAULT : ret;
}

/* Linux's generic_copy_file_checks(), in its order; *len shortened to the input's end. */
static long copy_file_checks(struct file *in, loff_t pos_in, struct file *out, loff_t pos_out,
			     size_t *len)
{
	struct inode *ii = in->f_inode, *io = out->f_inode;
	u64 count = *len;

	if ((ii && S_ISDIR(ii->i_mode)) || (io && S_ISDIR(io->i_mode)))
		return -EISDIR;
	if (!is_reg(in) || !is_reg(out))
		return -EINVAL;
	if (!file_readable(in) || !file_writable(out) || (out->f_flags & O_APPEND))
		return -EBADF;
	if (ii->i_sb != io->i_sb)
		return -EXDEV;
	if ((u64)pos_in + count < (u64)pos_in || (u64)pos_out + count < (u64)pos_out)
		return -EOVERFLOW;
	count = pos_in >= ii->i_size ? 0 : min(count, (u64)(ii->i_size - pos_in));
	if (pos_out >= io->i_sb->s_maxbytes)
		return -EFBIG;
	count = min(count, (u64)(io->i_sb->s_maxbytes - pos_out));
	if (ii == io && pos_out + (loff_t)count > pos_in && pos_out < pos_in + (loff_t)count)
		return -EINVAL; /* an overlap within one file */
	*len = (size_t)count;
	return 0;
}

static long get_pos(u64 upos, const struct file *f, loff_t *pos)
{
	if (!upos) {
		*pos = f->f_pos;
		return 0;
	}
	return copy_from_user(pos, upos, sizeof(*pos)) ? -EFAULT : 0;
}

static long put_pos(u64 upos, struct file *f, loff_t pos)
{
	if (!upos) {
		f->f_pos = pos;
		return 0;
	}
	return copy_to_user(upos, &pos, sizeof(pos)) ? -EFAULT : 0;
}

static long sys_copy_file_range(u64 fd_in, u64 uoff_in, u64 fd_out, u64 uoff_out, u64 len, u64 flags)
{
	struct file *in = fd_file((int)fd_in), *out = fd_file((int)fd_out);
	loff_t pos_in, pos_out;
	size_t count = len;
	long ret;

	if (!in || !out)
		return -EBADF;
	ret = get_pos(uoff_in, in, &pos_in) ?: get_pos(uoff_out, out, &pos_out);
	if (ret)
		return ret;
	if (flags)
		return -EINVAL;
	ret = copy_file_checks(in, pos_in, out, pos_out, &count);
	if (!ret)
		ret = rw_verify(pos_in, count) ?: rw_verify(pos_out, count);
	if (ret || !count)
		return ret;
	ret = copy_chunks(in, &pos_in, out, &pos_out, min(count, MAX_RW_COUNT));
	if (ret > 0) {
		long e_in = put_pos(uoff_in, in, pos_in), e_out = put_pos(uoff_out, out, pos_out);

		if (e_in || e_out)
			ret = -EFAULT; /* both written back where they can be, as Linux */
	}
	return ret;
}

static const struct syscall_def calls[] = {
	{ 40, "sendfile", sys_sendfile },
	{ 326, "copy_file_range", sys_copy_file_range },
};

const struct syscall_table sys_sendfile_calls = { calls, ARRAY_SIZE(calls) };
