# Sourced by benchmarks: helpers they share.

# median: of the numbers on standard input, one per line (the mean of the middle two when
# there is an even count)
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The machine a benchmark boots: $SMP CPUs (1 unless set), which scripts/run-qemu and make
# compare's hardware read too, so `SMP=2 scripts/bench/isolation` runs cgwb and its Linux
# reference on two CPUs each. Headers name it; figures go to their own folder.
bench_smp=${SMP:-1}
bench_hw=TCG
[[ $bench_smp -gt 1 ]] && bench_hw="TCG, $bench_smp CPUs"
# bench_dir NAME: build/bench/NAME, or build/bench/NAME-smpN on N > 1 CPUs
bench_dir()
{
	if [[ $bench_smp -gt 1 ]]; then echo "build/bench/$1-smp$bench_smp"; else echo "build/bench/$1"; fi
}
