/* The io controller's interface files (cg/io/): io.max, io.stat, and their parsing. */
#ifndef CGWB_CG_IO_H
#define CGWB_CG_IO_H

#include <cgwb/blk-cgroup.h>
#include <cgwb/pseudofs.h>

/* One parsed io.max line: its disk, and which limits it sets to what. */
struct io_max_conf {
	unsigned int major, minor;
	struct blkcg_limits lim; /* U64_MAX: "max" */
};
/* 0, -EINVAL (malformed, unknown key) or -ERANGE (a 0), as Linux answers. */
int io_max_parse(const char *buf, struct io_max_conf *conf);
int blkcg_io_max_show(struct seq_buf *s, void *private);
int blkcg_io_max_store(const char *buf, size_t len, void *private);
int blkcg_io_stat_show(struct seq_buf *s, void *private);

#endif
