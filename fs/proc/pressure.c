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

void proc_pressure_init(struct pseudo_node *root)
{
	static const struct {
		const char *name;
		enum psi_res res;
	} files[] = { { "io", PSI_IO }, { "memory", PSI_MEM }, { "cpu", PSI_CPU } };
	struct pseudo_node *dir = pseudo_mkdir(root, "pressure");

	BUG_ON(IS_ERR(dir));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		pseudo_create_file(dir, files[i].name, 0444, pressure_show, NULL,
				   (void *)(unsigned long)files[i].res);
}
