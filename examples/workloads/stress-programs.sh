# make stress: Linux programs beside each other and reclaim, for SECONDS. Three workers, two
# in one group at memory.max 96M, run in turn fio's jobs as processes (4 KiB random writes
# with fsync, psync) and its mmap engine, a program writing a shared mapping and reading it
# back (mmapw), and four processes counting under a process-shared mutex in System V shared
# memory (shm), while the page cache is dropped every half second. Prints
# "stress-programs: N rounds" at the end, "stress-programs: BAD ..." when a program fails.
end=$(( $(date +%s) + SECONDS ))
cg=/sys/fs/cgroup
echo +memory > $cg/cgroup.subtree_control
echo +io > $cg/cgroup.subtree_control
mkdir -p $cg/p1 $cg/p2
echo 96M > $cg/p1/memory.max
# bad WHAT STATUS: one line for a program that failed
bad()
{
	echo "stress-programs: BAD $1 (status $2)"
}
# worker GROUP ID: rounds of programs in GROUP, on files of their own
worker()
{
	r=0
	while [ $(date +%s) -lt $end ]; do
		r=$((r + 1))
		cgexec -g $1 /mnt/bin/fio --name=s$2 --directory=/mnt --size=8M --bs=4k \
			--rw=randwrite --ioengine=psync --fsync=16 --numjobs=2 --minimal > /dev/null ||
			bad "fio psync in $1" $?
		cgexec -g $1 /mnt/bin/fio --name=m$2 --directory=/mnt --size=16M --bs=1M --rw=write \
			--ioengine=mmap --end_fsync=1 --minimal > /dev/null || bad "fio mmap in $1" $?
		cgexec -g $1 /mnt/bin/mmapw write /mnt/w$2 24 > /dev/null || bad "mmapw in $1" $?
		cgexec -g $1 /mnt/bin/shm 4 > /dev/null || bad "shm in $1" $?
		rm -f /mnt/s$2.* /mnt/m$2.* /mnt/w$2
	done
	echo "stress-programs: worker $2 $r rounds"
}
worker p1 1 &
worker p2 2 &
worker p1 3 &
drops=0
while [ $(date +%s) -lt $end ]; do
	echo 3 > /proc/sys/vm/drop_caches
	drops=$((drops + 1))
	sleep 0.5
done
wait
echo "stress-programs: $drops rounds of drop_caches"
