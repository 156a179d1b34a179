/* WARN_ON reporting (portable). panic() is the platform's. */
#include <cgwb/bug.h>
#include <cgwb/printk.h>
#include <cgwb/sched.h>

unsigned long warn_count;

void warn_slowpath(const char *file, int line, const char *cond)
{
	warn_count++;
	printk(KERN_WARNING "WARNING: %s:%d: %s (task %d %s)\n", file, line, cond,
	       current ? current->pid : -1, current ? current->comm : "-");
}
