/* machine/utils/dynamic/dev_encode.h (PyPTO framework/src) in poolcheck's stub mode: stood in for,
 * like the framework's other internal headers (kernel tests include it for device encodings) */
#pragma once
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
