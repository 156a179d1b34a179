/*
 * String and memory functions: the C library's in host builds, kernel/platform/string.c in
 * the kernel.
 */
#ifndef CGWB_STRING_H
#define CGWB_STRING_H

#include <cgwb/types.h>

#ifdef CGWB_KERNEL
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#else
#include <string.h>
#include <stdio.h>
#endif

/* Not in ISO C, so ours in both builds (kernel/lib/string_ext.c). */
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);
char *kstrdup(const char *s, gfp_t gfp);
char *kstrndup(const char *s, size_t max, gfp_t gfp);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
char *strim(char *s);
bool str_has_prefix(const char *s, const char *prefix);

/*
 * Number parsing in the style of Linux's kstrto*: the whole string must be a number
 * (a trailing newline is allowed); returns 0 or -EINVAL / -ERANGE.
 */
int kstrtoull(const char *s, unsigned int base, u64 *res);
int kstrtoll(const char *s, unsigned int base, s64 *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);
/* "4K", "16M", "1G" and plain numbers (binary multiples); -EINVAL / -ERANGE. */
int parse_size(const char *s, u64 *res);

#endif
