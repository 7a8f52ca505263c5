#include "CFIFODispatch.h"

__thread void *rb_fifo_worker_slot __attribute__((tls_model("initial-exec"))) = 0;
__thread void *rb_fifo_frame_slot __attribute__((tls_model("initial-exec"))) = 0;
__thread void *rb_fifo_handoff_slot __attribute__((tls_model("initial-exec"))) = 0;
