/*
 * Regular expressions for grep (portable): the extended (ERE) syntax's common core —
 * literals, '.', bracket expressions with ranges and negation, '^' and '$', the quantifiers
 * '*' '+' '?' and '{m,n}' on any atom, groups '(...)' and alternation '|' — matched by
 * backtracking with
 * a step budget, so a pathological pattern fails instead of hanging. Basic (BRE) patterns
 * are the same with '+', '?', '|', '(', ')', '{' and '}' literal unless escaped, as in GNU
 * grep.
 */
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "regex.h"

#define MAX_NODES 256
#define MAX_STEPS 200000
#define MAX_DEPTH 64   /* frames are ~200 bytes: a shell command has a 32 KiB stack */
#define MAX_REPEAT 255 /* the largest m or n of {m,n}, as RE_DUP_MAX */

enum node_type { N_CHAR, N_ANY, N_CLASS, N_BOL, N_EOL, N_GROUP };

struct node {
	enum node_type type;
	unsigned char c;
	int min, max; /* repetition; max -1: unbounded */
	u8 class[32]; /* N_CLASS: bitmap */
	int alt;      /* N_GROUP: first alternative (index of an N_GROUP-list) */
	int next;     /* next node in its sequence, -1 at the end */
	int next_alt; /* for the first node of an alternative: the next one */
};

struct regex {
	struct node nodes[MAX_NODES];
	int nr, start; /* start: the top-level group */
	bool icase;
	int match_end; /* where the last match found ended */
	long steps;
	int depth;
};

struct parser {
	struct regex *re;
	const char *p;
	bool ere;
	int err;
};

static int new_node(struct parser *ps, enum node_type t)
{
	if (ps->re->nr == MAX_NODES) {
		ps->err = -E2BIG;
		return -1;
	}
	struct node *n = &ps->re->nodes[ps->re->nr];
	memset(n, 0, sizeof(*n));
	n->type = t;
	n->min = n->max = 1;
	n->next = n->next_alt = n->alt = -1;
	return ps->re->nr++;
}

static int parse_alts(struct parser *ps);

static void set_bit(u8 *class, unsigned char c)
{
	class[c >> 3] |= (u8)(1 << (c & 7));
}

static int parse_class(struct parser *ps)
{
	int id = new_node(ps, N_CLASS);
	bool negate = false;

	if (id < 0)
		return -1;
	struct node *n = &ps->re->nodes[id];
	if (*ps->p == '^') {
		negate = true;
		ps->p++;
	}
	for (bool first = true; *ps->p && (first || *ps->p != ']'); first = false) {
		unsigned char lo = (unsigned char)*ps->p++, hi = lo;
		if (*ps->p == '-' && ps->p[1] && ps->p[1] != ']') {
			hi = (unsigned char)ps->p[1];
			ps->p += 2;
		}
		for (unsigned int c = lo; c <= hi; c++)
			set_bit(n->class, (unsigned char)c);
	}
	if (*ps->p != ']') {
		ps->err = -EINVAL;
		return -1;
	}
	ps->p++;
	if (negate)
		for (int i = 0; i < 32; i++)
			n->class[i] = (u8)~n->class[i];
	return id;
}

/* One atom, or -1 at the end of a sequence (')' '|' or the end). */
static int parse_atom(struct parser *ps)
{
	char c = *ps->p;
	bool esc = c == '\\' && ps->p[1];
	int id;

	if (!c)
		return -1;
	if (esc)
		c = *++ps->p;
	/* ERE: specials unless escaped; BRE: literal unless escaped */
	bool special = esc ? !ps->ere && strchr("+?|()", c) : (ps->ere || !strchr("+?|()", c));
	if (special && (c == '|' || c == ')')) {
		if (esc)
			ps->p--;
		return -1;
	}
	ps->p++;
	if (special && c == '(') {
		id = new_node(ps, N_GROUP);
		if (id < 0)
			return -1;
		ps->re->nodes[id].alt = parse_alts(ps);
		bool closed = ps->ere ? *ps->p == ')' : (ps->p[0] == '\\' && ps->p[1] == ')');
		if (!closed) {
			ps->err = -EINVAL;
			return -1;
		}
		ps->p += ps->ere ? 1 : 2;
		return id;
	}
	if (!esc && c == '.')
		return new_node(ps, N_ANY);
	if (!esc && c == '[')
		return parse_class(ps);
	if (!esc && c == '^')
		return new_node(ps, N_BOL);
	if (!esc && c == '$' && (!*ps->p || *ps->p == '|' || *ps->p == ')'))
		return new_node(ps, N_EOL);
	id = new_node(ps, N_CHAR);
	if (id >= 0) {
		if (esc && c == 't')
			c = '\t';
		ps->re->nodes[id].c = (unsigned char)c;
	}
	return id;
}

