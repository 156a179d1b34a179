# Workqueue pools on two CPUs: a bound workqueue runs a work on the CPU it was queued on, a
# work running on one CPU and queued on the other runs again behind itself there, and an
# unbound workqueue's workers may run anywhere (init/selftest-wq.c).
guest_script <<'GUEST'
echo pools-checked
poweroff 0
GUEST
run_guest --smp 2 --append cgwb.selftest=workqueue-pools
expect_status 0
expect_line 'pools-checked'
expect_log 'selftest: workqueue-pools: ok'
