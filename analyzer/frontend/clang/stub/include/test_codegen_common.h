/* test_codegen_common.h - upstream PyPTO's codegen unit-test fixtures (framework/tests/ut/codegen/
 * include, on the suite's -I list).  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these fallback declarations of the fixture classes and the function-name suffixes
 * the tests use keep their files parseable. */
#pragma once
#pragma clang system_header
namespace npu {
namespace tile_fwk {
/* what a kernel's function is called after expansion: FUNCTION_PREFIX + name + these */
const std::string SUB_FUNC_SUFFIX = "_Unroll1_PATH0";
const std::string HIDDEN_FUNC_SUFFIX = "_hiddenfunc0";
constexpr int DummyFuncMagic = 1;

/* what a fixture sets up (designated initializers name these fields, in this order) */
struct CodegenTestConfig {
    bool enableCostModel = false;
    int64_t compileStage = 0;
    bool buildStatic = false;
    bool setTileTensor = false;
    bool tileTensorValue = false;
    bool setIdGen = false;
    bool resetTileTensorOnTearDown = false;
    bool setSocVersion = false;
    std::string socVersionValue;
    bool resetSocVersionOnTearDown = false;
};

class CodegenTestBase : public ::testing::Test {
public:
    explicit CodegenTestBase(CodegenTestConfig config = {});
    static void SetUpTestCase();
    static void TearDownTestCase();
    void SetUp() override;
    void TearDown() override;

protected:
    CodegenTestConfig config_;
};

class CodegenTestLiteNPU : public ::testing::Test {
public:
    CodegenTestLiteNPU(std::string socVersion);
    static void SetUpTestCase();
    static void TearDownTestCase();
    void SetUp() override;
    void TearDown() override;
};
} // namespace tile_fwk
} // namespace npu
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
