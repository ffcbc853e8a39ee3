/* test_machine_common.h - upstream PyPTO's machine unit-test header (framework/tests/ut/machine/
 * include).  Stub mode uses this stand-in whatever the include path reaches (a parse never depends on what the machine has installed): these fallback
 * declarations of the suite's fixture base and hooks keep the machine tests parseable. */
#pragma once
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
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
