/* interface/tensor/tensor_slot.h - upstream PyPTO's framework header, in poolcheck's stub mode: the stand-ins of
 * poolcheck_stub_framework.h (interface/ is a stub root, so this shadow is what the include finds). */
#pragma once
#pragma clang system_header
#include "poolcheck_stub_framework.h"
