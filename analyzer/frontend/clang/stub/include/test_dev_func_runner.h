/* test_dev_func_runner.h - upstream PyPTO's on-board test runner (framework/tests/st/utils/
 * include).  Stub mode uses this stand-in whatever the include path reaches (a parse never depends on what the machine has installed): this fallback
 * declaration of the runner the tests call keeps their files parseable. */
#pragma once
#pragma clang system_header
using namespace npu::tile_fwk::dynamic;
namespace npu::tile_fwk {
class DevFuncRunner : public dynamic::DeviceLauncher {
public:
    static void Run(Function *function, const std::vector<RawTensorDataPtr> &inputs,
                    const std::vector<RawTensorDataPtr> &outputs,
                    const dynamic::DeviceLauncherConfig &config = dynamic::DeviceLauncherConfig());
    static void Run(Function *function, const dynamic::DeviceLauncherConfig &config = dynamic::DeviceLauncherConfig());
};
} // namespace npu::tile_fwk
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
