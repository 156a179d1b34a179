/*
 * What the io.* files that name a disk share (io.weight, io.cost.qos, io.cost.model):
 * Linux's blkcg_conf_open_bdev() and the sscanf()/match_token() number forms they accept.
 * A line starts with "MAJ:MIN" and whitespace; a malformed start is -EINVAL, a disk that
 * does not exist -ENODEV.
 */
#include "io.h"
#include <cgwb/blkdev.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>

/* What Linux's io.* writes split on (strsep(" \t\n")). */
bool io_conf_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

const char *io_conf_skip_spaces(const char *s)
{
	while (io_conf_space(*s))
		s++;
	return s;
}

/* Digits at s as sscanf's "%u" takes them (leading spaces, no sign): the end, or NULL. */
const char *io_conf_scan_u64(const char *s, u64 *v)
{
	const char *p = io_conf_skip_spaces(s);
	u64 val = 0;

	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (val > (U64_MAX - (u64)(*p - '0')) / 10)
			return NULL;
		val = val * 10 + (u64)(*p - '0');
	}
	*v = val;
	return p;
}

bool io_conf_scan_u32(const char *s, u32 *v)
{
	u64 val;

	if (!io_conf_scan_u64(s, &val) || val > 0xffffffffULL)
		return false;
	*v = (u32)val;
	return true;
}

struct gendisk *io_conf_open_disk(const char **pos)
{
	const char *p = *pos;
	struct block_device *bdev;
	u64 major, minor;

	p = io_conf_scan_u64(p, &major);
	if (!p || *p != ':')
		return ERR_PTR(-EINVAL);
	p = io_conf_scan_u64(p + 1, &minor);
	if (!p || !io_conf_space(*p))
		return ERR_PTR(-EINVAL);
	if (major >= 1U << 12 || minor >= 1U << 20)
		return ERR_PTR(-ENODEV);
	bdev = blkdev_get_by_dev(MKDEV((unsigned int)major, (unsigned int)minor));
	if (!bdev)
		return ERR_PTR(-ENODEV);
	*pos = io_conf_skip_spaces(p);
	return bdev->bd_disk;
}

/* The next whitespace-separated token of *pos into tok: its length, 0 at the end, or -EINVAL. */
int io_conf_next_token(const char **pos, char *tok, size_t size)
{
	const char *p = io_conf_skip_spaces(*pos);
	size_t len = 0;

	while (*p && !io_conf_space(*p)) {
		if (len + 1 >= size)
			return -EINVAL;
		tok[len++] = *p++;
	}
	tok[len] = '\0';
	*pos = p;
	return (int)len;
}

/*
 * Linux's cgroup_parse_float(s, 2): "W" or "W.F" as hundredths, more decimals rounded,
 * a sign allowed on the whole part; what follows the number is ignored, as sscanf does.
 */
int io_conf_parse_hundredths(const char *s, s64 *v)
{
	bool neg = *s == '-';
	u64 whole, frac = 0, scale = 1;
	const char *p = io_conf_scan_u64(neg || *s == '+' ? s + 1 : s, &whole);

	if (!p || whole > (U64_MAX >> 1) / 100)
		return -EINVAL;
	if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
		for (p++; *p >= '0' && *p <= '9' && scale < 1000000000000ULL; p++) {
			frac = frac * 10 + (u64)(*p - '0');
			scale *= 10;
		}
		frac = scale >= 100 ? (frac * 100 + scale / 2) / scale : frac * (100 / scale);
	}
	*v = (s64)(whole * 100 + frac) * (neg ? -1 : 1);
	return 0;
}
