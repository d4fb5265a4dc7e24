/* A C target needs a source file: everything is inline in include/CPrefetch.h. */
#include "CPrefetch.h"
