/*
 * String and memory functions: the C library's in host builds, kernel/platform/string.c in
 * the kernel.
 */
#ifndef CGWB_STRING_H
#define CGWB_STRING_H

#include <cgwb/types.h>

#ifdef CGWB_KERNEL
/* The C library's, as the standard says; the host build has libc's own. */
/**
 * memcpy() - copy memory that does not overlap
 * @dst: where to copy
 * @src: what to copy
 * @n: how many bytes
 *
 * Context: any context.
 * Return: @dst.
 */
void *memcpy(void *dst, const void *src, size_t n);
/**
 * memmove() - copy memory that may overlap
 * @dst: where to copy
 * @src: what to copy
 * @n: how many bytes
 *
 * Context: any context.
 * Return: @dst.
 */
void *memmove(void *dst, const void *src, size_t n);
/**
 * memset() - fill memory with a byte
 * @s: the memory
 * @c: the byte
 * @n: how many bytes
 *
 * Context: any context.
 * Return: @s.
 */
void *memset(void *s, int c, size_t n);
/**
 * memcmp() - compare memory
 * @a: the first area
 * @b: the second
 * @n: how many bytes
 *
 * Context: any context.
 * Return: <0, 0 or >0 as @a's first differing byte (unsigned) is below, equal to or
 * above @b's.
 */
int memcmp(const void *a, const void *b, size_t n);
/**
 * memchr() - find a byte in memory
 * @s: the memory
 * @c: the byte
 * @n: how many bytes to look at
 *
 * Context: any context.
 * Return: the first occurrence, or NULL.
 */
void *memchr(const void *s, int c, size_t n);
/**
 * strlen() - the length of a string
 * @s: the string
 *
 * Context: any context.
 * Return: the bytes before its NUL.
 */
size_t strlen(const char *s);
/**
 * strnlen() - the length of a string, at most a bound
 * @s: the string
 * @max: the bound
 *
 * Context: any context.
 * Return: the bytes before its NUL, or @max if there is none before.
 */
size_t strnlen(const char *s, size_t max);
/**
 * strcmp() - compare strings
 * @a: the first
 * @b: the second
 *
 * Context: any context.
 * Return: <0, 0 or >0 as @a sorts before, equal to or after @b (unsigned bytes).
 */
int strcmp(const char *a, const char *b);
/**
 * strncmp() - compare strings, at most a number of bytes
 * @a: the first
 * @b: the second
 * @n: the most bytes compared
 *
 * Context: any context.
 * Return: as strcmp() over the first @n bytes.
 */
int strncmp(const char *a, const char *b, size_t n);
/**
 * strchr() - find a character in a string
 * @s: the string
 * @c: the character (the NUL may be looked for)
 *
 * Context: any context.
 * Return: its first occurrence, or NULL.
 */
char *strchr(const char *s, int c);
/**
 * strrchr() - find the last occurrence of a character in a string
 * @s: the string
 * @c: the character
 *
 * Context: any context.
 * Return: its last occurrence, or NULL.
 */
char *strrchr(const char *s, int c);
/**
 * strstr() - find a string in another
 * @haystack: where to look
 * @needle: what to look for (an empty one is found at once)
 *
 * Context: any context.
 * Return: its first occurrence, or NULL.
 */
char *strstr(const char *haystack, const char *needle);
/**
 * strspn() - the length of a string's prefix made of some characters
 * @s: the string
 * @accept: the characters
 *
 * Context: any context.
 * Return: the prefix's length.
 */
size_t strspn(const char *s, const char *accept);
/**
 * strcspn() - the length of a string's prefix without some characters
 * @s: the string
 * @reject: the characters
 *
 * Context: any context.
 * Return: the prefix's length.
 */
size_t strcspn(const char *s, const char *reject);
/**
 * vsnprintf() - format into a buffer, from a va_list
 * @buf: the buffer, always NUL-terminated when @size > 0
 * @size: its size
 * @fmt: the format: C99's conversions d i u x X o c s p %, with flags, width,
 *       precision and length modifiers
 * @ap: its arguments
 *
 * An unknown conversion is printed as it stands.
 *
 * Context: any context.
 * Return: the length the full output would have (as C99).
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/**
 * snprintf() - format into a buffer
 * @buf: the buffer, always NUL-terminated when @size > 0
 * @size: its size
 * @fmt: the format, as vsnprintf()'s
 * @...: its arguments
 *
 * Context: any context.
 * Return: the length the full output would have (as C99).
 */
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#else
#include <string.h>
#include <stdio.h>
#endif

