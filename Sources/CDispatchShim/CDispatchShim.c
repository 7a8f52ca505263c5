#include "CDispatchShim.h"

// Declared here rather than included: dispatch_object_t is a transparent union of object
// pointers, so passing a plain pointer matches the ABI.
extern void dispatch_release(void *object);

void rb_dispatch_release(void *object) { dispatch_release(object); }

extern char _dispatch_queue_attr_concurrent;
extern char _dispatch_main_q;
extern void *dispatch_queue_attr_make_with_qos_class(void *attribute, unsigned int qos_class, int relative_priority);
extern void dispatch_set_target_queue(void *object, void *queue);
extern void dispatch_suspend(void *object);
extern void dispatch_resume(void *object);
extern void dispatch_set_context(void *object, void *context);
extern void dispatch_set_finalizer_f(void *object, void (*finalizer)(void *context));

void *rb_dispatch_concurrent_attribute(void) { return &_dispatch_queue_attr_concurrent; }
void *rb_dispatch_attribute_with_qos(void *attribute, unsigned int qos_class) {
    return dispatch_queue_attr_make_with_qos_class(attribute, qos_class, 0);
}
void *rb_dispatch_main_queue(void) { return &_dispatch_main_q; }
void rb_dispatch_set_target_queue(void *object, void *queue) { dispatch_set_target_queue(object, queue); }
void rb_dispatch_suspend(void *object) { dispatch_suspend(object); }
void rb_dispatch_resume(void *object) { dispatch_resume(object); }
void rb_dispatch_set_context(void *object, void *context) { dispatch_set_context(object, context); }
void rb_dispatch_set_finalizer(void *object, void (*finalizer)(void *context)) { dispatch_set_finalizer_f(object, finalizer); }
