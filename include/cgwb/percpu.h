/*
 * Per-CPU data. Each CPU has a few hot words (its current task, its preemption count, its
 * number) that it reaches without knowing who it is: in the kernel through the GS segment,
 * whose base each CPU points at its own struct pcpu_hot (as Linux's pcpu_hot), on the host
 * through one plain structure: the words of the virtual CPU executing, which a change of
 * CPU saves and replaces (tests/host/platform/vcpu.c).
 *
 * Everything else per CPU is an array indexed by the CPU's number: DEFINE_PER_CPU(type, name)
 * makes name[NR_CPUS], and per_cpu(name, cpu), per_cpu_ptr(&name, cpu), this_cpu_ptr(&name)
 * reach one CPU's copy with Linux's spelling. A this_cpu_ptr() is only stable while the caller
 * cannot migrate (preemption or interrupts off).
 */
#ifndef CGWB_PERCPU_H
#define CGWB_PERCPU_H

/* struct pcpu_hot's words that the system call entry reads (kernel/arch/entry_64.S) */
#define PCPU_HOT_TOP_OF_STACK 16
#define PCPU_HOT_USER_RSP 24

#ifndef __ASSEMBLER__
#include <cgwb/types.h>
#include <cgwb/compiler.h>

#define NR_CPUS 8

struct task_struct;

struct pcpu_hot {
	struct task_struct *current_task;
	int preempt_count;
	unsigned int cpu_number;
	/* the system call entry's (kernel/arch/entry_64.S reads them at these offsets) */
	unsigned long top_of_stack; /* where a system call from the running program lands */
	unsigned long user_rsp;     /* the program's stack pointer, while the entry saves it */
};

extern struct pcpu_hot pcpu_hot[NR_CPUS];

#ifdef CGWB_KERNEL
#define __pcpu_hot_read(field)                                                       \
	({                                                                           \
		__typeof__(((struct pcpu_hot *)0)->field) __v;                       \
		__asm__ volatile("mov %%gs:%c1, %0"                                  \
				 : "=r"(__v)                                         \
				 : "i"(__builtin_offsetof(struct pcpu_hot, field))); \
		__v;                                                                 \
	})
#define __pcpu_hot_write(field, v)                                                           \
	do {                                                                                 \
		__typeof__(((struct pcpu_hot *)0)->field) __v = (v);                         \
		__asm__ volatile("mov %0, %%gs:%c1"                                          \
				 :                                                           \
				 : "r"(__v), "i"(__builtin_offsetof(struct pcpu_hot, field)) \
				 : "memory");                                                \
	} while (0)
static __always_inline void __preempt_count_add(int n)
{
	__asm__ volatile("addl %1, %%gs:%c0"
			 :
			 : "i"(__builtin_offsetof(struct pcpu_hot, preempt_count)), "ri"(n)
			 : "memory");
}
#else
/* The host: the executing virtual CPU's words (one CPU executes at a time). */
#define __pcpu_hot_read(field) READ_ONCE(pcpu_hot[0].field)
#define __pcpu_hot_write(field, v) WRITE_ONCE(pcpu_hot[0].field, (v))
static inline void __preempt_count_add(int n)
{
	barrier();
	pcpu_hot[0].preempt_count += n;
	barrier();
}
#endif

static __always_inline unsigned int raw_smp_processor_id(void)
{
	return __pcpu_hot_read(cpu_number);
}

static __always_inline struct task_struct *get_current(void)
{
	return __pcpu_hot_read(current_task);
}

#define DEFINE_PER_CPU(type, name) __typeof__(type) name[NR_CPUS]
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name[NR_CPUS]
#define per_cpu(name, cpu) ((name)[cpu])
#define per_cpu_ptr(ptr, cpu) (&(*(ptr))[cpu])
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, raw_smp_processor_id())
/*
 * Add to this CPU's copy, safe against this CPU's interrupt handlers and against a move to
 * another CPU meanwhile (which adds to that CPU's copy: a sum is the same) without turning
 * either off: an atomic add, one instruction, as Linux's this_cpu_add().
 */
#define this_cpu_add(name, n) \
	((void)__atomic_add_fetch(&(name)[raw_smp_processor_id()], (n), __ATOMIC_RELAXED))
#define this_cpu_inc(name) this_cpu_add(name, 1)

#endif /* __ASSEMBLER__ */
#endif
