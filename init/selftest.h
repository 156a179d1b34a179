#ifndef CGWB_KERNEL_SELFTEST_H
#define CGWB_KERNEL_SELFTEST_H

/*
 * Test-only fault triggers, chosen with the cgwb.selftest= boot argument so system tests can
 * check the exception and panic reports: pagefault, ud, gp, divide, panic, bug, warn, hung;
 * and tlb-shootdown, workqueue-pools.
 */
void selftest_run(const char *what);
/* tlb-shootdown (init/selftest-tlb.c): prints "selftest: tlb-shootdown: ok" or what failed */
void selftest_tlb_shootdown(void);
/* workqueue-pools (init/selftest-wq.c): prints "selftest: workqueue-pools: ok" or what failed */
void selftest_workqueue_pools(void);

#endif
