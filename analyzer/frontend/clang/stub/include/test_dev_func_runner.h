/* test_dev_func_runner.h - upstream PyPTO's on-board test runner (framework/tests/st/utils/
 * include).  The real one is used when the include path reaches it; without it, this fallback
 * declaration of the runner the tests call keeps their files parseable. */
#pragma once
#if __has_include_next("test_dev_func_runner.h")
#include_next "test_dev_func_runner.h"
#else
#pragma clang system_header
namespace npu::tile_fwk::dynamic {
class DevFuncRunner {
public:
    static void Run(Function *function);
    template <class... A> static void Run(Function *function, const A &...rest);
};
} // namespace npu::tile_fwk::dynamic
using namespace npu::tile_fwk::dynamic;
#endif
