#ifndef RUNTIMEBENCH_INTERPOSER_H
#define RUNTIMEBENCH_INTERPOSER_H

#include <stddef.h>
#include <stdint.h>

// The call counter a child preloads (LD_PRELOAD) when a run counts allocations: malloc's family
// and the Swift runtime's retain, release and object allocation, counted on every thread, then
// passed on to the next definition (glibc's or a preloaded jemalloc's malloc, libswiftCore's
// retain). Nothing links this library: the child finds `rb_interposer_read` with dlsym, so the
// bench executable never defines malloc itself.

/// What is counted, in the order `rb_interposer_read` writes the totals.
enum {
    RB_COUNT_MALLOCS = 0,         // malloc, calloc, realloc that allocates, posix_memalign, aligned_alloc, memalign, valloc, pvalloc
    RB_COUNT_FREES = 1,           // free of a non-null pointer, realloc that frees
    RB_COUNT_BYTES = 2,           // bytes requested by those allocations
    RB_COUNT_RETAINS = 3,         // swift_retain (+n for swift_retain_n) of a non-null object
    RB_COUNT_RELEASES = 4,        // swift_release (+n for swift_release_n) of a non-null object
    RB_COUNT_OBJECTS = 5,         // swift_allocObject
    RB_COUNT_KINDS = 6,
};

/// The version of this interface; the reader refuses any other.
#define RB_INTERPOSER_VERSION 1
uint32_t rb_interposer_version(void);

/// Writes each kind's total over every thread that ever ran, exited ones included, into
/// `totals[0..<RB_COUNT_KINDS]`. Never allocates. Totals only grow: use differences.
void rb_interposer_read(uint64_t *totals);

#endif
