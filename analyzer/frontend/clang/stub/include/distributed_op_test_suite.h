/* distributed_op_test_suite.h - upstream PyPTO's distributed system-test suite header
 * (framework/tests/st/distributed/ops/include).  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these fallback declarations of the test parameters and the test entry
 * points keep the distributed kernels' files parseable. */
#pragma once
#pragma clang system_header
namespace npu::tile_fwk::Distributed {
struct OpTestParam {
    char group[128]{0};
    int rankSize;
    int rankId;
    int worldRankId;
};
void TestAllGatherAttentionPostReducescatter(OpTestParam &testParam, std::string &goldenDir);
template <typename T> void TestAllGather(OpTestParam &testParam, std::string &goldenDir);
template <typename T> void TestReduceScatter(OpTestParam &testParam, std::string &goldenDir);
template <typename T> void TestAllReduce(OpTestParam &testParam, std::string &goldenDir);
template <typename T> void TestAllReduceAddAllReduce(OpTestParam &testParam, std::string &goldenDir);
template <typename T> void Test2GroupsAllGather(OpTestParam &testParam, std::string &goldenDir);
} // namespace npu::tile_fwk::Distributed
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
