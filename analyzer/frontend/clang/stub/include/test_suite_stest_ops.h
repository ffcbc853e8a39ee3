/* test_suite_stest_ops.h - upstream PyPTO's system-test suite header (framework/tests/st/utils/
 * include).  Stub mode always uses this stand-in, whatever the include path reaches (a parse
 * never depends on what the machine has installed): these fallback declarations of the suite
 * fixtures keep the kernels' test files parseable. */
#pragma once
#pragma clang system_header
#include "test_common.h"
namespace npu::tile_fwk::stest {
template <typename TestBase> class TestSuiteBase : public TestBase {
public:
    static void SetUpTestCase();
    static void TearDownTestCase();
    void SetUp() override;
    void TearDown() override;
};
template <typename T> class TestSuite_STest_Ops_Aihac_param : public TestSuiteBase<testing::TestWithParam<T>> {};
class TestSuite_STest_Ops_Aihac : public TestSuiteBase<testing::Test> {};
} // namespace npu::tile_fwk::stest
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
