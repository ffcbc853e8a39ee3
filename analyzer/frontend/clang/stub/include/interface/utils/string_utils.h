/* interface/utils/string_utils.h in poolcheck's stub mode: StringUtils is declared by the stub
 * (poolcheck_stub_internal.h, injected with -include); like upstream's, this header brings securec's
 * memcpy_s / memset_s ... (securec.h), which files that include an operation or interpreter header
 * get through it. */
#pragma once
#include <securec.h>
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
