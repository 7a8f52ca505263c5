#define _GNU_SOURCE
#include "CThreadInfo.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int rb_thread_id(void) {
    return (int)syscall(SYS_gettid);
}

int rb_thread_set_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}

int rb_thread_get_name(char *buffer, size_t length) {
    return pthread_getname_np(pthread_self(), buffer, length);
}

int rb_thread_is_runnable(int tid) {
    char path[64];
    char text[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return -1;
    text[count] = '\0';
    // "tid (comm) S ...": the name may hold spaces and parentheses, so the state follows the last ')'.
    char *end = strrchr(text, ')');
    if (end == NULL || end[1] != ' ' || end[2] == '\0') return -1;
    return end[2] == 'R' ? 1 : 0;
}
