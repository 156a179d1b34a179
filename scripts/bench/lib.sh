# Sourced by benchmarks: helpers they share.

# median: of the numbers on standard input, one per line (the mean of the middle two when
# there is an even count); nothing for no numbers, which tables print as "-", not as 0
median()
{
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The machine a benchmark boots: $SMP CPUs (1 unless set), which scripts/run-qemu and make
# compare's hardware read too, so `SMP=2 scripts/bench/isolation` runs cgwb and its Linux
# reference on two CPUs each. Headers name it; figures go to their own folder.
bench_smp=${SMP:-1}
bench_hw=TCG
[[ $bench_smp -gt 1 ]] && bench_hw="TCG, $bench_smp CPUs"
# The disk's filesystem: ext2, or FS=ext4 [FS_OPTS=...] [FS_MKFS=ext3] (scripts/compare/disk.sh), on cgwb's
# disk and, exported, on the Linux reference's; headers name it when it is not ext2.
source scripts/compare/disk.sh
export FS FS_OPTS FS_MKFS
[[ $FS == ext2 && -z $FS_OPTS ]] || bench_hw="$bench_hw, $(fs_label)"
# bench_dir NAME: build/bench/NAME, with -smpN on N > 1 CPUs, -ext4[-OPTIONS] on ext4
bench_dir()
{
	local d=build/bench/$1
	[[ $bench_smp -gt 1 ]] && d=$d-smp$bench_smp
	[[ $FS_MKFS != "$FS" ]] && d=$d-$FS_MKFS-image
	[[ $FS == ext2 && -z $FS_OPTS ]] || d=$d-$FS${FS_OPTS:+-${FS_OPTS//[=,]/-}}
	echo "$d"
}
