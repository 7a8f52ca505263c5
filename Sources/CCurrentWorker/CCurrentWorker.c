#include "CCurrentWorker.h"

__thread void *rb_current_worker_slot __attribute__((tls_model("initial-exec"))) = 0;
