/* CRC-16 (the ARC/IBM polynomial), the checksum of ext4's gdt_csum group descriptors. */
#ifndef CGWB_CRC16_H
#define CGWB_CRC16_H

#include <cgwb/types.h>

/**
 * crc16() - CRC-16 of a buffer, carried on (Linux's crc16())
 * @crc: the CRC so far (ext4 starts from ~0)
 * @data: the bytes
 * @len: how many
 *
 * Reflected polynomial 0xA001, no inversion on the way in or out.
 *
 * Context: any context.
 * Return: the CRC carried over @data.
 */
u16 crc16(u16 crc, const void *data, size_t len);

#endif
