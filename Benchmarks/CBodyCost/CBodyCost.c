// The spin is in the header (static inline, so Swift can inline it); the fork-join leaf is here,
// out of line, where its alignment can be fixed.
#include "CBodyCost.h"

__attribute__((aligned(64), noinline)) long rb_fib_leaf(long n) {
    return n < 2 ? n : rb_fib_leaf(n - 1) + rb_fib_leaf(n - 2);
}
