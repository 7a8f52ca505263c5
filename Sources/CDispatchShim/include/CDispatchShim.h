#ifndef RUNTIMEBENCH_CDISPATCH_SHIM_H
#define RUNTIMEBENCH_CDISPATCH_SHIM_H

// The few libdispatch C entry points Swift cannot call through the CDispatch module: Swift marks
// dispatch_release unavailable ("Can't be used with ARC") and cannot spell the
// DISPATCH_QUEUE_CONCURRENT attribute. Objects are passed as untyped pointers so this header needs
// no libdispatch header (the toolchain keeps those outside the C include path).

/// dispatch_release on any dispatch object (queue, semaphore, group).
void rb_dispatch_release(void *object);

// The rest take dispatch_object_t, a transparent union Swift does not import; the tests that
// check FIFODispatch against libdispatch use them.

/// DISPATCH_QUEUE_CONCURRENT, for dispatch_queue_create.
void *rb_dispatch_concurrent_attribute(void);
/// dispatch_queue_attr_make_with_qos_class(attribute, qos_class, 0).
void *rb_dispatch_attribute_with_qos(void *attribute, unsigned int qos_class);
/// dispatch_get_main_queue().
void *rb_dispatch_main_queue(void);
void rb_dispatch_set_target_queue(void *object, void *queue);
void rb_dispatch_suspend(void *object);
void rb_dispatch_resume(void *object);
void rb_dispatch_set_context(void *object, void *context);
void rb_dispatch_set_finalizer(void *object, void (*finalizer)(void *context));

#endif
