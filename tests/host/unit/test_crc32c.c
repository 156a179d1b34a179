/* CRC-32C against the published check values (RFC 3720's iSCSI vectors, "123456789"), and CRC-16. */
#include <criterion/criterion.h>
#include <cgwb/crc32c.h>
#include <cgwb/crc16.h>
#include <string.h>

static u32 standard_crc32c(const void *data, size_t len)
{
	return ~crc32c(~0u, data, len);
}

Test(crc32c, check_value)
{
	cr_assert_eq(standard_crc32c("123456789", 9), 0xE3069283u);
}

Test(crc32c, rfc3720_vectors)
{
	u8 buf[32];

	memset(buf, 0, sizeof(buf));
	cr_expect_eq(standard_crc32c(buf, 32), 0x8A9136AAu);
	memset(buf, 0xff, sizeof(buf));
	cr_expect_eq(standard_crc32c(buf, 32), 0x62A8AB43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (u8)i;
	cr_expect_eq(standard_crc32c(buf, 32), 0x46DD794Eu);
}

/* ext4 chains: the checksum of a buffer equals that of its pieces carried over. */
Test(crc32c, chaining)
{
	const char *s = "the quick brown fox jumps over the lazy dog";
	size_t n = strlen(s);

	for (size_t cut = 0; cut <= n; cut++)
		cr_expect_eq(crc32c(crc32c(~0u, s, cut), s + cut, n - cut), crc32c(~0u, s, n));
}

/* CRC-16 (Linux's crc16) against the catalogue's check values of its two usual starts. */
Test(crc16, check_values)
{
	cr_expect_eq(crc16(0, "123456789", 9), 0xBB3D);      /* CRC-16/ARC */
	cr_expect_eq(crc16(0xffff, "123456789", 9), 0x4B37); /* CRC-16/MODBUS */
}
