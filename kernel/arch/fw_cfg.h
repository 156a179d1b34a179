#ifndef CGWB_ARCH_FW_CFG_H
#define CGWB_ARCH_FW_CFG_H

#include <cgwb/types.h>

/* Read a named fw_cfg file into a NUL-terminated kmalloc'd buffer; -ENOENT if absent. */
int fw_cfg_read_file(const char *name, char **data, size_t *len);

#endif
