/* interface/interpreter/calc.h in poolcheck's stub mode: the interpreter API upstream's tests use is in
 * poolcheck_stub_interpreter.h (RawTensorData and ProgramData are in the stub, injected with -include) */
#pragma once
#include "interface/interpreter/poolcheck_stub_interpreter.h"
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
