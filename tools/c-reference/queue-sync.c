// Reference for queue-vs-lock's uncontended cases (one thread, empty critical section) on
// libdispatch's C API: a critical section as dispatch_sync_f on a serial queue, and as a pthread
// mutex lock + unlock, timed the way the harness times a case (sampling.h). An idle global-queue
// worker exists, as in the harness's child, so glibc takes its multi-threaded paths.
// Build (from the repository root):
//   clang -O2 -I/opt/swift/usr/lib/swift tools/c-reference/queue-sync.c -o /tmp/queue-sync \
//     -L/opt/swift/usr/lib/swift/linux -ldispatch -lBlocksRuntime -Wl,-rpath,/opt/swift/usr/lib/swift/linux
#include <dispatch/dispatch.h>
#include <pthread.h>
#include <stdio.h>
#include "sampling.h"

static dispatch_queue_t queue;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void section(void *context) { (void)context; counter++; }

static void run_queue_sync(long n) {
    for (long i = 0; i < n; i++) dispatch_sync_f(queue, NULL, section);
}

static void run_mutex(long n) {
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&mutex);
        counter++;
        pthread_mutex_unlock(&mutex);
    }
}

static void nothing(void *context) { (void)context; }

int main(void) {
    queue = dispatch_queue_create("queue-vs-lock", NULL);
    dispatch_sync_f(dispatch_get_global_queue(0, 0), NULL, nothing);
    dispatch_async_f(dispatch_get_global_queue(0, 0), NULL, nothing);  // a worker thread now exists
    printf("dispatch_sync_f, serial queue: %.1f ns per section\n", median_ns_per_operation(run_queue_sync));
    printf("pthread mutex lock + unlock:   %.1f ns per section\n", median_ns_per_operation(run_mutex));
    return counter > 0 ? 0 : 1;
}
