// libpapi's entry points as bench calls them, with known counts: PAPI_TOT_CYC reads 3 and
// PAPI_TOT_INS 2 per nanosecond of the process's CPU time (every thread), so a test can check
// the reading and the per-operation division against task-clock. Any other name does not exist.
#include "PAPIStandIn.h"

#include <string.h>
#include <time.h>

enum { OK = 0, EINVAL_ = -1, ENOEVNT = -7, ENOEVST = -12, ISRUNNING = -10, MAX_EVENTS = 8, MAX_SETS = 4 };

static const struct { const char *name; long long per_nanosecond; } known[] = {{"PAPI_TOT_CYC", 3}, {"PAPI_TOT_INS", 2}};

static struct { int used, running, count; long long factors[MAX_EVENTS]; } sets[MAX_SETS];

static long long process_cpu_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int valid(int set) { return set >= 0 && set < MAX_SETS && sets[set].used; }

int PAPI_library_init(int version) { return version; }

int PAPI_create_eventset(int *set) {
    for (int index = 0; index < MAX_SETS; index++) {
        if (!sets[index].used) {
            sets[index].used = 1;
            *set = index;
            return OK;
        }
    }
    return EINVAL_;
}

int PAPI_assign_eventset_component(int set, int component) { return valid(set) && component == 0 ? OK : EINVAL_; }

int PAPI_set_opt(int option, void *value) {
    (void)value;
    return option == 28 ? OK : EINVAL_;  // PAPI_INHERIT only
}

int PAPI_event_name_to_code(const char *name, int *code) {
    for (int index = 0; index < (int)(sizeof known / sizeof known[0]); index++) {
        if (strcmp(name, known[index].name) == 0) {
            *code = index;
            return OK;
        }
    }
    return ENOEVNT;
}

int PAPI_add_named_event(int set, const char *name) {
    if (!valid(set)) return ENOEVST;
    if (sets[set].running) return ISRUNNING;
    int code;
    if (PAPI_event_name_to_code(name, &code) != OK) return ENOEVNT;
    if (sets[set].count == MAX_EVENTS) return EINVAL_;
    sets[set].factors[sets[set].count++] = known[code].per_nanosecond;
    return OK;
}

int PAPI_start(int set) {
    if (!valid(set)) return ENOEVST;
    sets[set].running = 1;
    return OK;
}

int PAPI_read(int set, long long *values) {
    if (!valid(set) || !sets[set].running) return ENOEVST;
    long long now = process_cpu_nanoseconds();
    for (int index = 0; index < sets[set].count; index++) values[index] = now * sets[set].factors[index];
    return OK;
}

const char *PAPI_strerror(int code) {
    switch (code) {
    case OK: return "No error";
    case ENOEVNT: return "Event does not exist";
    case ENOEVST: return "No such EventSet available";
    case ISRUNNING: return "EventSet is currently counting";
    default: return "Invalid argument";
    }
}
