/*
 * /sys/class/bdi/MAJ:MIN (fs/sysfs/bdi-class.c) on a disk: each knob's mode, default and
 * units, and what a write is refused with: a number the parser cannot read (-EINVAL),
 * past the bound of its type (-ERANGE: UINT_MAX for the ratios and strict_limit, U64_MAX
 * for the bytes), or refused by the rules (-EINVAL, nothing changed).
 */
#include "vfs_test.h"
#include <cgwb/blkdev.h>
#include <cgwb/string.h>
#include <stdio.h>
#include <stdlib.h>
#include "filedisk.h"

#define DISK_BYTES (1 << 20)

static void *mem;
static struct gendisk *disk;
static char dir[64];

static void setup(void)
{
	vfs_test_setup();
	mem = calloc(1, DISK_BYTES);
	disk = filedisk_add_mem("vda", mem, DISK_BYTES, false, NULL);
	cr_assert(disk);
	snprintf(dir, sizeof(dir), "/sys/class/bdi/%s", disk->bdi->dev_name);
}

static void teardown(void)
{
	vfs_test_teardown();
	free(mem);
}

TestSuite(bdi_class, .init = setup, .fini = teardown);

static const char *path(const char *file)
{
	static char p[96];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return p;
}

static const char *get(const char *file)
{
	static char buf[64];

	cr_assert_gt(vt_read(path(file), buf, sizeof(buf)), 0, "%s", file);
	return buf;
}

static long put(const char *file, const char *value)
{
	return vt_write(path(file), value, O_TRUNC);
}

Test(bdi_class, files_modes_and_defaults)
{
	static const struct {
		const char *name, *value;
		umode_t mode;
	} files[] = {
		{ "min_ratio", "0\n", 0644 },
		{ "max_ratio", "100\n", 0644 },
		{ "min_ratio_fine", "0\n", 0644 },
		{ "max_ratio_fine", "1000000\n", 0644 },
		{ "min_bytes", "0\n", 0644 },
		{ "strict_limit", "0\n", 0644 },
		{ "stable_pages_required", "0\n", 0444 },
	};
	struct kstat st;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		cr_assert_eq(vfs_stat(path(files[i].name), &st), 0, "%s", files[i].name);
		cr_assert_eq(st.mode & 0777, files[i].mode, "%s: mode %o", files[i].name,
			     st.mode & 0777);
		cr_assert_str_eq(get(files[i].name), files[i].value, "%s", files[i].name);
	}
	cr_assert_eq(vfs_stat(path("max_bytes"), &st), 0);
	cr_assert_eq(st.mode & 0777, 0644);
	cr_assert_eq(vt_open_err(path("stable_pages_required"), O_WRONLY), -EACCES);
}

Test(bdi_class, ratios_in_percent_and_fine_units)
{
	cr_assert_eq(put("max_ratio", "30\n"), 3);
	cr_assert_eq(put("min_ratio", "+10"), 3);
	cr_assert_str_eq(get("min_ratio"), "10\n");
	cr_assert_str_eq(get("max_ratio"), "30\n");
	cr_assert_str_eq(get("min_ratio_fine"), "100000\n");
	cr_assert_str_eq(get("max_ratio_fine"), "300000\n");
	cr_assert_eq(put("min_ratio_fine", "2500"), 4);
	cr_assert_str_eq(get("min_ratio_fine"), "2500\n");
	cr_assert_str_eq(get("min_ratio"), "0\n", "rounded down to a percent");
	cr_assert_eq(disk->bdi->min_ratio, 2500);
}

Test(bdi_class, unreadable_numbers)
{
	static const char *const knobs[] = { "min_ratio",      "max_ratio", "min_ratio_fine",
					     "max_ratio_fine", "min_bytes", "max_bytes",
					     "strict_limit" };

	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		cr_assert_eq(put(knobs[i], "abc"), -EINVAL, "%s", knobs[i]);
		cr_assert_eq(put(knobs[i], "-1"), -EINVAL, "%s", knobs[i]);
		cr_assert_eq(put(knobs[i], "1x"), -EINVAL, "%s", knobs[i]);
		cr_assert_eq(put(knobs[i], "18446744073709551616"), -ERANGE, "%s", knobs[i]);
	}
	cr_assert_str_eq(get("max_ratio"), "100\n");
}

/* The ratios take an unsigned int: 2^32 is out of range, not 0 (which would be taken). */
Test(bdi_class, ratios_are_unsigned_ints)
{
	static const char *const knobs[] = { "min_ratio", "max_ratio", "min_ratio_fine",
					     "max_ratio_fine", "strict_limit" };

	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		cr_assert_eq(put(knobs[i], "4294967296"), -ERANGE, "%s", knobs[i]);
	cr_assert_eq(put("max_ratio_fine", "4294967295"), -EINVAL, "read, then refused");
	cr_assert_str_eq(get("max_ratio_fine"), "1000000\n");
	cr_assert_str_eq(get("strict_limit"), "0\n");
}

/* The bytes take a u64: 2^32 reaches the rules, as itself. */
Test(bdi_class, bytes_are_u64)
{
	cr_assert_eq(put("max_bytes", "4294967296"), bdi_set_max_bytes(disk->bdi, 4294967296ULL));
	cr_assert_eq(put("max_bytes", "1048576"), 7);
	unsigned long long shown = strtoull(get("max_bytes"), NULL, 10);

	/* kept as a ratio of the threshold: 1 MiB to within its precision */
	cr_assert(shown > 1000000 && shown < 1100000, "max_bytes %llu", shown);
}

Test(bdi_class, refused_values_change_nothing)
{
	cr_assert_eq(put("max_ratio", "101"), -EINVAL);
	cr_assert_eq(put("max_ratio", "30"), 2);
	cr_assert_eq(put("min_ratio", "40"), -EINVAL, "min above max");
	cr_assert_str_eq(get("min_ratio"), "0\n");
	cr_assert_eq(put("min_ratio", "10"), 2);
	cr_assert_eq(put("max_ratio", "5"), -EINVAL, "max below min");
	cr_assert_str_eq(get("max_ratio"), "30\n");
	cr_assert_eq(put("strict_limit", "2"), -EINVAL);
	cr_assert_eq(put("strict_limit", "1\n"), 2);
	cr_assert_str_eq(get("strict_limit"), "1\n");
	cr_assert(disk->bdi->capabilities & BDI_CAP_STRICTLIMIT);
	cr_assert_eq(put("strict_limit", "0"), 1);
	cr_assert_str_eq(get("strict_limit"), "0\n");
}
