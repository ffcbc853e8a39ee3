/* interface/operation/operation.h in poolcheck's stub mode: Operation is declared by the stub
 * (poolcheck_stub_internal.h, injected with -include); upstream's header reaches
 * interface/utils/string_utils.h (through attr_holder.h), and with it securec's functions. */
#pragma once
#include "interface/utils/string_utils.h"
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
