/*
 * poolcheck_tilefwk_stub.h - a declaration-only stand-in for the PyPTO C++ kernel API.
 *
 * poolcheck's libclang frontend injects this file with `-include` when the real PyPTO headers are
 * not available (the default), and stands it in for the headers it replaces: the source's
 * #include lines of PyPTO (tilefwk/, interface/), CANN, the C++ standard library and gtest find
 * empty files first on the include path; every other #include (the project's own headers) is
 * followed.  So this file also declares the part of the C++ standard library kernels use:
 * parsing the real <vector>, <string>, <map>, <functional>... costs about 1.1 s per file, this
 * header well under 0.2 s.  The C library is stood in for too (stub/include/stdio.h, stdlib.h,
 * math.h, ...; <cstdio>, <cstdlib>, <cmath>... bring their names into std): a stub-mode parse reads
 * no header of the machine, so what it has installed never changes a result.
 *
 * Nothing here is executed or linked.  The declarations are written from the public API surface
 * (namespace npu::tile_fwk: tilefwk.h, tensor.h, function.h, config.h, tile_shape.h and the op list
 * of tilefwk_op.h), with the real parameter types, because overload resolution of brace-init
 * arguments (`View(x, {1, 16}, {0, j})`) only works with them.
 *
 * The one deliberate difference from the real headers is in the control-flow macros: LOOP,
 * FUNCTION, PROGRAM, IF and UNROLL put their arguments, as written, in the first statement of a
 * statement expression whose value is a marker (LOOP: the recorder upstream's LOOP constructs,
 * RecordLoopFunc).  An error anywhere in a real LOOP header (an undeclared name in its LoopRange)
 * makes clang drop the whole for-range statement together with its body; here it drops only that
 * first statement, and poolcheck reads the arguments from the AST (a dropped LOOP header from its
 * tokens).  The markers live in npu::tile_fwk::pc_stub, which is how the frontend recognises them.
 */
#ifndef POOLCHECK_TILEFWK_STUB_H
#define POOLCHECK_TILEFWK_STUB_H

#pragma clang system_header /* so that the walker never inlines the stub's own bodies */
#include <stddef.h>
#include <stdint.h>
#define assert(...) ((void)0)

/* The parts, each a file of its own (one owner each):
 *   poolcheck_stub_std.h       the C++ standard library kernels and their tests use
 *   (this file)                the PyPTO C++ kernel API and the fallbacks below
 *   poolcheck_stub_gtest.h     gtest: TEST / TEST_F / TEST_P and the assertion macros
 *   poolcheck_stub_internal.h  framework internals upstream tests reach (IR, passes, configs)
 *   poolcheck_stub_machine.h   runtime / machine / simulation internals and system-test helpers
 *   poolcheck_stub_codegen.h   codegen internals the codegen unit tests reach
 * The last three load only through include/poolcheck_stub_framework.h, when the source includes an
 * upstream header outside the public API. */
#include "poolcheck_stub_std.h"

/* ============================================================================================
 * The PyPTO C++ kernel API (npu::tile_fwk).
 * ========================================================================================== */
namespace pypto {}
using namespace pypto;