/* Not in ISO C, so ours in both builds (kernel/lib/string_ext.c). */
/**
 * strlcpy() - copy a string into a buffer, truncating
 * @dst: the buffer, NUL-terminated when @size > 0
 * @src: the string
 * @size: the buffer's size
 *
 * Context: any context.
 * Return: strlen(@src): a value >= @size says it was cut.
 */
size_t strlcpy(char *dst, const char *src, size_t size);
/**
 * strlcat() - append a string to the one in a buffer, truncating
 * @dst: the buffer, holding a string
 * @src: the string to append
 * @size: the buffer's size
 *
 * Context: any context.
 * Return: the length the whole string would have: a value >= @size says it was cut.
 */
size_t strlcat(char *dst, const char *src, size_t size);
/**
 * kstrdup() - a kmalloc'd copy of a string
 * @s: the string, or NULL
 * @gfp: how to allocate, as kmalloc()'s
 *
 * Context: as kmalloc() with @gfp.
 * Return: the copy (kfree() it), or NULL for a NULL @s or without memory.
 */
char *kstrdup(const char *s, gfp_t gfp);
/**
 * kstrndup() - a kmalloc'd copy of at most the first bytes of a string
 * @s: the string
 * @max: the most bytes copied (a NUL is added)
 * @gfp: how to allocate, as kmalloc()'s
 *
 * Context: as kmalloc() with @gfp.
 * Return: the copy, or NULL without memory.
 */
char *kstrndup(const char *s, size_t max, gfp_t gfp);
/**
 * scnprintf() - format into a buffer, returning what was written
 * @buf: the buffer
 * @size: its size
 * @fmt: the format, as vsnprintf()'s
 * @...: its arguments
 *
 * Context: any context.
 * Return: the characters written, the NUL not counted (0 for a @size of 0).
 */
int scnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/**
 * vscnprintf() - scnprintf() from a va_list
 * @buf: the buffer
 * @size: its size
 * @fmt: the format
 * @ap: its arguments
 *
 * Context: any context.
 * Return: the characters written, the NUL not counted (0 for a @size of 0).
 */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/**
 * strim() - strip white space at both ends of a string
 * @s: the string; trailing space is cut in place
 *
 * Context: any context.
 * Return: the first character that is not white space, inside @s.
 */
char *strim(char *s);
/**
 * str_has_prefix() - does a string start with another?
 * @s: the string
 * @prefix: the prefix
 *
 * Context: any context.
 * Return: true if it does (Linux's returns the prefix's length).
 */
bool str_has_prefix(const char *s, const char *prefix);

/*
 * Number parsing in the style of Linux's kstrto*: the whole string must be a number
 * (a trailing newline is allowed).
 */
/**
 * kstrtoull() - parse an unsigned number
 * @s: the string: an optional '+', then digits
 * @base: the base; 0 reads a 0x prefix as 16 and a leading 0 as 8; 16 accepts a 0x prefix
 * @res: set to the number on success
 *
 * Context: any context.
 * Return: 0, -EINVAL if @s is not a number, or -ERANGE if it does not fit.
 */
int kstrtoull(const char *s, unsigned int base, u64 *res);
/**
 * kstrtoll() - parse a signed number
 * @s: the string: an optional '-', then as kstrtoull()'s (so "-+5" is -5, which Linux's
 *     refuses)
 * @base: the base, as kstrtoull()'s
 * @res: set to the number on success
 *
 * Context: any context.
 * Return: 0, -EINVAL, or -ERANGE.
 */
int kstrtoll(const char *s, unsigned int base, s64 *res);
/**
 * kstrtouint() - parse an unsigned int
 * @s: the string, as kstrtoull()'s
 * @base: the base, as kstrtoull()'s
 * @res: set to the number on success
 *
 * Context: any context.
 * Return: 0, -EINVAL, or -ERANGE.
 */
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
/**
 * kstrtoint() - parse an int
 * @s: the string, as kstrtoll()'s
 * @base: the base, as kstrtoull()'s
 * @res: set to the number on success
 *
 * Context: any context.
 * Return: 0, -EINVAL, or -ERANGE.
 */
int kstrtoint(const char *s, unsigned int base, int *res);
/**
 * parse_size() - parse a size: "4K", "16M", "1G", "2TiB" and plain numbers
 * @s: the string: decimal digits, then K, M, G or T (either case, "iB" allowed), binary
 *     multiples
 * @res: set to the size in bytes on success
 *
 * Context: any context.
 * Return: 0, -EINVAL, or -ERANGE if it does not fit in 64 bits.
 */
int parse_size(const char *s, u64 *res);

#endif
