/* interface/interpreter/poolcheck_stub_interpreter.h - the host-side interpreter API upstream's
 * interface tests use (framework/src/interface/interpreter: calc.h, calculator/calc_api.h,
 * raw_tensor_data.h's LogicalTensorData, operation.h, function.h, interpreter_log.h), for poolcheck's
 * stub mode.  The interpreter/ stand-ins next to this file include it, so only files that include an
 * interpreter header pay for it.  Declarations only, with upstream's names and parameter and
 * return types; RawTensorData, Function and Operation come from the stub. */
#pragma once
#pragma clang system_header
#include "interface/utils/string_utils.h" /* as upstream's operation.h brings it: securec */

namespace npu {
namespace tile_fwk {

/* calculator/calc_api.h */
struct TensorData {
    void *dataPtr;
    std::vector<int64_t> rawShape;
    std::vector<int64_t> shape;
    std::vector<int64_t> stride;
    int64_t storageOffset;
    DataType dtype;
    bool isAxisCombine;
};
struct MatMulParam {
    bool aTrans;
    bool bTrans;
    bool aScaleTrans;
    bool bScaleTrans;
    int64_t kStep;
    uint64_t scale;
    int relu;
    const TensorData *scalePtr;
    const TensorData *biasPtr;
    const TensorData *aScalePtr;
    const TensorData *bScalePtr;
};
enum class CmpOperationType { EQ, NE, LT, LE, GT, GE };
enum class CmpModeType { BOOL, BIT };

/* raw_tensor_data.h: a view (shape, valid shape, offset) of a RawTensorData */
struct LogicalTensorData {
    LogicalTensorData();
    LogicalTensorData(RawTensorDataPtr data);
    LogicalTensorData(RawTensorDataPtr data, const std::vector<int64_t> &shape, const std::vector<int64_t> &validShape,
                      const std::vector<int64_t> &offset);
    LogicalTensorData(RawTensorDataPtr data, const std::vector<int64_t> &shape, const std::vector<int64_t> &offset);
    static std::shared_ptr<LogicalTensorData> CreateMove(RawTensorData &&data);
    static std::shared_ptr<LogicalTensorData> Create(const RawTensorData &data);
    const RawTensorDataPtr &GetData() const;
    RawTensorDataPtr GetData();
    DataType GetDataType() const;
    const std::vector<int64_t> &GetShape() const;
    const std::vector<int64_t> &GetValidShape() const;
    const std::vector<int64_t> &GetOffset() const;
};
using LogicalTensorDataPtr = std::shared_ptr<LogicalTensorData>;

/* calc.h: the reference computations golden data is made with */
namespace calc {
bool IsVerifyEnabled();
TensorData Trans(LogicalTensorDataPtr data);
void Random(LogicalTensorDataPtr out);
bool AllClose(LogicalTensorDataPtr self, LogicalTensorDataPtr other, double atol = 1e-8, double rtol = 1e-5);
void MatMul(LogicalTensorDataPtr out, LogicalTensorDataPtr self, LogicalTensorDataPtr other,
            MatMulParam param = {false, false, false, false, 0, 0, 0, nullptr, nullptr, nullptr, nullptr});
void AccMatMul(LogicalTensorDataPtr out, LogicalTensorDataPtr self, LogicalTensorDataPtr other,
               MatMulParam param = {false, false, false, false, 0, 0, 0, nullptr, nullptr, nullptr, nullptr});
} // namespace calc

/* function.h / operation.h: executing one operation of a function frame */
struct FunctionIODataPair {
    std::vector<std::shared_ptr<LogicalTensorData>> incastDataViewList;
    std::vector<std::shared_ptr<LogicalTensorData>> outcastDataViewList;
    FunctionIODataPair();
    FunctionIODataPair(std::vector<std::shared_ptr<LogicalTensorData>> incastDataViewList_,
                       std::vector<std::shared_ptr<LogicalTensorData>> outcastDataViewList_);
};
struct FunctionFrame {
    FunctionFrame(const Function *func_, const Operation *callop_, const std::shared_ptr<CallOpAttribute> &callopAttr_,
                  std::shared_ptr<FunctionIODataPair> inoutDataPair_, int frameIndex_);
};
class OperationInterpreter;
struct ExecuteOperationContext {
    FunctionFrame *frame;
    OperationInterpreter *opInter;
    Operation *op;
    const std::vector<LogicalTensorDataPtr> *ioperandDataViewList;
    std::vector<LogicalTensorDataPtr> *ooperandDataViewList;
    std::vector<LogicalTensorDataPtr> *ooperandInplaceDataViewList;
    std::string Dump() const;
};
class OperationInterpreter {
public:
    OperationInterpreter();
    void ExecuteOperation(ExecuteOperationContext *ctx);
};

/* interpreter_log.h */
namespace interpreter {
enum class LogLevel : uint8_t { kDebug = 0, kInfo, kWarn, kEvent, kError };
const std::string &LogFilePath();
void SetLogFilePath(const std::string &path);
void Log(LogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
} // namespace interpreter

} // namespace tile_fwk
} // namespace npu
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
