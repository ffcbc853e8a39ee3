/* distributed_op_test_common.h - upstream PyPTO's distributed system-test helpers
 * (framework/tests/st/distributed/ops/include).  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these fallback declarations of the helpers the tests call (the case
 * parameters read from a file, golden data, the run on the device) keep their files parseable. */
#pragma once
#pragma clang system_header
#include "test_common.h"
#include "distributed_op_test_suite.h"
#include "test_dev_func_runner.h"
namespace npu::tile_fwk::Distributed {
template <size_t N, typename SrcT = int64_t, typename DstT = int32_t>
std::array<DstT, N> GetParams(const std::string &filePath);
DataType GetDataTypeNum(const int64_t typeNum);
template <typename T> std::vector<T> ReadToVector(const std::string &filePath, const std::vector<int64_t> &shape);
template <typename PtrType>
bool CompareWithGolden(const DataType dType, const std::string &goldenFilename, const uint64_t outSize,
                       const PtrType &outPtrs, const OpTestParam &testParam, float threshold = 0.001f);
void RunTest();
enum class WinType : uint32_t { WIN_EXP, WIN_OUT, WIN_IN };
class HcclWin {
public:
    HcclWin(uint64_t addr);
    template <typename T> std::vector<T> GetWinValue(WinType winType, size_t count = 0UL, size_t offset = 0UL);
};
std::vector<uint64_t> GetHcclContext(const std::vector<std::string> &groupNames);
} // namespace npu::tile_fwk::Distributed
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
