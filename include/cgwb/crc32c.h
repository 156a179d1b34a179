/* CRC-32C (Castagnoli), the checksum of ext4's metadata and of jbd2's journal blocks. */
#ifndef CGWB_CRC32C_H
#define CGWB_CRC32C_H

#include <cgwb/types.h>

/**
 * crc32c() - CRC-32C of a buffer, carried on (Linux's crc32c_le())
 * @crc: the CRC so far
 * @data: the bytes
 * @len: how many
 *
 * Reflected polynomial 0x82F63B78, with no inversion on the way in or out. ext4 chains its
 * checksums this way, starting from ~0 and never inverting; the standard CRC-32C of a
 * buffer is ~crc32c(~0, data, len). The table is built at the first call.
 *
 * Context: any context.
 * Return: the CRC carried over @data.
 */
u32 crc32c(u32 crc, const void *data, size_t len);

#endif
