# Forms people type from Linux and coreutils/busybox habit: tail -20 and head -2 (the old
# count form), ls -i (inode numbers, as stat gives them), sha256sum -c (OK, FAILED,
# unreadable, coreutils' warnings and statuses), dd bs=16M when memory allows (and a clear
# message when it does not), echo 2 > tracing_on (any non-zero), set_event (>, >>, !name).
PATH=$PATH:/usr/sbin:/sbin
mke2fs -q -F -t ext2 "$T/disk.img" 128M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
cd /tmp
seq 1 30 > n
echo tail: $(tail -20 n | head -1) $(tail -20 n | wc -l) $(tail -3 n)
echo head: $(head -2 n)
echo x > f1
echo ls: $(ls -i f1)
echo stat: $(stat -c %i f1)
ls -i /mnt
ls -il /mnt | grep lost
printf 'hello\n' > a
printf 'world\n' > b
sha256sum a b > sums
sha256sum -c sums
echo check=$?
echo changed >> b
sha256sum -c sums
echo mismatch=$?
sha256sum -c --quiet sums
echo quiet=$?
sha256sum -c --status sums
echo status=$?
echo garbage >> sums
rm a
sha256sum -c sums
echo unreadable=$?
echo nothing > bad
sha256sum -c bad
echo none=$?
dd if=/dev/zero of=/mnt/big bs=16M count=2
echo dd=$?
echo size: $(stat -c %s /mnt/big)
dd if=/mnt/big of=/dev/null bs=16M
echo ddread=$?
dd if=/dev/zero of=/dev/null bs=1G count=1
echo ddhuge=$?
cd /sys/kernel/tracing
echo 0 > tracing_on
echo on: $(cat tracing_on)
echo 2 > tracing_on
echo on: $(cat tracing_on)
echo writeback:balance_dirty_pages > set_event
echo writeback_start >> set_event
echo set: $(cat set_event)
echo '!writeback:balance_dirty_pages' >> set_event
echo set: $(cat set_event)
echo enable: $(cat events/writeback/balance_dirty_pages/enable) $(cat events/writeback/writeback_start/enable)
echo writeback:no_such_event >> set_event
echo bad=$?
echo > set_event
echo set: $(cat set_event) end
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 120
expect_status 0
expect_line 'tail: 11 20 28 29 30'
expect_line 'head: 1 2'
ino=$(output_value stat:)
expect_num "stat's inode number" "$ino" -gt 0
expect_line "ls: $ino f1"
# ext2's root directory: lost+found is inode 11, right-aligned in 7 columns as busybox does
expect_line '     11 lost+found'
expect_output '^     11 drwx------ 2 root root +12288 .* lost\+found$'
expect_line 'a: OK'
expect_line 'b: OK'
expect_line 'check=0'
expect_line 'b: FAILED'
expect_line 'sha256sum: WARNING: 1 computed checksum did NOT match'
expect_line 'mismatch=1'
expect_line 'quiet=1'
expect_line 'status=1'
expect_count 2 '^a: OK$'
expect_count 3 '^b: FAILED$'
expect_line 'sha256sum: a: No such file or directory'
expect_line 'a: FAILED open or read'
expect_line 'sha256sum: WARNING: 1 line is improperly formatted'
expect_line 'sha256sum: WARNING: 1 listed file could not be read'
expect_line 'unreadable=1'
expect_line 'sha256sum: bad: no properly formatted checksum lines found'
expect_line 'none=1'
expect_count 4 '^2\+0 records (in|out)$'
expect_count 2 '^33554432 bytes \(34 MB, 32 MiB\) copied, '
expect_line 'dd=0'
expect_line 'size: 33554432'
expect_line 'ddread=0'
expect_line 'dd: memory exhausted by input buffer of size 1073741824 bytes (1.0 GiB)'
expect_line 'ddhuge=1'
expect_count 2 '^on: '
expect_line 'on: 0'
expect_line 'on: 1'
expect_line 'set: writeback:balance_dirty_pages writeback:writeback_start'
expect_line 'set: writeback:writeback_start'
expect_line 'enable: 0 1'
expect_output '^echo: .*Invalid argument'
expect_line 'bad=1'
expect_line 'set: end'
