/*
 * vsnprintf for the kernel: the C99 conversions the code uses (d i u x X o c s p %), with
 * flags (- 0 + space #), width and precision (numbers or *), and length modifiers
 * (hh h l ll z t j). Returns the length the full output would have, like C99.
 */
#include <cgwb/string.h>

struct out {
	char *buf;
	size_t size, pos;
};

static void put(struct out *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

struct spec {
	bool left, zero, plus, space, alt;
	int width, prec;
};

static void put_number(struct out *o, unsigned long long v, bool neg, unsigned int base, bool upper,
		       const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;
	char sign = neg ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;
	const char *prefix = "";

	if (sp->alt && v) {
		if (base == 16)
			prefix = upper ? "0X" : "0x";
		else if (base == 8)
			prefix = "0";
	}
	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (sp->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;

	int digits_len = n > sp->prec ? n : sp->prec;
	int total = digits_len + (sign ? 1 : 0) + (int)strlen(prefix);
	int fill = sp->width - total;

	if (!sp->left && !(sp->zero && sp->prec < 0))
		pad(o, ' ', fill);
	if (sign)
		put(o, sign);
	for (const char *p = prefix; *p; p++)
		put(o, *p);
	if (!sp->left && sp->zero && sp->prec < 0)
		pad(o, '0', fill);
	pad(o, '0', digits_len - n);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', fill);
}

static void put_string(struct out *o, const char *s, const struct spec *sp)
{
	if (!s)
		s = "(null)";
	int len = (int)strnlen(s, sp->prec >= 0 ? (size_t)sp->prec : (size_t)-1);

	if (!sp->left)
		pad(o, ' ', sp->width - len);
	for (int i = 0; i < len; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, ' ', sp->width - len);
}

static int parse_int(const char **fmt)
{
	int v = 0;
	while (**fmt >= '0' && **fmt <= '9')
		v = v * 10 + (*(*fmt)++ - '0');
	return v;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		struct spec sp = { .prec = -1 };
		for (bool more = true; more;) {
			switch (*++fmt) {
			case '-':
				sp.left = true;
				break;
			case '0':
				sp.zero = true;
				break;
			case '+':
				sp.plus = true;
				break;
			case ' ':
				sp.space = true;
				break;
			case '#':
				sp.alt = true;
				break;
			default:
				more = false;
			}
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			sp.width = parse_int(&fmt);
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				sp.prec = va_arg(ap, int);
				fmt++;
			} else {
				sp.prec = parse_int(&fmt);
			}
		}
		int lng = 0; /* -2 hh, -1 h, 1 l, 2 ll, 3 z/t/j */
		for (bool more = true; more;) {
			switch (*fmt) {
			case 'h':
				lng = lng == -1 ? -2 : -1;
				fmt++;
				break;
			case 'l':
				lng = lng == 1 ? 2 : 1;
				fmt++;
				break;
			case 'z':
			case 't':
			case 'j':
				lng = 3;
				fmt++;
				break;
			default:
				more = false;
			}
		}
		unsigned long long u;
		long long s;
		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng >= 1)
				s = lng == 1 ? va_arg(ap, long) : va_arg(ap, long long);
			else
				s = va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng == -2)
				s = (signed char)s;
			put_number(&o, s < 0 ? 0ULL - (unsigned long long)s : (unsigned long long)s,
				   s < 0, 10, false, &sp);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng >= 1)
				u = lng == 1 ? va_arg(ap, unsigned long) :
					       va_arg(ap, unsigned long long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng == -2)
				u = (unsigned char)u;
			put_number(&o, u, false,
				   *fmt == 'u' ? 10 :
				   *fmt == 'o' ? 8 :
						 16,
				   *fmt == 'X', &sp);
			break;
		case 'p':
			sp.alt = true;
			put_number(&o, (uintptr_t)va_arg(ap, void *), false, 16, false, &sp);
			break;
		case 'c':
			if (!sp.left)
				pad(&o, ' ', sp.width - 1);
			put(&o, (char)va_arg(ap, int));
			if (sp.left)
				pad(&o, ' ', sp.width - 1);
			break;
		case 's':
			put_string(&o, va_arg(ap, const char *), &sp);
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
		}
	}
	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return (int)o.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return r;
}
