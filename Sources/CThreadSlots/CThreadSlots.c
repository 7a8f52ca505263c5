// The slot table is static inline in include/CThreadSlots.h, so that each library including it
// keeps a table of its own; SwiftPM needs a source file in every C target.
#include "CThreadSlots.h"
