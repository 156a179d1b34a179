# Limits give an error, never a silent cut: a command substitution over an eighth of the
# memory (8 MiB of 64) fails, one of 4 MiB fits and its variable holds it whole, a typed
# line over 4095 characters is refused whole, truncate and dd name the step that failed.
mke2fs -q -F -t ext2 "$T/disk.img" 16M > /dev/null 2>&1 || fail "mke2fs"
long=$(printf 'A%.0s' $(seq 1 5000))
start_guest --no-script --disk "$T/disk.img" --memory 64M
await_prompt
send 'x=$(head -c 9000000 /dev/zero | tr "\\0" a); echo subst-rc=$? len=${#x}\r' # over
await_line 'subst-rc=2 len=0'
await_prompt
send 'x=$(head -c 4194304 /dev/zero | tr "\\0" a); echo subst-rc=$? len=${#x}\r' # fits
await_line 'subst-rc=0 len=4194304'
await_prompt
send 'y="$x$x"; echo twice=${#y}\r'
await_line 'twice=8388608'
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