/* A decimal number for {m,n} at *p, moved past it; -1 if there is none or it is too big. */
static int parse_count(const char **p)
{
	int v = -1;

	while (**p >= '0' && **p <= '9') {
		v = (v < 0 ? 0 : v * 10) + (*(*p)++ - '0');
		if (v > MAX_REPEAT)
			return -1;
	}
	return v;
}

/* {m}, {m,}, {m,n} after the '{' (ERE) or '\{' (BRE); ps->p moves past the closing brace. */
static void parse_interval(struct parser *ps, struct node *n)
{
	int lo = parse_count(&ps->p), hi = lo;

	if (*ps->p == ',') {
		ps->p++;
		hi = *ps->p >= '0' && *ps->p <= '9' ? parse_count(&ps->p) : MAX_REPEAT + 1;
	}
	if (ps->ere ? *ps->p != '}' : (ps->p[0] != '\\' || ps->p[1] != '}'))
		lo = -1;
	if (lo < 0 || hi < lo) {
		ps->err = -EINVAL;
		return;
	}
	ps->p += ps->ere ? 1 : 2;
	n->min = lo;
	n->max = hi > MAX_REPEAT ? -1 : hi;
}

static void parse_quant(struct parser *ps, struct node *n)
{
	for (;;) {
		bool esc = *ps->p == '\\';
		char c = esc ? ps->p[1] : *ps->p;
		bool quant = c == '*' ? !esc : (c == '+' || c == '?' || c == '{') && (ps->ere != esc);
		if (!c || !quant || ps->err)
			return;
		ps->p += esc ? 2 : 1;
		if (c == '{') {
			parse_interval(ps, n);
		} else if (c == '*') {
			n->min = 0;
			n->max = -1;
		} else if (c == '+') {
			n->max = -1;
		} else {
			n->min = 0;
		}
	}
}

/* A sequence: returns its first node (a sequence may be empty: then an empty group). */
static int parse_seq(struct parser *ps)
{
	int first = -1, last = -1;

	for (;;) {
		const char *before = ps->p;
		int id = parse_atom(ps);
		if (id < 0 || ps->err) {
			if (ps->p == before || ps->err)
				break;
			continue;
		}
		parse_quant(ps, &ps->re->nodes[id]);
		if (last < 0)
			first = id;
		else
			ps->re->nodes[last].next = id;
		last = id;
	}
	if (first < 0 && !ps->err) {
		first = new_node(ps, N_GROUP); /* empty alternative: matches nothing, always */
	}
	return first;
}

/* Alternatives separated by '|': each is a sequence, chained through next_alt. */
static int parse_alts(struct parser *ps)
{
	int first = parse_seq(ps), last = first;

	while (!ps->err && (ps->ere ? *ps->p == '|' : (ps->p[0] == '\\' && ps->p[1] == '|'))) {
		ps->p += ps->ere ? 1 : 2;
		int alt = parse_seq(ps);
		if (alt < 0)
			break;
		ps->re->nodes[last].next_alt = alt;
		last = alt;
	}
	return first;
}

int regex_compile(struct regex **out, const char *pattern, bool ere, bool icase)
{
	struct regex *re = kzalloc(sizeof(*re), GFP_KERNEL);
	struct parser ps = { .re = re, .p = pattern, .ere = ere };

	if (!re)
		return -ENOMEM;
	re->icase = icase;
	re->start = new_node(&ps, N_GROUP);
	re->nodes[re->start].alt = parse_alts(&ps);
	if (!ps.err && *ps.p)
		ps.err = -EINVAL; /* an unmatched ')' */
	if (ps.err) {
		kfree(re);
		return ps.err;
	}
	*out = re;
	return 0;
}

void regex_free(struct regex *re)
{
	kfree(re);
}

/* ---------------------------------------------------------------- matching */

struct cont {
	bool (*fn)(struct regex *re, const struct cont *k, const char *s, int pos);
	int node;  /* seq: node to match next (-1: done); rep: the group */
	int count; /* rep: iterations so far */
	int start; /* rep: where the last iteration started */
	const struct cont *next;
};

static bool match_node(struct regex *re, int id, int count, int start, const char *s, int pos,
		       const struct cont *k);

static bool cont_seq(struct regex *re, const struct cont *k, const char *s, int pos)
{
	if (k->node < 0)
		return k->next ? k->next->fn(re, k->next, s, pos) : true;
	return match_node(re, k->node, 0, pos, s, pos, k->next);
}

