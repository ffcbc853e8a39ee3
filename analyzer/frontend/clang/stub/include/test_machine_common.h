/* test_machine_common.h - upstream PyPTO's machine unit-test header (framework/tests/ut/machine/
 * include).  The real one is used when the include path reaches it; without it, these fallback
 * declarations of the suite's fixture base and hooks keep the machine tests parseable. */
#pragma once
#if __has_include_next("test_machine_common.h")
#include_next "test_machine_common.h"
#else
#pragma clang system_header
#include <gtest/gtest.h>
using namespace npu::tile_fwk;
using namespace npu::tile_fwk::dynamic;
class UnitTestBase : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
};
extern "C" int PyptoKernelCtrlServerRegisterTaskInspector(DeviceTaskInspectorEntry inspectorEntry, void *inspector);
#endif
