// Everything is in the header (static inline, so Swift can inline the spin); SwiftPM needs one
// source file to build a C target.
#include "CBodyCost.h"
