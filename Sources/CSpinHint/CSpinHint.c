// The hint is inline in the header; SwiftPM wants a C target to have a source file.
#include "CSpinHint.h"
