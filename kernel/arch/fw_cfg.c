/*
 * QEMU's fw_cfg device (selector port 0x510, data port 0x511): how a boot script and extra
 * kernel arguments reach the guest without rebuilding the ISO
 * (-fw_cfg name=opt/cgwb/script,file=PATH and name=opt/cgwb/cmdline,string=...).
 */
#include <cgwb/types.h>
#include <cgwb/string.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/io.h>
#include "fw_cfg.h"

#define FW_CFG_SEL 0x510
#define FW_CFG_DATA 0x511
#define FW_CFG_SIGNATURE 0x00
#define FW_CFG_FILE_DIR 0x19

static void fw_cfg_select(u16 key)
{
	outw(FW_CFG_SEL, key);
}

static void fw_cfg_read(void *buf, size_t n)
{
	u8 *p = buf;
	for (size_t i = 0; i < n; i++)
		p[i] = inb(FW_CFG_DATA);
}

static u32 be32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) | ((u32)p[2] << 8) | p[3];
}

static bool fw_cfg_present(void)
{
	char sig[4];
	fw_cfg_select(FW_CFG_SIGNATURE);
	fw_cfg_read(sig, 4);
	return !memcmp(sig, "QEMU", 4);
}

static int fw_cfg_find(const char *name, u16 *key, u32 *size)
{
	u8 hdr[4], entry[64];

	if (!fw_cfg_present())
		return -ENODEV;
	fw_cfg_select(FW_CFG_FILE_DIR);
	fw_cfg_read(hdr, 4);
	for (u32 i = 0, n = be32(hdr); i < n; i++) {
		fw_cfg_read(entry, sizeof(entry));
		if (strncmp((const char *)entry + 8, name, 56))
			continue;
		*size = be32(entry);
		*key = (u16)((entry[4] << 8) | entry[5]);
		return 0;
	}
	return -ENOENT;
}

int fw_cfg_read_file(const char *name, char **data, size_t *len)
{
	u16 key;
	u32 size;
	int err = fw_cfg_find(name, &key, &size);

	if (err)
		return err;
	char *buf = kmalloc(size + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	fw_cfg_select(key);
	fw_cfg_read(buf, size);
	buf[size] = '\0';
	*data = buf;
	*len = size;
	return 0;
}
