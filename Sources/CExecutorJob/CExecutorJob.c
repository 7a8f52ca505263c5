#include "CExecutorJob.h"

__thread rb_executor_job rb_executor_job_slot __attribute__((tls_model("initial-exec"))) = {0, {0, 0}};
