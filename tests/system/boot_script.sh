# A boot script passed through fw_cfg runs before the prompt; extra kernel arguments
# given at run time (fw_cfg cmdline) reach the kernel without rebuilding the ISO.
guest_script <<'GUEST'
echo script line one
# a comment line
echo script line two
poweroff 0
GUEST
run_guest --append "loglevel=7 cgwb.marker=xyzzy"
expect_status 0
expect_line 'script line one'
expect_line 'script line two'
expect_no_output 'a comment line'
expect_log 'cmdline: .*cgwb.marker=xyzzy'
