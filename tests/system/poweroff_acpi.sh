# Without QEMU's isa-debug-exit device, poweroff falls back to ACPI soft-off and the run
# script still reports the code from the kernel's "cgwb: poweroff CODE" line.
guest_script <<'GUEST'
echo acpi path
poweroff 5
GUEST
run_guest --no-debug-exit
expect_status 5
expect_line 'acpi path'