static unsigned char fold(struct regex *re, unsigned char c)
{
	return re->icase && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool class_has(const struct node *n, unsigned char c)
{
	return (n->class[c >> 3] >> (c & 7)) & 1;
}

/* Does the single (non-group) atom match the character at pos? */
static bool atom_matches(struct regex *re, const struct node *n, const char *s, int pos)
{
	unsigned char c = (unsigned char)s[pos];

	if (!c)
		return false;
	switch (n->type) {
	case N_CHAR:
		return fold(re, c) == fold(re, n->c);
	case N_ANY:
		return true;
	case N_CLASS:
		return class_has(n, c) ||
		       (re->icase &&
			(class_has(n, fold(re, c)) ||
			 (c >= 'a' && c <= 'z' && class_has(n, (unsigned char)(c - 32)))));
	default:
		return false;
	}
}

/* After one more iteration of a repeated group: again (if it moved on) or the rest. */
static bool cont_rep(struct regex *re, const struct cont *k, const char *s, int pos)
{
	const struct node *n = &re->nodes[k->node];

	if (pos == k->start) {
		/* an empty iteration: repeating it would never end */
		struct cont rest = { .fn = cont_seq, .node = n->next, .next = k->next };
		return k->count >= n->min && cont_seq(re, &rest, s, pos);
	}
	return match_node(re, k->node, k->count, pos, s, pos, k->next);
}

/*
 * Match node id, already matched count times, at pos, then the rest of its sequence and
 * the continuation k. Single atoms repeat in a loop (depth does not grow with the line);
 * groups recurse per iteration, bounded by the depth limit.
 */
static bool match_node(struct regex *re, int id, int count, int start, const char *s, int pos,
		       const struct cont *k)
{
	const struct node *n = &re->nodes[id];
	struct cont rest = { .fn = cont_seq, .node = n->next, .next = k };
	bool found = false;

	if (++re->steps > MAX_STEPS || re->depth >= MAX_DEPTH)
		return false;
	/* a run of plain single atoms is matched in this frame: literals cost no depth */
	while (!count && n->min == 1 && n->max == 1 &&
	       (n->type == N_CHAR || n->type == N_ANY || n->type == N_CLASS)) {
		if (!atom_matches(re, n, s, pos))
			return false;
		pos++;
		if (n->next < 0)
			return k ? k->fn(re, k, s, pos) : true;
		id = n->next;
		n = &re->nodes[id];
		rest.node = n->next;
	}
	re->depth++;
	switch (n->type) {
	case N_BOL:
		found = pos == 0 && cont_seq(re, &rest, s, pos);
		break;
	case N_EOL:
		found = !s[pos] && cont_seq(re, &rest, s, pos);
		break;
	case N_GROUP:
		if (n->alt < 0) { /* the empty sequence */
			found = cont_seq(re, &rest, s, pos);
			break;
		}
		if (n->max < 0 || count < n->max) {
			struct cont again = {
				.fn = cont_rep, .node = id, .count = count + 1, .start = pos, .next = k
			};
			for (int alt = n->alt; alt >= 0 && !found; alt = re->nodes[alt].next_alt) {
				struct cont seq = { .fn = cont_seq, .node = alt, .next = &again };
				found = cont_seq(re, &seq, s, pos);
			}
		}
		if (!found)
			found = count >= n->min && cont_seq(re, &rest, s, pos);
		break;
	default: {
		int avail = 0;
		while ((n->max < 0 || count + avail < n->max) && atom_matches(re, n, s, pos + avail))
			avail++;
		for (int j = avail; j >= 0 && !found; j--)
			found = count + j >= n->min && cont_seq(re, &rest, s, pos + j);
	}
	}
	(void)start;
	re->depth--;
	return found;
}

/* The end of a whole match: remember where it is (regex_search reports it). */
static bool cont_end(struct regex *re, const struct cont *k, const char *s, int pos)
{
	re->match_end = pos;
	return true;
}

bool regex_search(struct regex *re, const char *line, int from, int *so, int *eo)
{
	struct cont end = { .fn = cont_end, .node = -1 };

	for (int start = from;; start++) {
		re->steps = 0;
		re->depth = 0;
		if (match_node(re, re->start, 0, start, line, start, &end)) {
			*so = start;
			*eo = re->match_end;
			return true;
		}
		if (!line[start])
			return false;
		/* ^ anchors at the line start only */
		if (re->nodes[re->nodes[re->start].alt].type == N_BOL &&
		    re->nodes[re->nodes[re->start].alt].next_alt < 0)
			return false;
	}
}

bool regex_match(struct regex *re, const char *line)
{
	int so, eo;

	return regex_search(re, line, 0, &so, &eo);
}