namespace npu {
namespace tile_fwk {

/* ---- data types (data_type.h) ------------------------------------------------------------- */
enum DataType {
    DT_INT4 = 0, DT_INT8 = 1, DT_INT16 = 2, DT_INT32 = 3, DT_INT64 = 4,
    DT_FP8 = 5, DT_FP16 = 6, DT_FP32 = 7, DT_BF16 = 8, DT_HF4 = 9, DT_HF8 = 10,
    DT_UINT8 = 11, DT_UINT16 = 12, DT_UINT32 = 13, DT_UINT64 = 14,
    DT_BOOL = 15, DT_DOUBLE = 16,
    DT_FP8E4M3, DT_FP8E5M2, DT_FP8E8M0,
    DT_FP4_E2M1X2, DT_FP4_E1M2X2, DT_FP4_E2M1, DT_FP4_E1M2,
    DT_BOTTOM
};
enum class TileOpFormat {
    TILEOP_ND, TILEOP_NZ, TILEOP_NC1HWC0, TILEOP_NDC1HWC0, TILEOP_FRACTAL_Z, TILEOP_FRACTAL_Z_3D,
    TILEOP_FORMAT_NUM
};
enum CastMode { CAST_NONE = 0, CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD };
enum class CachePolicy { PREFETCH, NONE_CACHEABLE, MAX_NUM };
enum class NodeType { LOCAL, INCAST, OUTCAST };
enum MemoryType {
    MEM_UB = 0, MEM_L1 = 1, MEM_L0A = 2, MEM_L0B = 3, MEM_L0C = 4, MEM_FIX = 5, MEM_FIX_QUANT_PRE = 6,
    MEM_FIX_RELU_PRE = 7, MEM_FIX_RELU_POST = 8, MEM_FIX_QUANT_POST = 9, MEM_FIX_ELT_ANTIQ = 10,
    MEM_FIX_MTE2_ANTIQ = 11, MEM_BT = 12, MEM_L2 = 13, MEM_L3 = 14, MEM_DEVICE_DDR = 15, MEM_HOST1 = 16,
    MEM_FAR1 = 17, MEM_FAR2 = 18, MEM_WORKSPACE = 19, MEM_VECTOR_REG = 20, MEM_L0AMX = 21, MEM_L0BMX = 22,
    MEM_UNKNOWN
};
std::string MemoryTypeToString(MemoryType mt);
std::string BriefMemoryTypeToString(MemoryType mt);
size_t BytesOf(DataType t);
size_t BitsOf(DataType t);
std::string DataType2String(DataType t);

/* ---- scalars (symbolic_scalar.h) ------------------------------------------------------------ */
class RawSymbolicScalar;
using RawSymbolicScalarPtr = std::shared_ptr<RawSymbolicScalar>;
using ScalarImmediateType = long long;
class SymbolicScalar {
public:
    static std::vector<SymbolicScalar> FromConcrete(const std::vector<int64_t> &values);
    SymbolicScalar();
    SymbolicScalar(int v);
    SymbolicScalar(long v);
    SymbolicScalar(long long v);
    SymbolicScalar(unsigned v);
    SymbolicScalar(unsigned long v);
    SymbolicScalar(unsigned long long v);
    SymbolicScalar(const std::string &name);
    SymbolicScalar(const char *name);
    /* upstream's one integer constructor takes int64_t, which a floating-point value converts to
     * (Full(1.0, ...) picks the SymbolicScalar overload); with the several integer constructors
     * here that conversion would be ambiguous, so floating-point values have theirs */
    template <class F, class = std::enable_if_t<std::is_floating_point_v<F>>> SymbolicScalar(F v);
    SymbolicScalar(const std::string &name, int64_t value);
    SymbolicScalar(const SymbolicScalar &o);
    SymbolicScalar &operator=(const SymbolicScalar &o);
    operator int() const;
    bool ConcreteValid() const;
    int64_t Concrete() const;
    std::string Dump() const;
    SymbolicScalar operator-() const;
    SymbolicScalar operator!() const;
    SymbolicScalar Min(const SymbolicScalar &o) const;
    SymbolicScalar Simplify() const;
    RawSymbolicScalarPtr Raw() const;
    void AsIntermediateVariable();
    bool IsIntermediateVariable() const;
    bool IsValid() const;
    SymbolicScalar Max(const SymbolicScalar &o) const;
};
#define PC_STUB_SCALAR_BINOP(op)                                                                    \
    SymbolicScalar operator op(const SymbolicScalar &a, const SymbolicScalar &b);                 \
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>                           \
    SymbolicScalar operator op(const SymbolicScalar &a, I b);                                     \
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>                           \
    SymbolicScalar operator op(I a, const SymbolicScalar &b);
PC_STUB_SCALAR_BINOP(+)
PC_STUB_SCALAR_BINOP(-)
PC_STUB_SCALAR_BINOP(*)
PC_STUB_SCALAR_BINOP(/)
PC_STUB_SCALAR_BINOP(%)
PC_STUB_SCALAR_BINOP(==)
PC_STUB_SCALAR_BINOP(!=)
PC_STUB_SCALAR_BINOP(<)
PC_STUB_SCALAR_BINOP(<=)
PC_STUB_SCALAR_BINOP(>)
PC_STUB_SCALAR_BINOP(>=)
PC_STUB_SCALAR_BINOP(&&)
PC_STUB_SCALAR_BINOP(||)
#undef PC_STUB_SCALAR_BINOP
SymbolicScalar &operator+=(SymbolicScalar &a, const SymbolicScalar &b);
SymbolicScalar &operator-=(SymbolicScalar &a, const SymbolicScalar &b);
SymbolicScalar &operator*=(SymbolicScalar &a, const SymbolicScalar &b);
SymbolicScalar Min(const SymbolicScalar &a, const SymbolicScalar &b);
SymbolicScalar Max(const SymbolicScalar &a, const SymbolicScalar &b);
SymbolicScalar Ternary(const SymbolicScalar &c, const SymbolicScalar &a, const SymbolicScalar &b);

class Element {
public:
    Element();
    explicit Element(DataType type, int16_t v);
    explicit Element(DataType type, int32_t v);
    explicit Element(DataType type, int64_t v);
    explicit Element(DataType type, uint16_t v);
    explicit Element(DataType type, uint32_t v);
    explicit Element(DataType type, uint64_t v);
    explicit Element(DataType type, double v);
    DataType GetDataType() const;
    int64_t GetSignedData() const;
    uint64_t GetUnsignedData() const;
    double GetFloatData() const;
    bool IsSigned() const;
    bool IsUnsigned() const;
    bool IsFloat() const;
    Element operator+(const Element &rhs) const;
    Element operator-(const Element &rhs) const;
    Element operator*(const Element &rhs) const;
    Element operator/(const Element &rhs) const;
    Element operator%(const Element &rhs) const;
    bool operator==(const Element &rhs) const;
    bool operator!=(const Element &rhs) const;
    bool operator<(const Element &rhs) const;
    bool operator<=(const Element &rhs) const;
    bool operator>(const Element &rhs) const;
    bool operator>=(const Element &rhs) const;
};

/* ---- tensors (tensor.h) --------------------------------------------------------------------- */
using BinDataPtr = uint8_t *;
using Shape = std::vector<int64_t>;
using Offset = std::vector<int64_t>;
using Stride = std::vector<int64_t>;

/* interface/tensor/raw_tensor.h, logical_tensor.h: the framework's tensor storage, declared with
 * the rest of the framework internals in poolcheck_stub_internal.h */
class RawTensor;
class LogicalTensor;

class Tensor {
public:
    Tensor();
    ~Tensor();
    Tensor(std::shared_ptr<LogicalTensor> storage);
    Tensor(DataType dataType, const Shape &shape, std::string name = "",
           TileOpFormat format = TileOpFormat::TILEOP_ND);
    Tensor(DataType dataType, std::vector<SymbolicScalar> shape, std::string name = "",
           TileOpFormat format = TileOpFormat::TILEOP_ND);
    Tensor(DataType dataType, std::initializer_list<SymbolicScalar> shape, std::string name = "",
           TileOpFormat format = TileOpFormat::TILEOP_ND);
    Tensor(const Tensor &rhs);
    Tensor(Tensor &&rhs);
    Tensor &operator=(const Tensor &rhs);
    Tensor &operator=(Tensor &&rhs) noexcept;
    const LogicalTensor &operator*() const;
    LogicalTensor &operator*();
    const std::shared_ptr<LogicalTensor> &GetStorage(bool readSlot = true) const;
    std::shared_ptr<LogicalTensor> &GetStorage(bool readSlot = true);
    void SetCachePolicy(CachePolicy policy, bool value);
    bool GetCachePolicy(CachePolicy policy) const;
    DataType GetDataType() const;
    const Shape &GetShape() const;
    int32_t GetShape(int axis) const;
    std::vector<SymbolicScalar> &GetValidShape() const;
    TileOpFormat Format() const;
    int Id() const;
    void SetName(const std::string &name) const;
    std::string GetName() const;
    uint64_t Dim() const;
    bool IsEmpty() const;
};

SymbolicScalar GetInputShape(const Tensor &t, int n);
const std::vector<SymbolicScalar> &GetInputShape(const Tensor &t);
SymbolicScalar GetTensorData(const Tensor &t, const std::vector<SymbolicScalar> &offset);
SymbolicScalar GetInputData(const Tensor &t, const std::vector<SymbolicScalar> &offset);
SymbolicScalar IsLoopBegin(const SymbolicScalar &symbol, const SymbolicScalar &begin);
SymbolicScalar IsLoopEnd(const SymbolicScalar &symbol, const SymbolicScalar &end);
void SetTensorData(const SymbolicScalar &v, const std::vector<SymbolicScalar> &off, Tensor &dst);
void TensorMove(Tensor &src, Tensor &dst);
Tensor TensorExtract(const Tensor &src, const std::vector<SymbolicScalar> &offset);  /* logical_tensor.h */
void TensorInsert(const Tensor &src, const std::vector<SymbolicScalar> &offset, Tensor &dst);
std::vector<SymbolicScalar> GetViewValidShape(const std::vector<SymbolicScalar> &validShape, const Offset &viewOffset,
                                              const std::vector<SymbolicScalar> &viewDynOffset, const Shape &viewShape);

/* ---- control flow (function.h) ------------------------------------------------------------- */
const std::string FUNCTION_PREFIX = "TENSOR_"; /* what a FUNCTION's name gets in the Program's function map */
enum class FunctionType { EAGER, STATIC, DYNAMIC, DYNAMIC_LOOP, DYNAMIC_LOOP_PATH, INVALID, MAX };

class LoopRange {
public:
    LoopRange(const SymbolicScalar &begin, const SymbolicScalar &end, const SymbolicScalar &step);
    explicit LoopRange(const SymbolicScalar &begin, const SymbolicScalar &end);
    explicit LoopRange(const SymbolicScalar &end);
    const SymbolicScalar &Begin() const;
    const SymbolicScalar &End() const;
    const SymbolicScalar &Step() const;
};

class FunctionConfig {
public:
    FunctionConfig();
};

/* What the macros below expand to.  The frontend recognises a LOOP as the for-range statement
 * whose range is (a statement expression of) a LoopMarker, a FUNCTION by a FunctionMarker, and
 * so on; the arguments are in the statement before the marker. */
namespace pc_stub {
struct ScalarIterator {
    SymbolicScalar &operator*() const;
    ScalarIterator &operator++();
    bool operator!=(const ScalarIterator &o) const;
};
struct LoopMarker {
    LoopMarker();
    ScalarIterator begin();
    ScalarIterator end();
};
struct FunctionMarker {
    FunctionMarker();
    ScalarIterator begin();
    ScalarIterator end();
};
struct ProgramMarker {
    ProgramMarker();
    ScalarIterator begin();
    ScalarIterator end();
};
/* A FUNCTION's tensor lists as written: `{a, b}`, nested lists (`{{in, out}}`), or a vector of
 * tensors: what upstream's RecordFunc accepts.  No template constructors: deducing one for every
 * element of every list cost test_dynamic_ops.cpp (83 FUNCTIONs) 20 ms of a 330 ms parse, and
 * none of the 258 upstream kernel files gains a clang error without them. */
struct FunctionArg {
    FunctionArg(const Tensor &value);
    FunctionArg(std::initializer_list<FunctionArg> list);
};
struct FunctionArgs {
    FunctionArgs(std::initializer_list<FunctionArg> list);
    FunctionArgs(const std::vector<Tensor> &list);
    FunctionArgs(const std::vector<std::reference_wrapper<const Tensor>> &list);
};
bool FunctionHeader(const std::string &name, const FunctionArgs &a = {}, const FunctionArgs &b = {},
                    const FunctionArgs &c = {}, const FunctionArgs &d = {});
template <typename... A> bool ProgramHeader(const A &...args);
struct IfMarker {
    IfMarker();
    operator bool() const;
};
struct UnrollMarker {
    UnrollMarker();
    operator bool() const;
};
/* what UNROLL's argument is handed to: the factor (upstream: RecordLoopFunc::MatchUnrollTimes) */
template <typename T> bool UnrollTimes(const T &times);
bool UnrollTimes(std::initializer_list<int64_t> times);
} // namespace pc_stub

/* The recorders the real FUNCTION / LOOP macros construct (the stub's LOOP constructs
 * RecordLoopFunc too); tests that record by hand name them directly. */
struct DynloopFunctionAttribute;
class RecordLoopFunc {
public:
    /* not upstream's: what the stub's LOOP written without a range constructs, so that it is no
     * clang error (the frontend reports the LOOP as not modelled) */
    RecordLoopFunc(const std::string &name, FunctionType funcType, const std::string &iterName);
    explicit RecordLoopFunc(const std::string &name, FunctionType funcType, const std::string &iterName,
                            const LoopRange &range, const std::set<int> &unrollList = {}, bool submitBeforeLoop = false,
                            bool parallel = false);
    ~RecordLoopFunc();
    void BeginLoopFunction();
    void EndLoopFunction();
    std::shared_ptr<DynloopFunctionAttribute> GetLoopAttr();
    static bool MatchUnrollTimes(int unrollTimes);
};
class RecordFunc {
public:
    explicit RecordFunc(const std::string &name);
    RecordFunc(const std::string &name, const std::vector<std::reference_wrapper<const Tensor>> &explicitOpArgs);
    RecordFunc(const std::string &name, const std::vector<std::reference_wrapper<const Tensor>> &startArgsInputTensorList,
               const std::vector<std::reference_wrapper<const Tensor>> &startArgsOutputTensorList);
    ~RecordFunc();
    void EndFunction();
    void AbortRecording();
    /* a FUNCTION written out, `RecordFunc rec("name", {ins}, {outs}); for (auto &step : rec)`:
     * upstream's iterator yields the step index */
    class Iterator {
    public:
        Iterator &operator++();
        bool operator!=(const Iterator &rhs) const;
        SymbolicScalar &operator*() const;
    };
    Iterator begin();
    Iterator end();
};

/* ---- runtime option keys (config_manager_ng.h constants) ------------------------------------ */
constexpr const char *DEVICE_SCHED_MODE = "device_sched_mode";
constexpr const char *DEVICE_SCHED_PARALLELISM = "device_sched_parallelism";
constexpr const char *STITCH_FUNCTION_INNER_MEMORY = "stitch_function_inner_memory";
constexpr const char *STITCH_FUNCTION_OUTCAST_MEMORY = "stitch_function_outcast_memory";
constexpr const char *STITCH_FUNCTION_NUM_INITIAL = "stitch_function_num_initial";
constexpr const char *STITCH_FUNCTION_MAX_NUM = "stitch_function_max_num";
constexpr const char *STITCH_FUNCTION_NUM_STEP = "stitch_function_num_step";
constexpr const char *STITCH_FUNCTION_SIZE = "stitch_function_size";
constexpr const char *STITCH_FUNCTION_NUM_PER_POOL = "stitch_function_num_per_pool";
constexpr const char *STITCH_CFGCACHE_SIZE = "stitch_cfgcache_size";
constexpr const char *MAX_WORKSPACE_KB = "max_workspace_kb";
constexpr const char *CFG_RUN_MODE = "run_mode";
constexpr const char *CFG_VALID_SHAPE_OPTIMIZE = "valid_shape_optimize";
constexpr const char *READY_ON_HOST_TENSORS = "ready_on_host_tensors";
constexpr int64_t CFG_RUN_MODE_NPU = 0;
constexpr int64_t CFG_RUN_MODE_SIM = 1;

enum class MachineScheduleConfig { DEFAULT_SCH = 0x0, L2CACHE_AFFINITY_SCH = 0x1, MULTI_CORE_FAIR_SCH = 0x2 };

/* ---- configuration (config.h) --------------------------------------------------------------- */
namespace config {
bool HasOption(const std::string &key);
template <typename T> bool IsType(const std::string &key);
template <typename T> void SetOption(const std::string &key, T &&value);
void SetOption(const std::string &key, const char *value);
template <typename T> void SetPassOption(const std::string &key, const T &value);
template <typename T> void SetCodeGenOption(const std::string &key, const T &value);
template <typename T> void SetRuntimeOption(const std::string &key, const T &value);
template <typename T> void SetHostOption(const std::string &key, const T &value);
int SetPassStrategy(const std::string s); /* interface/configs/config_manager.h */
std::string GetPassStrategy();
template <typename T> void SetVerifyOption(const std::string &key, const T &value);
template <typename T> void SetDebugOption(const std::string &key, const T &value);
template <typename T> void SetOperationOption(const std::string &key, const T &value);
template <typename T> void SetSimConfig(const std::string &key, const T &value);
template <typename T> T GetRuntimeOption(const std::string &key);
template <typename T> T GetPassOption(const std::string &key);
void SetPrintOptions(int edgeItems, int precision, int threshold, int linewidth);
void SetSemanticLabel(const std::string &label, const char *filename = __builtin_FILE(),
                      int lineno = __builtin_LINE());
void SetBuildStatic(bool isStatic);
std::string Dump();
void Reset();
} // namespace config

/* ---- ops (tilefwk_op.h) --------------------------------------------------------------------- */
constexpr const int TILE_VEC_DIMS = 2;
constexpr const int TILE_CUBE_DIMS = 6;
enum class OpType { EQ, NE, LT, LE, GT, GE };
enum class OutType { BOOL, BIT };
enum class SaturationMode : uint8_t { ON = 0, OFF = 1 };
enum class DequantScaleRoundingMode : int64_t { ROUND_UP = 0, ROUND_DOWN = 1 };
enum class PrecisionType : uint8_t { INTRINSIC = 0, HIGH_PRECISION = 1 };
enum class DivAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class SqrtAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RsqrtAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class ExpAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class LogAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RecipAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class ScatterMode { NONE, ADD, MULTIPLY, UNKNOWN };
enum class ReduceMode { ATOMIC_ADD };
enum class LogBaseType { LOG_E, LOG_2, LOG_10 };
enum class AtomicRMWMode { ADD, MAX, MIN, SET };

namespace experimental {
void Print(SymbolicScalar cond, const std::string &format, const std::vector<Tensor> &tensors,
           const std::vector<SymbolicScalar> &scalars);
template <bool isB, bool isTrans>
Tensor GatherInL1(const Tensor &src, const Tensor &offsets, const Tensor &blockTable, int blockSize, int size);
Tensor GatherInUB(const Tensor &params, const Tensor &indices, const Tensor &blockTable, int blockSize, int axis);
Tensor GatherInUB(const Tensor &params, const Tensor &indices, const Tensor &blockTable, int blockSize, int axis);
} // namespace experimental
template <typename... Args> void Print(Args... args);
template <typename... Args> void PrintIf(SymbolicScalar cond, Args... args);
void ToFile(const Tensor &operand, const std::string &fname, const std::vector<SymbolicScalar> &scalars = {},
            SymbolicScalar cond = 1);

/* data movement: views, reshapes, assembles (no compute unit) */
Tensor View(const Tensor &operand, const std::vector<int64_t> &shapes, const std::vector<int64_t> &offsets);
Tensor View(const Tensor &operand, const DataType dstDataType);
Tensor View(const Tensor &operand, const std::vector<int64_t> &shapes, const std::vector<SymbolicScalar> &newOffsets);
Tensor View(const Tensor &operand, const std::vector<int64_t> &shapes,
            const std::initializer_list<SymbolicScalar> &newOffsets);
Tensor View(const Tensor &operand, const std::vector<int64_t> &shapes,
            const std::vector<SymbolicScalar> &newValidShapes, const std::vector<SymbolicScalar> &newOffsets);
struct AssembleItem {
    Tensor tensor;
    std::vector<SymbolicScalar> offsets;
};
Tensor Assemble(const std::vector<std::pair<Tensor, std::vector<int64_t>>> &tensors);
void Assemble(const Tensor &tensor, const std::vector<SymbolicScalar> &dynOffset, Tensor &dest,
              bool parallel = false);
void Assemble(const std::vector<AssembleItem> &items, Tensor &dest, bool parallelInAssemble = false);
void AtomicRMW(const Tensor &src, const std::vector<SymbolicScalar> &offsets, Tensor &dest, AtomicRMWMode mode);
Tensor Reshape(const Tensor &operand, const std::vector<int64_t> &dstshape,
               const std::vector<SymbolicScalar> &validShape = {}, const bool inplace = false);
Tensor Reshape(const Tensor &operand, const std::initializer_list<int64_t> &dstshape,
               const std::initializer_list<SymbolicScalar> &validShape = {}, const bool inplace = false);
Tensor Reshape(const Tensor &operand, const std::vector<SymbolicScalar> &dstShape, const bool inplace);
void Reshape(const Tensor &operand, Tensor &dst);

/* vector ops */
Tensor Full(const Element &src, DataType dtype, const std::vector<int64_t> &dstShape,
            std::vector<SymbolicScalar> validShape = {});
Tensor Full(const SymbolicScalar &src, DataType dtype, const std::vector<int64_t> &dstShape,
            std::vector<SymbolicScalar> validShape = {});
Tensor Transpose(const Tensor &self, std::vector<int> perm);
Tensor Cast(const Tensor &self, DataType dstDataType, CastMode mode = CAST_NONE,
            SaturationMode satmode = SaturationMode::OFF);
Tensor Permute(const Tensor &self, std::vector<int> perm);
Tensor Exp(const Tensor &self, ExpAlgorithm precisionType = ExpAlgorithm::DEFAULT);
Tensor Exp(const Tensor &self, PrecisionType precisionType);
Tensor Tan(const Tensor &operand);
Tensor Tanh(const Tensor &operand);
Tensor Sinh(const Tensor &self);
Tensor Cosh(const Tensor &self);
Tensor Asin(const Tensor &self);
Tensor Acos(const Tensor &self);
Tensor Atan(const Tensor &self);
Tensor ASinh(const Tensor &self);
Tensor ACosh(const Tensor &self);
Tensor Atanh(const Tensor &self);
Tensor Atan2(const Tensor &y, const Tensor &x);
Tensor Erf(const Tensor &self);
Tensor Erfc(const Tensor &self);
Tensor IsNan(const Tensor &self);
Tensor Axpy(const Tensor &self, const Tensor &other, float alpha);
Tensor Pack(const Tensor &self);
Tensor UnPack(const Tensor &self, DataType dstDataType);
Tensor Exp2(const Tensor &self);
Tensor Expm1(const Tensor &self);
Tensor Neg(const Tensor &self);
Tensor Round(const Tensor &self, const int &decimals = 0);
Tensor Rsqrt(const Tensor &self, RsqrtAlgorithm precisionType = RsqrtAlgorithm::DEFAULT);
Tensor Rsqrt(const Tensor &self, PrecisionType precisionType);
Tensor Relu(const Tensor &self);
Tensor Pad(const Tensor &self, const std::vector<int64_t> &padding, std::string mode = "constant",
           const Element &value = Element(DT_FP32, 0.0));
Tensor FillPad(const Tensor &self, std::string mode = "constant", const Element &value = Element(DT_FP32, 0.0));
Tensor TransData(const Tensor &self, TileOpFormat transDataType, const std::vector<int64_t> &outputShape,
                 const std::vector<SymbolicScalar> &validShape, int group = 1);
std::tuple<Tensor, Tensor> Interleave(const Tensor &self, const Tensor &other);
std::tuple<Tensor, Tensor> DeInterleave(const Tensor &self, const Tensor &other);
std::tuple<Tensor, Tensor> DeInterleave(const Tensor &self);
std::tuple<Tensor, Tensor, Tensor> OnlineSoftmax(const Tensor &scores, float scale);
std::tuple<Tensor, Tensor, Tensor> OnlineSoftmaxUpdate(const Tensor &previousMax, const Tensor &previousSum,
                                                       const Tensor &previousOutput, const Tensor &currentMax,
                                                       const Tensor &currentSum, const Tensor &currentOutput);
Tensor BitwiseNot(const Tensor &self);
Tensor Sqrt(const Tensor &self, SqrtAlgorithm precisionType = SqrtAlgorithm::DEFAULT);
Tensor Sqrt(const Tensor &self, PrecisionType precisionType);
Tensor Ceil(const Tensor &self);
Tensor CeilDiv(const Tensor &self, const Tensor &other);
Tensor CeilDiv(const Tensor &self, const Element &other);
Tensor Floor(const Tensor &self);
Tensor FloorDiv(const Tensor &self, const Tensor &other);
Tensor FloorDiv(const Tensor &self, const Element &other);
Tensor Trunc(const Tensor &self);
Tensor Reciprocal(const Tensor &operand, RecipAlgorithm precisionType = RecipAlgorithm::DEFAULT);
Tensor Reciprocal(const Tensor &operand, PrecisionType precisionType);
Tensor Abs(const Tensor &self);
Tensor Ln(const Tensor &operand, LogAlgorithm precisionType = LogAlgorithm::DEFAULT);
Tensor Hub(const Tensor &operand);
Tensor Sign(const Tensor &operand);
Tensor Signbit(const Tensor &operand);
Tensor Duplicate(const Tensor &operand);
Tensor Gather(const Tensor &params, const Tensor &indices, int axis);
Tensor GatherElements(const Tensor &params, const Tensor &indices, int axis);
Tensor GatherMask(const Tensor &self, const uint8_t patternMode);
Tensor Scatter(const Tensor &self, const Tensor &indices, const Element &src, int axis,
               ScatterMode reduce = ScatterMode::NONE);
Tensor Scatter(const Tensor &self, const Tensor &indices, const Tensor &src, int axis,
               ScatterMode reduce = ScatterMode::NONE);
void IndexPut_(Tensor &self, const std::vector<Tensor> &indices, const Tensor &values, bool accumulate = false);
Tensor IndexAddUB(const Tensor &self, const Tensor &src, const Tensor &indices, int axis,
                  const Element &alpha = Element(DT_FP32, 1.0));
void IndexAdd_(Tensor &self, const Tensor &src, const Tensor &indices, int axis,
               const Element &alpha = Element(DT_FP32, 1.0));
Tensor RowSumExpand(const Tensor &operand);
Tensor RowMaxExpand(const Tensor &operand);
Tensor Sum(const Tensor &self, int axis = -1, bool keepDim = false);
Tensor Amax(const Tensor &self, int axis = -1, bool keepDim = false);
Tensor ArgMax(const Tensor &self, int axis = -1, bool keepDim = false);
Tensor ArgMin(const Tensor &self, int axis = -1, bool keepDim = false);
Tensor Amin(const Tensor &self, int axis = -1, bool keepDim = false);
Tensor Prod(const Tensor &self, int axis = -1, bool keepDim = false);
Tensor Compact(const Tensor &operand);
Tensor Add(const Tensor &self, const Tensor &other);
Tensor Sub(const Tensor &self, const Tensor &other);
Tensor Div(const Tensor &self, const Tensor &other, DivAlgorithm precisionType = DivAlgorithm::DEFAULT);
Tensor Div(const Tensor &self, const Tensor &other, PrecisionType precisionType);
Tensor Mul(const Tensor &self, const Tensor &other);
Tensor Hypot(const Tensor &self, const Tensor &other);
Tensor Fmod(const Tensor &self, const Tensor &other);
Tensor Maximum(const Tensor &operand1, const Tensor &operand2);
Tensor Minimum(const Tensor &operand1, const Tensor &operand2);
Tensor BitwiseAnd(const Tensor &self, const Tensor &other);
Tensor BitwiseOr(const Tensor &self, const Tensor &other);
Tensor BitwiseXor(const Tensor &self, const Tensor &other);
Tensor ExpandExpDif(const Tensor &input, const Tensor &other);
Tensor Add(const Tensor &self, const Element &other);
Tensor Sub(const Tensor &self, const Element &other);
Tensor Div(const Tensor &self, const Element &other, DivAlgorithm precisionType = DivAlgorithm::DEFAULT);
Tensor Div(const Tensor &self, const Element &other, PrecisionType precisionType);
Tensor Mul(const Tensor &self, const Element &other);
Tensor Fmod(const Tensor &self, const Element &other);
Tensor BitwiseAnd(const Tensor &self, const Element &other);
Tensor BitwiseOr(const Tensor &self, const Element &other);
Tensor BitwiseXor(const Tensor &self, const Element &other);
Tensor Minimum(const Tensor &operand1, const Element &operand2);
Tensor Maximum(const Tensor &operand1, const Element &operand2);
Tensor Compare(const Tensor &self, const Tensor &other, OpType op, OutType mode);
Tensor Compare(const Tensor &self, const Element &other, OpType op, OutType mode);
Tensor Compare(const Element &self, const Tensor &other, OpType op, OutType mode);
Tensor Pow(const Tensor &self, const Tensor &other);
Tensor Pow(const Tensor &self, const Element &other);
Tensor Pow(const Tensor &self, const Tensor &other, PrecisionType precisionType);
Tensor Pow(const Tensor &self, const Element &other, PrecisionType precisionType);
Tensor Remainder(const Tensor &self, const Tensor &other);
Tensor Remainder(const Tensor &self, const Element &other);
Tensor Remainder(const Element &self, const Tensor &other);
Tensor CopySign(const Tensor &self, const Tensor &other);
Tensor PReLU(const Tensor &self, const Tensor &weight);
Tensor BitwiseRightShift(const Tensor &self, const Tensor &other);
Tensor BitwiseRightShift(const Tensor &self, const Element &other);
Tensor BitwiseRightShift(const Element &self, const Tensor &other);
Tensor BitwiseLeftShift(const Tensor &self, const Tensor &other);
Tensor BitwiseLeftShift(const Tensor &self, const Element &other);
Tensor BitwiseLeftShift(const Element &self, const Tensor &other);
Tensor Where(const Tensor &condition, const Tensor &input, const Tensor &other);
Tensor Where(const Tensor &condition, const Tensor &input, const Element &other);
Tensor Where(const Tensor &condition, const Element &input, const Tensor &other);
Tensor Where(const Tensor &condition, const Element &input, const Element &other);
Tensor LReLU(const Tensor &self, const Element &negativeSlope);
Tensor Unsqueeze(const Tensor &old, int unsqueezeDimNum);
Tensor Squeeze(const Tensor &input, const std::vector<int> &dim = {});
Tensor TensorIndex(const Tensor &params, const Tensor &indices);
Tensor ScatterUpdate(const Tensor &dst, const Tensor &index, const Tensor &src, int axis = -2,
                     std::string cacheMode = "PA_BNSD", int chunkSize = 1);
Tensor Expand(const Tensor &self, const std::vector<int64_t> &dstShape, std::vector<SymbolicScalar> validShape = {});
Tensor Sin(Tensor operand);
Tensor Cos(Tensor operand);
Tensor Var(const Tensor &input, const std::vector<int> &dim = {}, float correction = 1.0f, bool keepDim = false);
Tensor Softmax(const Tensor &operand);
Tensor RmsNorm(const Tensor &operand);
Tensor RmsNorm(const Tensor &operand, const Tensor &gamma, float epsilon = 1e-05f);
Tensor Cat(const std::vector<Tensor> &tensors, int axis);
Tensor NewCompact(const Tensor &operand);
Tensor LogicalNot(const Tensor &self);
Tensor Range(const Element &start, const Element &end, const Element &step);
Tensor LogicalAnd(const Tensor &self, const Tensor &other);
Tensor IsFinite(const Tensor &self);
Tensor Assign(const Tensor &operand);
Tensor Uniform(const Element &key, const SymbolicScalar &counter0, const Element &counter1,
               const std::vector<int64_t> &shape, const Element &rounds, DataType dtype = DT_FP32);
Tensor Clip(const Tensor &self, const Tensor &min = {}, const Tensor &max = {});
Tensor Clip(const Tensor &self, const Element &min = {}, const Element &max = {});
enum class TopKAlgo { MERGE_SORT, RADIX_SELECT };
std::tuple<Tensor, Tensor> TopK(const Tensor &self, int k, int axis = -1, bool isLargest = true,
                                TopKAlgo algo = TopKAlgo::MERGE_SORT);
Tensor ArgSort(const Tensor &self, int axis = -1, bool descending = false);
Tensor Sort32(const Tensor &self, int idxStart = 0);
Tensor MrgSort(const Tensor &self, int mergeSize);
Tensor Quantize(const Tensor &input, const Tensor &scale, DataType dtype, int axis, const Tensor &zeroPoints);
Tensor Dequantize(const Tensor &input, const Tensor &scale, DataType otype, int axis, const Tensor &zeroPoints);
std::tuple<Tensor, Tensor> Sort(const Tensor &x, bool descending = true);
std::tuple<Tensor, Tensor> SortWithIndex(const Tensor &x, const Tensor &idx, bool descending = true);
Tensor SoftmaxNew(const Tensor &operand);
void SoftmaxDynamic(Tensor &input, Tensor &output);
Tensor RotateHalf(const Tensor &input);
Tensor Sigmoid(Tensor &input);
std::tuple<Tensor, Tensor> Quant(const Tensor &input, bool isSymmetry = true, bool hasSmoothFactor = false,
                                 const Tensor &smoothFactor = Tensor());
std::tuple<Tensor, Tensor> QuantMX(const Tensor &input, DataType quantDtype = DataType::DT_FP8E4M3,
                                   DequantScaleRoundingMode mode = DequantScaleRoundingMode::ROUND_DOWN,
                                   int64_t axis = -1, bool performanceMode = true);
Tensor ScalarDivS(const Tensor &operand, const Element &value, bool reverseOperand = false);
Tensor ScalarAddS(const Tensor &operand, const Element &value, bool reverseOperand = false);
Tensor ScalarMaxS(const Tensor &operand, const Element &value, bool reverseOperand = false);
Tensor ScalarSubS(const Tensor &operand, const Element &value, bool reverseOperand = false);
Tensor ScalarMulS(const Tensor &operand, const Element &value, bool reverseOperand = false);
Tensor ScalarSub(const Tensor &operand1, const Tensor &operand2);
Tensor ScalarDiv(const Tensor &operand1, const Tensor &operand2);
Tensor CumSum(const Tensor &input, const int &axis);
Tensor CumProd(const Tensor &input, const int &axis);
Tensor Gcd(const Tensor &input, const Tensor &other);
Tensor Gcd(const Tensor &input, const Element &other);
Tensor TriU(const Tensor &input, const SymbolicScalar &diagonal);
Tensor TriL(const Tensor &input, const SymbolicScalar &diagonal);
Tensor Reduce(const std::vector<Tensor> &aggregation, const ReduceMode reduceMode);
Tensor Maxpool(const Tensor &operand, const std::vector<int> &pools, const std::vector<int> &strides,
               const std::vector<int> &paddings);
Tensor Log(const Tensor &self, LogBaseType base = LogBaseType::LOG_E, LogAlgorithm precisionType = LogAlgorithm::DEFAULT);
Tensor Log1p(const Tensor &self);
Tensor OneHot(const Tensor &self, int numClasses);
std::tuple<Tensor, Tensor> TopKSort(const Tensor &x, int idxStart);
std::tuple<Tensor, Tensor> TopKSort(const Tensor &x, const SymbolicScalar &idxStart);
Tensor TopKExtract(const Tensor &x, int k, bool isIndex);
Tensor TopKMerge(const Tensor &x, int mergeSize);
Tensor Nop(const std::vector<Tensor> &inTensors);

/* fused attention / rotary blocks: non-const Tensor& parameters named *Out / *Embed are written */
struct PaTileShapeConfig {
    int headNumQTile;
    std::array<int, TILE_VEC_DIMS> v0TileShape;
    std::array<int, TILE_CUBE_DIMS> c1TileShape;
    std::array<int, TILE_VEC_DIMS> v1TileShape;
    std::array<int, TILE_CUBE_DIMS> c2TileShape;
    std::array<int, TILE_VEC_DIMS> v2TileShape;
};
struct IfaTileShapeConfig {
    int blockSize;
    int headNumQTile;
    std::array<int, TILE_VEC_DIMS> v0TileShape;
    std::array<int, TILE_CUBE_DIMS> c1TileShape;
    std::array<int, TILE_VEC_DIMS> v1TileShape;
    std::array<int, TILE_CUBE_DIMS> c2TileShape;
    std::array<int, TILE_VEC_DIMS> v2TileShape;
};
struct RoPETileShapeConfig {
    std::vector<int64_t> twoDimsTileShape;
    std::vector<int64_t> threeDimsTileShape;
    std::vector<int64_t> fourDimsTileShape;
    std::vector<int64_t> fiveDimsTileShape;
};
struct RoPETileShapeConfigNew {
    std::vector<int64_t> threeDimsTileShape;
    std::vector<int64_t> fourDimsTileShapeQ;
    std::vector<int64_t> fourDimsTileShapeK;
    std::vector<int64_t> fiveDimsTileShape;
};
void ApplyRotaryPosEmb(const Tensor &q, const Tensor &k, const Tensor &cos, const Tensor &sin,
                       const Tensor &positionIds, Tensor &qEmbed, Tensor &kEmbed, const int unsqueezeDim = 1,
                       const RoPETileShapeConfig &ropeTileShapeConfig = {});
void ApplyRotaryPosEmbV2(const Tensor &q, const Tensor &k, const Tensor &cos, const Tensor &sin, Tensor &qEmbed,
                         Tensor &kEmbed, const int unsqueezeDim = 2,
                         const RoPETileShapeConfigNew &ropeTileShapeConfig = {});
void IncreFlashAttention(Tensor &qNope, Tensor &kNopeCache, Tensor &vNopeCache, Tensor &qRope, Tensor &kRopeCache,
                         std::vector<std::vector<int>> &blockTable, std::vector<int> &actSeqs, float softmaxScale,
                         Tensor &attentionOut, IfaTileShapeConfig &tileConfig);
void PageAttentionAddS(Tensor &qNope, Tensor &kNopeCache, Tensor &vNopeCache, Tensor &qRope, Tensor &kRopeCache,
                       Tensor &blockTable, Tensor &actSeqs, int blockSize, float softmaxScale, Tensor &attentionOut,
                       Tensor &postOut, PaTileShapeConfig &tileConfig, int maxUnrollTimes = 1);
void PageAttentionAddSSingleOutput(Tensor &qNope, Tensor &kNopeCache, Tensor &vNopeCache, Tensor &qRope,
                                   Tensor &kRopeCache, Tensor &blockTable, Tensor &actSeqs, int blockSize,
                                   float softmaxScale, Tensor &attentionOut, Tensor &postOut,
                                   PaTileShapeConfig &tileConfig, int maxUnrollTimes = 1);
void PrologPost(Tensor &qNope, Tensor &kNopeCache, Tensor &vNopeCache, Tensor &qRope, Tensor &kRopeCache,
                Tensor &blockTable, Tensor &actSeqs, Tensor &weightUV, Tensor &weightO, int blockSize,
                float softmaxScale, Tensor &postOut, PaTileShapeConfig &tileConfig);

/* cube ops */
namespace Matrix {
enum class ReLuType : int64_t { NoReLu = 0, ReLu = 1 };
enum class TransMode : int64_t { CAST_NONE = 0, CAST_RINT = 1, CAST_ROUND = 2 };
struct MatmulExtendParam {
    Tensor biasTensor;
    Tensor scaleTensor;
    float scaleValue;
    ReLuType reluType;
    TransMode transMode;
    MatmulExtendParam(Tensor bias, Tensor scale, float scaleVal, ReLuType relu,
                      TransMode mode = TransMode::CAST_NONE);
    MatmulExtendParam();
};
Tensor Matmul(DataType outType, const Tensor &aMatrix, const Tensor &bMatrix, bool isATrans = false,
              bool isBTrans = false, bool isCMatrixNZ = false);
Tensor Matmul(DataType outType, const Tensor &aMatrix, const Tensor &bMatrix, const MatmulExtendParam &extendParam,
              bool isATrans = false, bool isBTrans = false, bool isCMatrixNZ = false);
Tensor MatmulMX(DataType outType, const Tensor &aMatrix, const Tensor &aScale, const Tensor &bMatrix,
                const Tensor &bScale, bool isATrans = false, bool isAScaleTrans = false, bool isBTrans = false,
                bool isBScaleTrans = false, bool isCMatrixNZ = false);
Tensor MatmulMX(DataType outType, const Tensor &aMatrix, const Tensor &aScale, const Tensor &bMatrix,
                const Tensor &bScale, const MatmulExtendParam &extendParam, bool isATrans = false,
                bool isAScaleTrans = false, bool isBTrans = false, bool isBScaleTrans = false,
                bool isCMatrixNZ = false);
Tensor BatchMatmul(DataType dataType, const Tensor &aMatrix, const Tensor &bMatrix, bool isATrans = false,
                   bool isBTrans = false, bool isCMatrixNZ = false);
Tensor BatchMatmul(DataType dataType, const Tensor &aMatrix, const Tensor &bMatrix,
                   const MatmulExtendParam &extendParam, bool isATrans = false, bool isBTrans = false,
                   bool isCMatrixNZ = false);
Tensor BatchMatmulMX(DataType dataType, const Tensor &aMatrix, const Tensor &aScale, const Tensor &bMatrix,
                     const Tensor &bScale, bool isTransA = false, bool isAScaleTrans = false, bool isTransB = false,
                     bool isBScaleTrans = false, bool isCMatrixNZ = false);
Tensor BatchMatmulMX(DataType dataType, const Tensor &aMatrix, const Tensor &aScale, const Tensor &bMatrix,
                     const Tensor &bScale, const MatmulExtendParam &extendParam, bool isTransA = false,
                     bool isAScaleTrans = false, bool isTransB = false, bool isBScaleTrans = false,
                     bool isCMatrixNZ = false);
Tensor TransposedBatchMatmul(DataType dataType, const Tensor &aMatrix, const Tensor &bMatrix);
Tensor QuantMM(const Tensor &operand1, const Tensor &operand2, const Tensor &dequantScaleW);
} // namespace Matrix

namespace Conv {
struct TileL1Info {
    int64_t tileHin, tileHout, tileWin, tileWout, tileCinFmap, tileCinWeight, tileN, tileBatch;
    TileL1Info(int64_t hin, int64_t hout, int64_t win, int64_t wout, int64_t cinFmap, int64_t cinWeight,
               int64_t cout, int64_t n);
    TileL1Info();
};
struct TileL0Info {
    int64_t tileH, tileW, tileK, tileN;
    TileL0Info(int64_t h, int64_t w, int64_t k, int64_t n);
    TileL0Info();
};
enum class ReLuType : int64_t { NoReLu = 0, ReLu = 1 };
struct ConvExtendParam {
    Tensor biasTensor;
    Tensor scaleTensor;
    float scaleValue;
    ReLuType reluType;
    ConvExtendParam(Tensor bias, Tensor scale, float scaleVal, ReLuType relu);
    ConvExtendParam();
};
Tensor Conv(DataType outType, const Tensor &inputTensor, const Tensor &weightTensor,
            const std::vector<int64_t> &strides, const std::vector<int64_t> &paddings,
            const std::vector<int64_t> &dilations, const ConvExtendParam &extendParam, const int64_t groups = 1);
} // namespace Conv

namespace Distributed {
enum class DistReduceType { DIST_REDUCE_ADD, DIST_REDUCE_MAX, DIST_REDUCE_MIN };
enum class AtomicType { SET, ADD };
struct MoeConfig {
    int32_t routedExpertNum;
    int32_t expertNumPerRank;
    int32_t rankNum;
};
struct ShmemTensor {
    std::string group;
    int64_t worldSize;
    Tensor data;
    Tensor signal;
    void *signalOp;
};
void MoeDistributedDispatch(const Tensor &tokenTensor, const Tensor &tokenExpertTable, Tensor &expandX,
                            Tensor &validCnt, Tensor &combineInfo, const char *group, const MoeConfig &moeConfig);
void MoeDistributedCombine(const Tensor &expandX, const Tensor &assistInfoForCombine, const Tensor &recvCounts,
                           const Tensor &expertScales, const char *group, uint32_t epWorldSize,
                           uint32_t moeExpertNum, uint32_t sharedExpertNum, uint32_t sharedExpertRankNum,
                           Tensor &out);
ShmemTensor CreateShmemTensor(const char *group, int64_t worldSize, DataType dataType, const Shape &shape);
void CreateShmemTensor(const char *group, int64_t worldSize, DataType dataType, const Shape &shape, ShmemTensor &t);
ShmemTensor CreateShmemSignal(const char *group, int64_t worldSize);
void CreateShmemSignal(const char *group, int64_t worldSize, ShmemTensor &t);
ShmemTensor ShmemView(const ShmemTensor &operand, const std::vector<int64_t> &shapes,
                      const std::vector<int64_t> &offsets);
ShmemTensor ShmemView(const ShmemTensor &operand, const std::vector<int64_t> &shapes,
                      const std::vector<SymbolicScalar> &offsets);
ShmemTensor ShmemView(const ShmemTensor &operand, const std::vector<int64_t> &shapes,
                      const std::vector<SymbolicScalar> &newValidShapes, const std::vector<SymbolicScalar> &newOffsets);
ShmemTensor ShmemView(const ShmemTensor &operand, const std::vector<int64_t> &shapes,
                      const std::initializer_list<SymbolicScalar> &newOffsets);
Tensor ShmemPut(const Tensor &src, const ShmemTensor &dst, const SymbolicScalar &dstRank, AtomicType putOp,
                const Tensor &pred);
Tensor ShmemGet(const ShmemTensor &src, const SymbolicScalar &srcRank, const Tensor &pred,
                DataType targetDataType = DataType::DT_BOTTOM);
Tensor ShmemSignal(const ShmemTensor &src, const SymbolicScalar &srcRank, const SymbolicScalar &targetRank,
                   int32_t signal, AtomicType sigOp, const Tensor &pred);
Tensor ShmemSignalAll(const ShmemTensor &src, const SymbolicScalar &srcRank, int32_t signal, AtomicType sigOp,
                      const Tensor &pred);
Tensor ShmemWaitUntil(const ShmemTensor &src, const SymbolicScalar &srcRank, OpType cmp, int32_t cmpValue,
                      bool clearSignal, const Tensor &pred);
Tensor ShmemClearData(const ShmemTensor &src, Tensor &pred);
Tensor ShmemClearSignal(const ShmemTensor &src, Tensor &pred);
Tensor ShmemBarrier(const ShmemTensor &src, const Tensor &pred);
Tensor ShmemLoad(const ShmemTensor &src, const SymbolicScalar &srcRank, const Tensor &pred,
                 DataType targetDataType = DataType::DT_BOTTOM);
Tensor ShmemStore(const Tensor &src, const ShmemTensor &dst, const SymbolicScalar &dstRank, AtomicType putOp,
                  const Tensor &pred);
void AllGather(const Tensor &predToken, const Tensor &in, ShmemTensor &shmemTensor, Tensor &out);
void ReduceScatter(const Tensor &predToken, const Tensor &in, ShmemTensor &shmemTensor, DistReduceType reduceType,
                   Tensor &out);
void OneShotAllReduce(const Tensor &predToken, const Tensor &in, ShmemTensor &shmemTensor, Tensor &out);
void TwoShotAllReduce(const Tensor &predToken, const Tensor &in, ShmemTensor &shmemTensor, Tensor &out);
void MoeDistributedDispatchV2(const Tensor &x, const Tensor &expertIds, const char *group, uint32_t epWorldSize,
                              uint32_t moeExpertNum, uint32_t sharedExpertNum, uint32_t sharedExpertRankNum,
                              Tensor &expandX, Tensor &assistInfoForCombine, Tensor &expertTokenNums,
                              Tensor &recvCounts);
void MoeDistributedCombineV2(const Tensor &expandX, const Tensor &assistInfoForCombine, const Tensor &recvCounts,
                             const Tensor &expertScales, const char *group, uint32_t epWorldSize,
                             uint32_t moeExpertNum, uint32_t sharedExpertNum, uint32_t sharedExpertRankNum,
                             Tensor &out);
} // namespace Distributed

} // namespace tile_fwk
} // namespace npu

