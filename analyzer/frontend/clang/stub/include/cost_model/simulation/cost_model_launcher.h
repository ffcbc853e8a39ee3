/* cost_model/simulation/cost_model_launcher.h (PyPTO framework/src) in poolcheck's stub mode:
 * stood in for, like the framework's other internal headers; declares what tests call. */
#pragma once
#pragma clang system_header
namespace npu::tile_fwk::dynamic {
class CostModelLauncher {
public:
    static void CostModelRunOnce(Function *function, const std::vector<RawTensorDataPtr> &inputs,
                                 const std::vector<RawTensorDataPtr> &outputs,
                                 const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static void CostModelRunOnce(Function *function, const DeviceLauncherConfig &config = DeviceLauncherConfig());
};
} // namespace npu::tile_fwk::dynamic
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
