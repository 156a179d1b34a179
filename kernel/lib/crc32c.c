/*
 * CRC-32C, a byte at a time through a 256-entry table.
 *
 * The table is computed on first use rather than written out: 256 constants are easy to
 * get wrong and hard to review, eight shifts per entry are not. Two first callers at once
 * both fill it with the same values; the table is used only after `crc32c_ready` is
 * published, so no caller reads an entry still being written.
 */
#include <cgwb/crc32c.h>
#include <cgwb/compiler.h>

#define CRC32C_POLY 0x82F63B78u /* 0x1EDC6F41 reflected */

static u32 crc32c_table[256];
static bool crc32c_ready;

static u32 crc32c_byte_slow(u32 crc)
{
	for (int i = 0; i < 8; i++)
		crc = (crc >> 1) ^ (crc & 1 ? CRC32C_POLY : 0);
	return crc;
}

static void crc32c_init_table(void)
{
	for (u32 i = 0; i < 256; i++)
		crc32c_table[i] = crc32c_byte_slow(i);
	smp_wmb();
	WRITE_ONCE(crc32c_ready, true);
}

u32 crc32c(u32 crc, const void *data, size_t len)
{
	const u8 *p = data;

	if (!READ_ONCE(crc32c_ready))
		crc32c_init_table();
	smp_rmb();
	while (len--)
		crc = (crc >> 8) ^ crc32c_table[(crc ^ *p++) & 0xff];
	return crc;
}
