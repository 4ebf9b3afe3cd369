// A counting front for glibc's allocator.
//
// The executable defines malloc and its siblings. The dynamic linker binds every shared library's
// calls (libswiftCore's swift_slowAlloc, Foundation, libsqlite3, GRDB, glibc's own strdup …) to the
// first definition in search order, which is the executable's, so each allocation of the process
// passes through here. Each entry point adds one to a relaxed atomic counter (one `lock xadd`, a few
// nanoseconds beside the allocation itself) and forwards to glibc's allocator under the names glibc
// exports for it (__libc_malloc …).
//
// Why not the alternatives: glibc 2.34 removed __malloc_hook; mallinfo2() reports bytes in use,
// not how many allocations were made, and walks the arenas; dlsym(RTLD_NEXT, "malloc") allocates
// itself on first use (calloc for its error state), which needs a bootstrap heap and a recursion
// guard. Forwarding to __libc_* needs neither, and leaves free(), malloc_usable_size() and
// malloc_trim() to glibc, which owns every block.
#include "BenchMallocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GLIBC__)  // defined by the C library's headers above

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic unsigned long long allocation_count;

static inline void count_allocation(void) {
    atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

// A realloc counts as one allocation whether or not it moves the block.
void *realloc(void *pointer, size_t size) {
    count_allocation();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

// glibc's aligned_alloc is its memalign (the same function under two names).
void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

// POSIX: the alignment must be a power of two multiple of sizeof(void *), else EINVAL; ENOMEM when
// memory runs out; *result is untouched on failure.
int posix_memalign(void **result, size_t alignment, size_t size) {
    size_t words = alignment / sizeof(void *);
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (words & (words - 1)) != 0) {
        return EINVAL;
    }
    count_allocation();
    void *block = __libc_memalign(alignment, size);
    if (block == NULL) {
        return ENOMEM;
    }
    *result = block;
    return 0;
}

void *valloc(size_t size) {
    count_allocation();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count_allocation();
    return __libc_pvalloc(size);
}

unsigned long long bench_malloc_count(void) {
    return atomic_load_explicit(&allocation_count, memory_order_relaxed);
}

// strdup allocates inside libc.so: the count moves only if libc's own call reached the malloc above.
// The call goes through a volatile pointer so that the compiler cannot expand it into a local
// malloc, which would bind to this file's definition whatever the dynamic linker does.
int bench_malloc_counter_is_interposed(void) {
    char *(*volatile duplicate)(const char *) = strdup;
    unsigned long long before = bench_malloc_count();
    char *copy = duplicate("probe");
    unsigned long long after = bench_malloc_count();
    free(copy);
    return after > before;
}

#else

unsigned long long bench_malloc_count(void) {
    return 0;
}

int bench_malloc_counter_is_interposed(void) {
    return 0;
}

#endif
