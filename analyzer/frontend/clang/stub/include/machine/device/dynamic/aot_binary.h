/* machine/device/dynamic/aot_binary.h (PyPTO framework/src) in poolcheck's stub mode: stood in for,
 * like the framework's other internal headers; the pool size tests size their runs with. */
#pragma once
#pragma clang system_header
#define AOT_CODE_POOL_NUM 16
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
