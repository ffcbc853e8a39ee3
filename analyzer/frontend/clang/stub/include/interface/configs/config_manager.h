/* interface/configs/config_manager.h in poolcheck's stub mode: stood in for by poolcheck_tilefwk_stub.h (injected with -include) */
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
