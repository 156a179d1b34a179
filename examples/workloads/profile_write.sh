# Where a buffered write's CPU goes (boot with profile=2): 128 MiB written by dd into a
# fresh file after a 16 MiB warm-up, then sync; the kernel profile's top 30 functions and
# the total, idle included (cpu_idle_loop). docs/results/byte-cost.md reads it per MiB.
[ -e /mnt/lost+found ] || mount /dev/vda /mnt 2> /dev/null
dd if=/dev/zero of=/mnt/warm bs=1M count=16 2> /dev/null
rm /mnt/warm
sync
echo > /proc/profile
dd if=/dev/zero of=/mnt/f bs=1M count=${PROFILE_MB:-128}
sync
cat /proc/profile > /tmp/profile
head -n 30 /tmp/profile
tail -n 1 /tmp/profile