/* std::min / std::max on symbolic scalars (upstream injects these overloads into namespace std) */
namespace std {
npu::tile_fwk::SymbolicScalar min(const npu::tile_fwk::SymbolicScalar &a, const npu::tile_fwk::SymbolicScalar &b);
npu::tile_fwk::SymbolicScalar max(const npu::tile_fwk::SymbolicScalar &a, const npu::tile_fwk::SymbolicScalar &b);
npu::tile_fwk::SymbolicScalar ternary(const npu::tile_fwk::SymbolicScalar &c, const npu::tile_fwk::SymbolicScalar &a,
                                      const npu::tile_fwk::SymbolicScalar &b);
} // namespace std

/* ---- tiling (tile_shape.h: global, not namespaced) -------------------------------------------- */
#define MAX_DIST_DIM_SIZE 3
#define MAX_M_DIM_SIZE 2
#define MAX_K_DIM_SIZE 3
#define MAX_N_DIM_SIZE 2
struct VecTile {
    std::vector<int64_t> tile;
    bool valid() const;
    int64_t operator[](int i) const;
    size_t size() const;
};
struct CubeTile {
    std::array<int64_t, MAX_M_DIM_SIZE> m;
    std::array<int64_t, MAX_K_DIM_SIZE> k;
    std::array<int64_t, MAX_N_DIM_SIZE> n;
    bool enableSplitK;
    bool valid() const;
};
struct ConvTile {
    npu::tile_fwk::Conv::TileL1Info tileL1Info;
    npu::tile_fwk::Conv::TileL0Info tileL0Info;
    bool setL0Tile;
};
struct DistTile {
    std::array<int, MAX_DIST_DIM_SIZE> row;
    std::array<int, MAX_DIST_DIM_SIZE> col;
    std::array<int, MAX_DIST_DIM_SIZE> rank;
    int rankId;
};
enum class TileType { VEC, CUBE, CONV, DIST, MAX };
struct TileShape {
    TileShape();
    void SetVecTile(const std::vector<int64_t> &tile);
    void SetVecTile(const VecTile &tile);
    template <typename... Args, typename = std::enable_if_t<(std::is_integral_v<Args> && ...)>>
    void SetVecTile(Args... args);
    const VecTile &GetVecTile() const;
    VecTile &GetVecTile();
    void SetCubeTile(const std::array<int64_t, MAX_M_DIM_SIZE> &m, const std::array<int64_t, MAX_K_DIM_SIZE> &k,
                     const std::array<int64_t, MAX_N_DIM_SIZE> &n, bool enableSplitK = false);
    const CubeTile &GetCubeTile() const;
    CubeTile &GetCubeTile();
    void SetConvTile(const npu::tile_fwk::Conv::TileL1Info &tileL1Info,
                     const npu::tile_fwk::Conv::TileL0Info &tileL0Info, bool setL0Tile = false);
    void SetDistTile(const std::array<int, MAX_DIST_DIM_SIZE> &row, const std::array<int, MAX_DIST_DIM_SIZE> &col,
                     const std::array<int, MAX_DIST_DIM_SIZE> &rank);
    void SetDistRankId(int64_t rankId);
    void SetMatrixSize(const std::vector<int64_t> &size);
    static TileShape &Current();
    void Reset();
};

