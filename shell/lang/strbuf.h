/*
 * Growable strings and string vectors for the shell (portable: kernel and host tests).
 * An allocation failure does not stop the caller at each append: the buffer remembers it
 * and the owner checks once, at the end, whether the result is complete.
 */
#ifndef CGWB_SHELL_STRBUF_H
#define CGWB_SHELL_STRBUF_H

#include <cgwb/types.h>
#include <cgwb/compiler.h>

struct strbuf {
	char *buf; /* NUL-terminated once anything was added; NULL before */
	size_t len;
	size_t alloc;
	bool failed; /* an allocation failed: the contents are incomplete */
};

#define STRBUF_INIT               \
	{                         \
		NULL, 0, 0, false \
	}

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_addc(struct strbuf *sb, char c);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __printf(2, 3);
void sb_truncate(struct strbuf *sb, size_t len);
/* The text so far ("" when empty); valid until the next change. */
const char *sb_str(const struct strbuf *sb);
/* Hand the text over (kfree it later); NULL if an allocation failed. Leaves sb empty. */
char *sb_detach(struct strbuf *sb);

/* A NULL-terminated vector of strings it owns, like argv. */
struct strv {
	char **v;
	int n;
	int alloc;
	bool failed;
};

#define STRV_INIT                 \
	{                         \
		NULL, 0, 0, false \
	}

/* Takes ownership of s (a NULL s marks the vector failed). */
void strv_push(struct strv *sv, char *s);
void strv_free(struct strv *sv);
/* Sort v[from..n) by strcmp (stable). */
void strv_sort(struct strv *sv, int from);

#endif
