/* The io controller's interface files (cg/io/): io.max, io.stat, io.weight, io.cost.*. */
#ifndef CGWB_CG_IO_H
#define CGWB_CG_IO_H

#include <cgwb/blk-cgroup.h>
#include <cgwb/pseudofs.h>
#include <cgwb/blk-iocost.h>

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

/* io-conf.c: what the files naming a disk share (Linux's blkcg_conf_open_bdev, sscanf). */
bool io_conf_space(char c);
const char *io_conf_skip_spaces(const char *s);
/* sscanf's "%u": the end of the number, or NULL if there is none (or it overflows). */
const char *io_conf_scan_u64(const char *s, u64 *v);
bool io_conf_scan_u32(const char *s, u32 *v);
/* "MAJ:MIN" and whitespace at *pos: the disk (*pos past them), or ERR_PTR(-EINVAL/-ENODEV). */
struct gendisk *io_conf_open_disk(const char **pos);
int io_conf_next_token(const char **pos, char *tok, size_t size);
/* Linux's cgroup_parse_float(s, 2, v): a number with two decimals, in hundredths. */
int io_conf_parse_hundredths(const char *s, s64 *v);

/* io-weight.c: one io.weight line; disk NULL for the cgroup's default, weight 0 "default". */
struct io_weight_conf {
	struct gendisk *disk;
	u32 weight;
};
int io_weight_parse(const char *buf, struct io_weight_conf *conf);
int blkcg_io_weight_show(struct seq_buf *s, void *private);
int blkcg_io_weight_store(const char *buf, size_t len, void *private);

/* io-cost.c: the keys after "MAJ:MIN", applied onto conf (0 or -EINVAL). */
int io_cost_qos_parse(const char *body, struct ioc_qos_conf *conf);
int io_cost_model_parse(const char *body, struct ioc_model_conf *conf);
int blkcg_io_cost_qos_show(struct seq_buf *s, void *private);
int blkcg_io_cost_qos_store(const char *buf, size_t len, void *private);
int blkcg_io_cost_model_show(struct seq_buf *s, void *private);
int blkcg_io_cost_model_store(const char *buf, size_t len, void *private);

#endif
