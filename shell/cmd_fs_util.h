/* Helpers shared by the file commands (shell/cmd_fs_*.c). */
#ifndef CGWB_SHELL_CMD_FS_UTIL_H
#define CGWB_SHELL_CMD_FS_UTIL_H

#include <cgwb/fs.h>

/* The last component of path ("b" for "a/b/", "/" for "/"), into buf. */
const char *fs_basename(const char *path, char *buf, size_t size);
/* dir + "/" + name in a new string (kfree it); NULL without memory. */
char *fs_join(const char *dir, const char *name);
bool fs_is_dir(const char *path);
/* "drwxr-xr-x" */
void fs_mode_string(umode_t mode, char out[11]);
/* "regular file", "directory", ... as stat prints it. */
const char *fs_type_name(umode_t mode, loff_t size);
/* UTC calendar time of seconds since the epoch. */
struct fs_tm {
	int year, mon, mday, hour, min, sec;
};
void fs_gmtime(s64 secs, struct fs_tm *tm);
extern const char *const fs_month_names[12];
/* Copy src to dst (created or truncated): 0 or the shell status after a message for cmd. */
int fs_copy_file(const char *cmd, const char *src, const char *dst);

#endif
