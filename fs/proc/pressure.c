/* /proc/pressure/{io,memory,cpu}: the machine's pressure stall information (kernel/psi.c). */
#include <cgwb/pseudofs.h>
#include <cgwb/psi.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "proc.h"

static int pressure_show(struct seq_buf *s, void *private)
{
	return psi_show(s, &psi_system, (enum psi_res)(unsigned long)private);
}

/* A trigger is taken if Linux would take it; no event follows (no poll() yet). */
static int pressure_store(const char *buf, size_t len, void *private)
{
	struct psi_trigger_spec spec;

	(void)len;
	return psi_trigger_parse(buf, (enum psi_res)(unsigned long)private, &spec);
}

void proc_pressure_init(struct pseudo_node *root)
{
	static const struct {
		const char *name;
		enum psi_res res;
	} files[] = { { "io", PSI_IO }, { "memory", PSI_MEM }, { "cpu", PSI_CPU } };
	struct pseudo_node *dir = pseudo_mkdir(root, "pressure");

	BUG_ON(IS_ERR(dir));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		pseudo_create_file(dir, files[i].name, 0666, pressure_show, pressure_store,
				   (void *)(unsigned long)files[i].res);
}
