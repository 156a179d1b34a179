# The top of a large RAM range is scrubbed after boot by a thread (pgdatinit0) and only then
# given to the page allocator: the kernel says when, and from then on MemTotal counts it,
# all of it.
guest_script <<'GUEST'
until dmesg | grep -q 'KiB scrubbed and added'; do sleep 0.01; done
echo scrubbed
grep MemTotal /proc/meminfo
poweroff 0
GUEST
run_guest
expect_status 0
expect_line scrubbed
boot_kib=$(grep -a -o 'mem: [0-9]* MiB available, .* [0-9]* KiB deferred' "$LOG" | head -n 1)
deferred_kib=$(sed -n 's/.* \([0-9]*\) KiB deferred$/\1/p' <<< "$boot_kib")
expect_num "KiB deferred at boot" "${deferred_kib:-0}" -gt 0
total_mib=$(grep -a -o 'KiB scrubbed and added, [0-9]* MiB available' "$LOG" | awk '{ print $5 }')
before_mib=$(awk '{ print $2 }' <<< "$boot_kib")
expect_num "MiB available after the scrub" "${total_mib:-0}" -eq $((before_mib + deferred_kib / 1024))
memtotal=$(awk '$1 == "MemTotal:" { print $2 }' "$OUT")
expect_num "MemTotal (kB) after the scrub" "${memtotal:-0}" -ge $((total_mib * 1024))
