#ifndef RUNTIMEBENCH_CDISPATCH_SHIM_H
#define RUNTIMEBENCH_CDISPATCH_SHIM_H

// The few libdispatch C entry points Swift cannot call through the CDispatch module: Swift marks
// dispatch_release unavailable ("Can't be used with ARC") and cannot spell the
// DISPATCH_QUEUE_CONCURRENT attribute. Objects are passed as untyped pointers so this header needs
// no libdispatch header (the toolchain keeps those outside the C include path).

/// dispatch_release on any dispatch object (queue, semaphore, group).
void rb_dispatch_release(void *object);

#endif
