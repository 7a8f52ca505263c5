#include "CDispatchShim.h"

// Declared here rather than included: dispatch_object_t is a transparent union of object
// pointers, so passing a plain pointer matches the ABI.
extern void dispatch_release(void *object);

void rb_dispatch_release(void *object) { dispatch_release(object); }
