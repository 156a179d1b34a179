/*
 * The parsed form of a shell command. Words are kept raw (quotes included) and expanded
 * only when the command runs. Every node remembers its source text: the executor shows it
 * in `jobs` and re-parses it when a piece must run in a subshell task (a loop in the
 * background, a compound command inside a pipeline), so no tree is shared between tasks.
 */
#ifndef CGWB_SHELL_AST_H
#define CGWB_SHELL_AST_H

#include <cgwb/types.h>
#include "lexer.h"

enum sh_node_type {
	SH_CMD,      /* simple command: assignments, words, redirections */
	SH_LIST,     /* kids run in order; each may be marked SH_BG */
	SH_PIPE,     /* kids connected stdout to stdin */
	SH_ANDOR,    /* kids joined by && and || (flat: long chains need no recursion) */
	SH_BRACE,    /* { body; } */
	SH_SUBSHELL, /* ( body ) */
	SH_IF,       /* if cond; then body; else alt; fi (elif: an SH_IF as alt) */
	SH_WHILE,    /* while cond; do body; done */
	SH_UNTIL,
	SH_FOR,       /* for var in words; do body; done */
	SH_CASE,      /* case word in items esac */
	SH_CASE_ITEM, /* pat|pat) body ;; (a kid of SH_CASE) */
	SH_FUNCDEF,   /* name() compound-command */
};

/* node flags */
#define SH_BG 0x1      /* in a list: run in the background (&) */
#define SH_NEGATE 0x2  /* ! pipeline */
#define SH_IF_OK 0x4   /* in an and-or list: runs if the previous status is 0 (&&) */
#define SH_IF_FAIL 0x8 /* ... if it is not 0 (||) */
#define SH_ELIF 0x10   /* an SH_IF that is the elif part of the SH_IF before it */

struct sh_word {
	struct sh_word *next;
	char text[]; /* raw source text, NUL-terminated */
};

struct sh_redir {
	struct sh_redir *next;
	int fd; /* the fd redirected */
	enum sh_redir_type type;
	struct sh_word *target; /* file name, fd number for <& >&, delimiter for << */
	struct sh_word *body;   /* <<: the here-document's lines, raw */
	bool literal;           /* <<: the delimiter was quoted, the body is not expanded */
	/* <<: the body's lines and the delimiter line in the source (a subshell that gets the
	 * command's text gets these after it: they are outside the command's span) */
	const char *body_src;
	size_t body_src_len;
};

struct sh_node {
	enum sh_node_type type;
	unsigned int flags;
	struct sh_node *next; /* next kid of a list or pipeline */
	const char *src;      /* source text (points into the parsed buffer) */
	size_t src_len;
	unsigned int line;
	struct sh_redir *redirs;
	union {
		struct {
			struct sh_word *assigns;
			struct sh_word *words;
		} cmd;
		struct sh_node *kids; /* LIST, PIPE, ANDOR */
		struct sh_node *body; /* BRACE, SUBSHELL */
		struct {
			struct sh_node *cond, *body, *alt; /* IF, WHILE, UNTIL */
		} cond;
		struct {
			char *var;
			struct sh_word *words;
			bool has_in; /* "for x; do": no word list */
			struct sh_node *body;
		} loop;
		struct {
			struct sh_word *word;
			struct sh_node *items; /* SH_CASE_ITEMs, in order */
		} kase;
		struct {
			struct sh_word *patterns;
			struct sh_node *body; /* NULL: an empty item "a) ;;" */
		} item;
		struct {
			char *name;
			struct sh_node *body; /* the compound command */
		} func;
	};
};

struct sh_node *sh_node_alloc(enum sh_node_type type);
void sh_node_free(struct sh_node *node);
struct sh_word *sh_word_alloc(const char *text, size_t len);
void sh_words_free(struct sh_word *w);
int sh_words_count(const struct sh_word *w);
/* Call fn for every redirection in n and the nodes below it, in source order. */
void sh_node_for_each_redir(const struct sh_node *n,
			    void (*fn)(const struct sh_redir *r, void *arg), void *arg);

#endif