/* ---- control-flow macros (function.h) ------------------------------------------------------ */
/* FUNCTION / PROGRAM: the header's arguments, as written, go to a stub function in the first
 * statement of a statement expression whose value is the marker (an error in them drops that
 * statement only) */
#define FUNCTION(name, ...)                                                                         \
    for ([[maybe_unused]] auto &pc_stub_function_ : ({                                              \
             (void)::npu::tile_fwk::pc_stub::FunctionHeader(name, ##__VA_ARGS__);                   \
             ::npu::tile_fwk::pc_stub::FunctionMarker();                                            \
         }))
#define PROGRAM(...)                                                                                \
    for ([[maybe_unused]] auto &pc_stub_program_ : ({                                               \
             (void)::npu::tile_fwk::pc_stub::ProgramHeader(__VA_ARGS__);                            \
             ::npu::tile_fwk::pc_stub::ProgramMarker();                                             \
         }))
/* LOOP: the recorder upstream's LOOP constructs, with its arguments as written, is the first
 * statement of a statement expression whose value is the marker the index iterates: an error in
 * the header drops that statement only, never the loop and its body */
#define LOOP(name, funcType, index, ...)                                                            \
    for (auto &index : ({                                                                           \
             (void)::npu::tile_fwk::RecordLoopFunc(name, funcType, #index, ##__VA_ARGS__);          \
             ::npu::tile_fwk::pc_stub::LoopMarker();                                                \
         }))
/* IF: the condition is a real expression, the first statement of a statement expression whose
 * value is the marker: an error in the condition drops that statement only, never the IF */
#define IF(...) if (({ (void)(__VA_ARGS__); ::npu::tile_fwk::pc_stub::IfMarker(); }))
#define ELSE else
#define UNROLL(...)                                                                                 \
    if (({ (void)::npu::tile_fwk::pc_stub::UnrollTimes(__VA_ARGS__); ::npu::tile_fwk::pc_stub::UnrollMarker(); }))
#define UNROLL_DEFAULT                                                                              \
    if (({ (void)::npu::tile_fwk::pc_stub::UnrollTimes(1); ::npu::tile_fwk::pc_stub::UnrollMarker(); }))

/* Defines the internal program header sets (as upstream's build does); tests guard blocks with them. */
#ifndef ENABLE_HIDDENLOOP
#define ENABLE_HIDDENLOOP 1
#endif

/* ---- gtest shims: upstream kernels mostly live in TEST / TEST_F bodies ------------------------ */
#include "poolcheck_stub_gtest.h"

/* ============================================================================================
 * Fallbacks for headers stub mode cannot find.
 * ========================================================================================== */
/* PyPTO's kernels get `using namespace npu::tile_fwk;` from the project's or the test suite's own
 * headers (upstream: test_suite_stest_ops.h and friends, reached through the build's -I list).
 * Run without flags, those are missing, and every unqualified Tensor, DataType or SymbolicScalar
 * would be an error that drops the statement: the stub stands in for that using-directive too. */
using namespace npu::tile_fwk;

/* interface/tensor/float.h: the 16-bit float element types test data is written in */
namespace npu {
namespace tile_fwk {
template <int Exp, int Frac> class PcStubFloat16 {
    uint16_t bits_;
public:
    PcStubFloat16();
    PcStubFloat16(float v);
    PcStubFloat16(double v);
    PcStubFloat16(int v);
    operator float() const;
    static PcStubFloat16 FromBits(uint16_t b);
    template <typename T> PcStubFloat16 &operator+=(T v);
    template <typename T> PcStubFloat16 &operator-=(T v);
    template <typename T> PcStubFloat16 &operator*=(T v);
    template <typename T> PcStubFloat16 &operator/=(T v);
};
using float16 = PcStubFloat16<5, 10>;
using bfloat16 = PcStubFloat16<8, 7>;

/* interface/configs/config_manager.h: the configuration keys and setters tests call */
extern const std::string KEY_STD_LOG_LEVEL, KEY_FILE_LOG_LEVEL, KEY_GRAPH_FILE_TYPE, KEY_GRAPH_ONLY_DOT, KEY_ENABLE_COST_MODEL;
extern const std::string KEY_ENABLE_DYN_FULL_COST_MODEL, KEY_ENABLE_AIHAC_BACKEND, KEY_ENABLE_CHECKER, KEY_DUMP_SOURCE_LOCATION;
extern const std::string KEY_ENABLE_PROF_FUNC, KEY_ENABLE_PROF_AICORE_TIME, KEY_ENABLE_PROF_AICORE_PMU, KEY_ENABLE_DYN_COST_MODEL;
extern const std::string KEY_TEST_IS_TIG, KEY_BUILD_TASK_BASED_TOPO, KEY_SIM_MODE, KEY_ACCURACY_LEVEL, KEY_DEBUG_SINGLE_FUNC;
extern const std::string KEY_DEBUG_SINGLE_FUNCNAME, KEY_DRAW_FUNCTION_GRAPH, KEY_LOG_LEVEL, KEY_EXECUTE_CYCLE_THRESHOLD;
extern const std::string KEY_JSON_PATH, KEY_AGENT_JSON_PATH, KEY_ARGS, KEY_STRATEGY, KEY_ENABLE_BINARY_CACHE;
extern const std::string KEY_PRINT_GRAPH, KEY_PRINT_PROGRAM, KEY_DUMP_GRAPH, KEY_DUMP_PASS_TIME_COST, KEY_PRE_CHECK;
extern const std::string KEY_POST_CHECK, KEY_EXPECTED_VALUE_CHECK, KEY_DISABLE_PASS, KEY_HEALTH_CHECK, KEY_ADDR_CHECK;
extern const std::string KEY_RESUME_PARH, KEY_EXEC_VERIFIER, KEY_SET_SCOPE, KEY_ENABLE_CV_FUSE, KEY_PASS_THREAD_NUM;
extern const std::string KEY_VF_OPT_MARK_FOR, KEY_ENABLE_VF, KEY_PARALLEL_COMPILE, KEY_FIXED_OUTPUT_PATH, KEY_FORCE_OVERWRITE;
extern const std::string KEY_CODEGEN_SUPPORT_TILE_TENSOR, KEY_ENABLE_PMU_TRACE;
namespace config {
template <typename T> void SetPlatformConfig(const std::string &key, const T &value);
template <typename T> void SetHostConfig(const std::string &key, const T &value);
template <typename T> void SetSimConfig(const std::string &key, const T &value);
template <typename T> void SetCodeGenConfig(const std::string &key, const T &value);
template <typename T> void SetPassGlobalConfig(const std::string &key, const T &value);
template <typename T> void SetPassDefaultConfig(const std::string &key, const T &value);
template <typename T>
void SetPassConfig(const std::string &strategy, const std::string &identifier, const std::string &key, const T &value);
template <typename T> T GetPlatformConfig(const std::string &key, const T &defaultValue);
template <typename T> T GetHostConfig(const std::string &key, const T &defaultValue);
template <typename T> T GetSimConfig(const std::string &key, const T &defaultValue);
template <typename T> T GetPassGlobalConfig(const std::string &key, const T &defaultValue);
template <typename T> T GetCodeGenConfig(const std::string &key, const T &defaultValue);
template <typename T>
T GetPassConfig(const std::string &strategy, const std::string &identifier, const std::string &key, const T &defaultValue);
} // namespace config

/* interface/utils/common.h: the integer helpers tests size their tiles with (constexpr here, so
 * that clang folds them) */
constexpr int CeilDiv(int a, int b) { return b == 0 ? 0 : (a % b == 0 ? a / b : a / b + 1); }
constexpr int FloorDiv(int a, int b) { return b == 0 ? 0 : a / b; }
std::set<int> PowersOf2(int n); /* an unroll list: the powers of two up to n */
constexpr const int BLOCK_SIZE = 32;

/* tilefwk/error_code.h: an enumerator's value, for error codes and option values */
template <typename T> constexpr __underlying_type(T) ToUnderlying(T value) { return static_cast<__underlying_type(T)>(value); }

/* tilefwk/error.h: the exception a failed ASSERT throws (tests EXPECT_THROW it) */
class Error : public std::exception {
public:
    Error(const char *func, const char *file, size_t line, const std::string &msg);
    const char *what() const noexcept override;
    std::string DiagnosticWithBacktrace() const;
};

/* tilefwk/error.h: ASSERT(cond) << "message" and its variants (an optional error code first) */
namespace pc_stub {
/* the message a failed ASSERT carries (upstream's ErrorMessage): what a std::ostream takes, a
 * std::vector of such values, and the stream manipulators */
struct AssertStream {
    template <class T, class = decltype(std::declval<std::ostream &>() << std::declval<const T &>())>
    AssertStream &operator<<(const T &value);
    template <class T> AssertStream &operator<<(const std::vector<T> &vec);
    AssertStream &operator<<(std::ostream &(*manipulator)(std::ostream &));
};
AssertStream AssertCheck(bool cond);
} // namespace pc_stub

/* interface/interpreter/raw_tensor_data.h: host-side tensor data of the tests' golden checks */
class RawTensorData {
public:
    RawTensorData();
    RawTensorData(DataType dataType, const std::vector<int64_t> &shape);
    template <typename T> static std::shared_ptr<RawTensorData> CreateConstantTensor(const Tensor &t, T value);
    template <typename T> static std::shared_ptr<RawTensorData> CreateTensor(const Tensor &t, const std::vector<T> &values);
    template <typename T>
    static std::shared_ptr<RawTensorData> CreateConstantTensorData(const Shape &shape, DataType dType, T value);
    template <typename T>
    static std::shared_ptr<RawTensorData> CreateTensorData(const Shape &shape, DataType dType, const std::vector<T> &values);
    static std::shared_ptr<RawTensorData> CreateTensor(DataType dtype, const std::vector<int64_t> &shape, uint8_t *data);
    static std::shared_ptr<RawTensorData> CreateTensorZero(const Tensor &t);
    DataType GetDataType() const;
    const std::vector<int64_t> &GetShape() const;
    size_t GetSize() const;
    size_t GetDataSize() const;
    uint8_t *data();
    uint8_t *GetDevPtr();
    template <typename T> T *GetData();
    template <typename T> T &Get(size_t i);
};
using RawTensorDataPtr = std::shared_ptr<RawTensorData>;
struct ProgramData {
    RawTensorDataPtr GetInputData(int idx);
    RawTensorDataPtr GetOutputData(int idx);
    RawTensorDataPtr GetGoldenData(int idx);
    std::vector<RawTensorDataPtr> &GetInputDataList();
    std::vector<RawTensorDataPtr> &GetOutputDataList();
    std::vector<RawTensorDataPtr> &GetGoldenDataList();
    void AppendInput(RawTensorDataPtr data);
    void AppendInputs(const std::vector<RawTensorDataPtr> &dataList);
    void AppendOutput(RawTensorDataPtr data);
    void AppendOutputs(const std::vector<RawTensorDataPtr> &dataList);
    void AppendGolden(RawTensorDataPtr data);
    void AppendGoldens(const std::vector<RawTensorDataPtr> &dataList);
    void PrepareData(const std::vector<RawTensorDataPtr> inputs, const std::vector<RawTensorDataPtr> outputs,
                     const std::vector<RawTensorDataPtr> goldens);
    void Reset();
    static ProgramData &GetInstance();
};

/* interface/configs/config_manager_ng.h: the pass-verification keys */
extern const std::string KEY_ENABLE_PASS_VERIFY, KEY_PASS_VERIFY_SAVE_TENSOR, KEY_PASS_VERIFY_SAVE_TENSOR_DIR;
extern const std::string KEY_PASS_VERIFY_FILTER, KEY_PASS_VERIFY_ERROR_TOL, KEY_COMBINE_AXIS;

/* interface/program/program.h: Program, with Function and Operation, is in poolcheck_stub_internal.h */
} // namespace tile_fwk
} // namespace npu

/* tilefwk/pypto_fwk_log.h: the per-module logging macros (printf-like; not kernel work) */
#define FE_LOGD(...) ((void)0)
#define FE_LOGI(...) ((void)0)
#define FE_LOGW(...) ((void)0)
#define FE_LOGE(...) ((void)0)
#define PASS_LOGD(...) ((void)0)
#define PASS_LOGI(...) ((void)0)
#define PASS_LOGW(...) ((void)0)
#define PASS_LOGE(...) ((void)0)
#define CODEGEN_LOGD(...) ((void)0)
#define CODEGEN_LOGI(...) ((void)0)
#define CODEGEN_LOGW(...) ((void)0)
#define CODEGEN_LOGE(...) ((void)0)
#define MACHINE_LOGD(...) ((void)0)
#define MACHINE_LOGI(...) ((void)0)
#define MACHINE_LOGW(...) ((void)0)
#define MACHINE_LOGE(...) ((void)0)
#define DISTRIBUTED_LOGD(...) ((void)0)
#define DISTRIBUTED_LOGI(...) ((void)0)
#define DISTRIBUTED_LOGW(...) ((void)0)
#define DISTRIBUTED_LOGE(...) ((void)0)
#define SIMULATION_LOGD(...) ((void)0)
#define SIMULATION_LOGI(...) ((void)0)
#define SIMULATION_LOGW(...) ((void)0)
#define SIMULATION_LOGE(...) ((void)0)
#define VERIFY_LOGD(...) ((void)0)
#define VERIFY_LOGI(...) ((void)0)
#define VERIFY_LOGW(...) ((void)0)
#define VERIFY_LOGE(...) ((void)0)
#define COMPILER_LOGD(...) ((void)0)
#define COMPILER_LOGI(...) ((void)0)
#define COMPILER_LOGW(...) ((void)0)
#define COMPILER_LOGE(...) ((void)0)
#define ADAPTER_LOGD(...) ((void)0)
#define ADAPTER_LOGI(...) ((void)0)
#define ADAPTER_LOGW(...) ((void)0)
#define ADAPTER_LOGE(...) ((void)0)
#define PLATFORM_LOGD(...) ((void)0)
#define PLATFORM_LOGI(...) ((void)0)
#define PLATFORM_LOGW(...) ((void)0)
#define PLATFORM_LOGE(...) ((void)0)
#define MATMUL_LOGD(...) ((void)0)
#define MATMUL_LOGI(...) ((void)0)
#define MATMUL_LOGW(...) ((void)0)
#define MATMUL_LOGE(...) ((void)0)
#define CONV_LOGD(...) ((void)0)
#define CONV_LOGI(...) ((void)0)
#define CONV_LOGW(...) ((void)0)
#define CONV_LOGE(...) ((void)0)
#define VECTOR_LOGD(...) ((void)0)
#define VECTOR_LOGI(...) ((void)0)
#define VECTOR_LOGW(...) ((void)0)
#define VECTOR_LOGE(...) ((void)0)
#define PYPTO_LOGD(...) ((void)0)
#define PYPTO_LOGI(...) ((void)0)
#define PYPTO_LOGW(...) ((void)0)
#define PYPTO_LOGE(...) ((void)0)

/* interface/machine/device/tilefwk/aikernel_define.h: marks a deliberately unused value */
#ifndef UNUSED
#define UNUSED(n) (void)(n)
#endif

#define ASSERT(...) ::npu::tile_fwk::pc_stub::AssertCheck(static_cast<bool>((__VA_ARGS__)))
#define CHECK(...) ::npu::tile_fwk::pc_stub::AssertCheck(static_cast<bool>((__VA_ARGS__)))
#define FE_ASSERT(...) ASSERT(__VA_ARGS__)
#define PASS_ASSERT(...) ASSERT(__VA_ARGS__)
#define MACHINE_ASSERT(...) ASSERT(__VA_ARGS__)

/* The framework internals upstream's tests reach (poolcheck_stub_internal.h, _machine.h,
 * _codegen.h) are not here: include/poolcheck_stub_framework.h brings them in when the source
 * includes an upstream header outside the public API, so a plain kernel does not parse them. */

#endif /* POOLCHECK_TILEFWK_STUB_H */
