// Counts the process's heap allocations, for the allocs/object figures of the benchmarks.
#ifndef BENCH_MALLOC_COUNTER_H
#define BENCH_MALLOC_COUNTER_H

/// The number of heap allocations the process has made so far, on every thread: calls to malloc,
/// calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc and pvalloc. Frees are not
/// counted. Meaningful only when bench_malloc_counter_is_interposed() returns 1.
unsigned long long bench_malloc_count(void);

/// 1 when the counting allocator is the one the shared libraries of the process call (glibc, and
/// the executable's malloc exported to them), 0 otherwise (then every count is 0 or partial).
int bench_malloc_counter_is_interposed(void);

#endif
