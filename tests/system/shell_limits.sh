# Limits give an error, never a silent cut: a command substitution over 1 MiB fails, a typed
# line over 4095 characters is refused whole, truncate and dd name the step that failed.
mke2fs -q -F -t ext2 "$T/disk.img" 16M > /dev/null 2>&1 || fail "mke2fs"
long=$(printf 'A%.0s' $(seq 1 5000))
start_guest --no-script --disk "$T/disk.img"
await_prompt
send 'x=$(seq 1 200000); echo subst-rc=$? len=${#x}\r' # 1.3 MB: over the 1 MiB bound
await_line 'subst-rc=2 len=0'
await_prompt
send 'x=$(seq 1 100000); echo subst-rc=$? len=${#x}\r' # 589 KB: fits
await_line 'subst-rc=0 len=588894'
await_prompt
send "echo $long\r"
await_text 'line too long'
await_prompt
send 'echo line-rc=$?\r'
await_line 'line-rc=2'
await_prompt
send 'truncate -s 99999999999999 /mnt/huge; echo truncate-rc=$?\r'
await_line 'truncate-rc=1'
await_prompt
send 'dd if=/dev/vda of=/dev/null bs=1M skip=100 count=1; echo skip-rc=$?\r'
await_line 'skip-rc=1'
await_prompt
send 'dd if=/dev/zero of=/dev/vda bs=1M seek=100 count=1; echo seek-rc=$?\r'
await_line 'seek-rc=1'
await_prompt
send 'poweroff 0\r'
finish_guest
expect_status 0
expect_output '^cgwb: .*command substitution failed: File too large'
expect_output 'line too long \(more than 4095 characters\): not run'
expect_no_output '^AAAAAAAAAA'
expect_line "truncate: failed to truncate '/mnt/huge' at 99999999999999 bytes: File too large"
expect_line "dd: '/dev/vda': cannot skip: Invalid argument"
expect_line "dd: '/dev/vda': cannot seek: Invalid argument"
