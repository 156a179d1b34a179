/* Helpers of the file commands: path pieces, modes, dates, copying. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"

#define COPY_BUF (64 * 1024)

const char *const fs_month_names[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

const char *fs_basename(const char *path, char *buf, size_t size)
{
	size_t len = strlen(path);
	const char *start;

	while (len > 1 && path[len - 1] == '/')
		len--;
	start = path + len;
	while (start > path && start[-1] != '/')
		start--;
	if (start == path + len) /* "/" */
		start = path, len = 1;
	len -= (size_t)(start - path);
	if (len >= size)
		len = size - 1;
	memcpy(buf, start, len);
	buf[len] = 0;
	return buf;
}

char *fs_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	bool slash = dl && dir[dl - 1] == '/';
	char *p = kmalloc(dl + nl + 2, GFP_KERNEL);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (!slash)
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

bool fs_is_dir(const char *path)
{
	struct kstat st;

	return !vfs_stat(path, &st) && S_ISDIR(st.mode);
}

void fs_mode_string(umode_t mode, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	char type = '?';

	switch (mode & S_IFMT) {
	case S_IFREG:
		type = '-';
		break;
	case S_IFDIR:
		type = 'd';
		break;
	case S_IFLNK:
		type = 'l';
		break;
	case S_IFCHR:
		type = 'c';
		break;
	case S_IFBLK:
		type = 'b';
		break;
	case S_IFIFO:
		type = 'p';
		break;
	case S_IFSOCK:
		type = 's';
		break;
	}
	out[0] = type;
	for (int i = 0; i < 9; i++)
		out[i + 1] = (mode & (0400 >> i)) ? rwx[i] : '-';
	if (mode & 01000)
		out[9] = (mode & 01) ? 't' : 'T';
	out[10] = 0;
}

const char *fs_type_name(umode_t mode, loff_t size)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return size ? "regular file" : "regular empty file";
	case S_IFDIR:
		return "directory";
	case S_IFLNK:
		return "symbolic link";
	case S_IFCHR:
		return "character special file";
	case S_IFBLK:
		return "block special file";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "socket";
	default:
		return "weird file";
	}
}

/* Howard Hinnant's days-to-civil: exact for the proleptic Gregorian calendar. */
void fs_gmtime(s64 secs, struct fs_tm *tm)
{
	s64 days = secs / 86400, rem = secs % 86400;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	tm->hour = (int)(rem / 3600);
	tm->min = (int)(rem % 3600 / 60);
	tm->sec = (int)(rem % 60);
	days += 719468;
	s64 era = (days >= 0 ? days : days - 146096) / 146097;
	s64 doe = days - era * 146097;
	s64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	s64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	s64 mp = (5 * doy + 2) / 153;
	tm->mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	tm->mon = (int)(mp < 10 ? mp + 3 : mp - 9);
	tm->year = (int)(yoe + era * 400 + (tm->mon <= 2));
}

static int copy_data(struct file *in, struct file *out, char *buf)
{
	for (;;) {
		ssize_t n;

		if (signal_pending(current))
			return -EINTR;
		n = file_read(in, buf, COPY_BUF);
		if (n <= 0)
			return (int)n;
		n = file_write_all(out, buf, (size_t)n);
		if (n < 0)
			return (int)n;
	}
}

int fs_copy_file(const char *cmd, const char *src, const char *dst)
{
	struct file *in, *out;
	char *buf;
	int err;

	in = filp_open(src, O_RDONLY, 0);
	if (IS_ERR(in))
		return sh_error(cmd, "cannot open '%s' for reading: %s", src,
				errstr((int)PTR_ERR(in)));
	out = filp_open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (IS_ERR(out)) {
		fput(in);
		return sh_error(cmd, "cannot create regular file '%s': %s", dst,
				errstr((int)PTR_ERR(out)));
	}
	buf = kmalloc(COPY_BUF, GFP_KERNEL);
	err = buf ? copy_data(in, out, buf) : -ENOMEM;
	kfree(buf);
	fput(in);
	fput(out);
	if (err == -EINTR)
		return SH_STATUS_KILLED;
	if (err)
		return sh_error(cmd, "error copying '%s' to '%s': %s", src, dst, errstr(err));
	return 0;
}
