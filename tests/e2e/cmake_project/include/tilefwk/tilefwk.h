// Stands in for CANN PyPTO's tilefwk/tilefwk.h, which this test machine does not have: the
// declaration-only stub poolcheck installs (share/poolcheck/stub, poolcheck_STUB_DIR).  A real
// project has PyPTO's include directory here instead.
#include "poolcheck_tilefwk_stub.h"
