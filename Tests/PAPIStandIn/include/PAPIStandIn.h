#ifndef RUNTIMEBENCH_PAPI_STAND_IN_H
#define RUNTIMEBENCH_PAPI_STAND_IN_H
// A stand-in for libpapi with known counts, loaded by bench through RUNTIMEBENCH_PAPI_LIBRARY in
// the tests: this machine has no PMU, so real PAPI counts nothing here. Same entry points as
// papi.h for what bench calls; nothing includes this header.
#endif
