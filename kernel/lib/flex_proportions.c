/* Flexible proportions (portable): see include/cgwb/flex_proportions.h. */
#include <cgwb/flex_proportions.h>
#include <cgwb/spinlock.h>
#include <cgwb/compiler.h>

void fprop_global_init(struct fprop_global *p)
{
	p->events = 1;
	p->period = 0;
	spin_lock_init(&p->lock);
	p->lock.name = "fprop_global";
}

void fprop_local_init(struct fprop_local *pl)
{
	pl->events = 0;
	pl->period = 0;
}

bool fprop_new_period(struct fprop_global *p, int nr)
{
	unsigned long flags;
	bool decayed = false;

	spin_lock_irqsave(&p->lock, flags);
	if (p->events > 1) {
		s64 events = p->events;
		/* subtract what decays, so additions racing with this are kept */
		p->events -= nr >= 63 ? events : events - (events >> nr);
		if (p->events < 1)
			p->events = 1;
		p->period += (unsigned int)nr;
		decayed = true;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return decayed;
}

/* Bring the local counter to the current period. Interrupts off. */
static void fprop_reflect_period(struct fprop_global *p, struct fprop_local *pl)
{
	unsigned int lag = p->period - pl->period;

	if (!lag)
		return;
	pl->events = lag >= 64 ? 0 : pl->events >> lag;
	pl->period = p->period;
}

void fprop_add(struct fprop_global *p, struct fprop_local *pl, long nr)
{
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	fprop_reflect_period(p, pl);
	pl->events += nr;
	p->events += nr;
	spin_unlock_irqrestore(&p->lock, flags);
}

void fprop_fraction(struct fprop_global *p, struct fprop_local *pl, unsigned long *num,
		    unsigned long *den)
{
	unsigned long flags;
	s64 n, d;

	spin_lock_irqsave(&p->lock, flags);
	fprop_reflect_period(p, pl);
	n = pl->events;
	d = p->events;
	spin_unlock_irqrestore(&p->lock, flags);
	if (d <= n)
		d = n ? n : 1;
	*num = (unsigned long)max(n, 0LL);
	*den = (unsigned long)d;
}

void fprop_add_max(struct fprop_global *p, struct fprop_local *pl, unsigned long max_frac, long nr)
{
	if (max_frac < FPROP_FRAC_BASE) {
		unsigned long num, den;
		fprop_fraction(p, pl, &num, &den);
		s64 tmp = (s64)den * (s64)max_frac - ((s64)num << FPROP_FRAC_SHIFT);
		if (tmp < 0)
			return;
		if (tmp < (s64)nr * (s64)(FPROP_FRAC_BASE - max_frac))
			nr = (long)DIV_ROUND_UP((u64)tmp, FPROP_FRAC_BASE - max_frac);
	}
	fprop_add(p, pl, nr);
}
