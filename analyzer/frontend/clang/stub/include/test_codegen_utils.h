/* test_codegen_utils.h - upstream PyPTO's codegen unit-test helpers (framework/tests/ut/codegen/
 * include, on the suite's -I list; src/utils/test_codegen_utils.cpp defines them).  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these fallback declarations of the
 * helpers the tests call (mock functions, local tensors, generated code and its checks) keep
 * their files parseable. */
#pragma once
#pragma clang system_header
#include "test_codegen_common.h"
namespace npu {
namespace tile_fwk {
/* a local tensor to build by hand: CreateLogicalTensor({*function, DT_FP32, MEM_UB, shape, ...}) */
struct LogicalTensorInfo {
    LogicalTensorInfo(Function &func, DataType dataType, MemoryType memoryType, const std::vector<int64_t> &tShape);
    LogicalTensorInfo(Function &func, DataType dataType, MemoryType memoryType, const std::vector<int64_t> &tShape,
                      std::string tName);
    LogicalTensorInfo(Function &func, DataType dataType, MemoryType memoryType, const std::vector<int64_t> &tShape,
                      const std::vector<SymbolicScalar> &dynShape);
    LogicalTensorInfo(Function &func, DataType dataType, MemoryType memoryType, const std::vector<int64_t> &tShape,
                      int magicVal, const std::vector<SymbolicScalar> &dynShape);
    LogicalTensorInfo(Function &func, DataType dataType, MemoryType memoryType, const std::vector<int64_t> &tShape,
                      std::string tName, int magicVal, const std::vector<SymbolicScalar> &dynShape);
    Function &function;
    DataType dType;
    MemoryType memType;
    const std::vector<int64_t> &shape;
    const std::string tensorName;
    int magic;
    std::vector<SymbolicScalar> dynValidShape;
};
std::shared_ptr<LogicalTensor> CreateLogicalTensor(const LogicalTensorInfo &info);
std::shared_ptr<LogicalTensor> CreateConvTensor(Function &function, const DataType &dtype,
                                                const std::vector<int64_t> &shape, const MemoryType &memType,
                                                const bool &isCopyIn = true);

/* the generated code of a function, and the test's check that it contains what is expected */
std::string GetResultFromCpp(const Function &function);
std::string GenCodeByFunction(Function &function);
void CheckStringExist(const std::string &expect, const std::string &result);

/* a one-op dynamic or static function to generate code for */
Function *GenMockFuncDyn(const std::string &funcName, const std::vector<int64_t> &shape = {64, 64});
Function *GenMockFuncStatic(const std::string &funcName, const std::vector<int64_t> &shape = {64, 64});
struct MockFuncDynUnaryConf {
    std::vector<int64_t> shape = {64, 64};
    std::vector<int64_t> tileShape = {};
    DataType dtype = DT_FP32;
};
/* These two have bodies (never run): the tests pass lambdas, and a function template instantiated
 * with a type that has no linkage cannot be defined in another translation unit (clang: "used but
 * not defined").  The bodies hand the op to tensors of the configured shape and dtype, so a
 * lambda's own body is checked against Tensor as with upstream's helper. */
template <typename OpFunc>
Function *GenMockFuncDynUnary(const std::string &funcName, const MockFuncDynUnaryConf &config, OpFunc opFunc)
{
    (void)funcName;
    Tensor input(config.dtype, config.shape, "input");
    Tensor output(config.dtype, config.shape, "output");
    opFunc(input, output);
    return nullptr;
}
struct MockFuncDynBinaryConf {
    std::vector<int64_t> shapeA = {64, 64};
    std::vector<int64_t> shapeB = {64, 64};
    std::vector<int64_t> outputShape = {64, 64};
    std::vector<int64_t> tileShape = {};
    DataType dtype = DT_FP32;
};
template <typename OpFunc>
Function *GenMockFuncDynBinary(const std::string &funcName, const MockFuncDynBinaryConf &config, OpFunc opFunc)
{
    (void)funcName;
    Tensor inputA(config.dtype, config.shapeA, "inputA");
    Tensor inputB(config.dtype, config.shapeB, "inputB");
    Tensor output(config.dtype, config.outputShape, "output");
    opFunc(inputA, inputB, output);
    return nullptr;
}

/* the code of one operation */
struct GenOpCodeOptions {
    bool isMainBlk = false;
};
std::string GenOpCodeFromOp(Function &function, const Operation &op, const GenOpCodeOptions &options = {});
CodeGenOpCloudNPU GenOpCloudNPUFromOp(Function &function, const Operation &op,
                                      std::shared_ptr<SymbolManager> &outSymbolManager,
                                      const GenOpCodeOptions &options = {});
} // namespace tile_fwk
} // namespace npu
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
