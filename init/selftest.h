#ifndef CGWB_KERNEL_SELFTEST_H
#define CGWB_KERNEL_SELFTEST_H

/*
 * Test-only fault triggers, chosen with the cgwb.selftest= boot argument so system tests can
 * check the exception and panic reports: pagefault, ud, gp, divide, panic, bug, warn.
 */
void selftest_run(const char *what);

#endif
