# Sourced by benchmarks: helpers they share.

# median: of the numbers on standard input, one per line (the mean of the middle two when
# there is an even count)
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
