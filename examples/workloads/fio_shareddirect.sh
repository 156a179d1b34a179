# fio (Debian's, static, on the disk: scripts/bench/fio puts it there): 4 KiB random direct
# writes (O_DIRECT) into one 64 MiB file (laid out first) by 1 job, then by 4 jobs at once
# (threads), 3 s each: the IOPS of each (fio's terse field 49, the group's sum). Direct
# writers of one file's written blocks go side by side on Linux's ext4 (i_rwsem shared).
/mnt/bin/fio --name=lay --filename=/mnt/fio-shared --size=64M --bs=1M --rw=write --direct=1 \
	--minimal > /dev/null
for n in 1 4; do
	/mnt/bin/fio --name=rw --filename=/mnt/fio-shared --size=64M --bs=4k --rw=randwrite \
		--direct=1 --ioengine=psync --numjobs=$n --thread --group_reporting --runtime=3 \
		--time_based --minimal > /tmp/fio.out
	echo "RESULT shared${n}_iops=$(cut -d ';' -f 49 /tmp/fio.out)"
done
