#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_internal.h - framework internals upstream unit tests reach (IR: Function, Operation, LogicalTensor, builders; passes; configs).
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own.
 *
 * Upstream's pass, interface and operator unit tests build graphs by hand: they create a Function,
 * add LogicalTensors and Operations through IRBuilder / PassOperationUtils, run a pass strategy and
 * look at the result.  None of that is kernel work (poolcheck models FUNCTION / LOOP bodies), but a
 * test file whose scaffolding does not parse has clang errors and its kernels sit among them.  So
 * the classes are declared here with the members those tests use, with upstream's names and
 * parameter and return types (framework/src/interface/{function,operation,tensor,program,configs},
 * passes/pass_mgr); private members tests read directly (upstream's tests build with access to
 * them) are public here.  Declarations only: nothing is executed or linked. */
#ifndef POOLCHECK_STUB_INTERNAL_H
#define POOLCHECK_STUB_INTERNAL_H

/* Json (nlohmann::json) is what the internals dump to and load from: the stand-in next to this
 * file, named by its path so that no include path (stub mode's, or the one poolcheck-cc's build
 * check compiles kernels against this directory with) can swap in the machine's own nlohmann. */
#include "include/nlohmann/json.hpp"

/* include/ir/span.h (namespace pypto::ir, which npu::tile_fwk sees through `using namespace pypto`):
 * the source span operations carry */
namespace pypto {
namespace ir {
class Span {
public:
    Span();
    Span(const std::string &file, int beginLine, int beginColumn, int endLine = -1, int endColumn = -1);
    const std::string &Filename() const;
    int BeginLine() const;
    std::string ToString() const;
    bool IsUnknown() const;
    static Span &Unknown();
};
/* include/ir/{core,type,expr,stmt}.h: the IR nodes an Operation is (a tensor-op statement with
 * result and dependency tokens) */
class IRNode {
public:
    explicit IRNode(Span s);
    virtual ~IRNode();
    const Span &GetSpan() const;
};
class Type {
public:
    virtual ~Type();
};
using TypePtr = std::shared_ptr<const Type>;
class UnknownType : public Type {};
using UnknownTypePtr = std::shared_ptr<const UnknownType>;
UnknownTypePtr GetUnknownType();
class Expr : public IRNode {
public:
    explicit Expr(Span s, TypePtr type = GetUnknownType());
};
using ExprPtr = std::shared_ptr<const Expr>;
class Var : public Expr {
public:
    Var(std::string name, TypePtr type, Span span);
    std::string name_;
};
using VarPtr = std::shared_ptr<const Var>;
class Stmt : public IRNode {
public:
    explicit Stmt(Span s);
};
using StmtPtr = std::shared_ptr<const Stmt>;
class TensorOpStmt : public Stmt {
public:
    std::vector<VarPtr> result_;
    std::vector<VarPtr> result_token_;
    std::string opcode_;
    std::vector<ExprPtr> args_;
    std::vector<VarPtr> tokens_;
};
using TensorOpStmtPtr = std::shared_ptr<const TensorOpStmt>;
} // namespace ir
} // namespace pypto

namespace npu {
namespace tile_fwk {
using Json = nlohmann::json;

class Function;
class Operation;
class LogicalTensor;
using LogicalTensorPtr = std::shared_ptr<LogicalTensor>;
using LogicalTensors = std::vector<LogicalTensorPtr>;

/* interface/utils/common.h */
enum Status : uint32_t { SUCCESS = 0, FAILED = 1, WARNING = 2 };
constexpr const int NUM2 = 2;
constexpr const int NUM3 = 3;
constexpr const int NUM4 = 4;
constexpr const int NUM1 = 1;
constexpr const int NUM150 = 150;
constexpr const int NUM16 = 16;
constexpr const int REPEAT_BLOCK_NUM = 64;
constexpr const int BLOCK_NUM = 8;
constexpr const int SHAPE_DIM4 = 4;
enum PipeType {
    PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4 = 7, PIPE_MTE5 = 8,
    PIPE_V2 = 9, PIPE_FIX = 10
};

/* tilefwk/error_code.h: the framework's error codes (the first argument of ASSERT(code, cond)) */
enum class FwkErr : uint32_t { PLATFORM_NOT_SUPPORTED, INVALID_FUNCTION, TASK_RUN_FAILED };

/* interface/configs/config_manager_ng.h: pass and host option keys, compile stages */
constexpr const char *ENABLE_SLICE = "enable_slice";
constexpr const char *SG_SET_SCOPE = "sg_set_scope";
constexpr const char *COMPILE_STAGE = "compile_stage";
constexpr int64_t CS_ALL_COMPLETE = 0;
constexpr int64_t CS_TENSOR_GRAPH = 1;
constexpr int64_t CS_TILE_GRAPH = 2;
constexpr int64_t CS_EXECUTE_GRAPH = 3;
/* (CS_CODEGEN_INSTRUCTION and CS_CODEGEN_BINARY are in poolcheck_stub_codegen.h) */
constexpr const char *SUPPORT_DYNAMIC_ALIGNED = "support_dynamic_aligned";
constexpr const char *MG_COPYIN_UPPER_BOUND = "mg_copyin_upper_bound";
constexpr const char *SG_PG_LOWER_BOUND = "pg_lower_bound";
constexpr const char *SG_PARALLEL_NUM = "pg_parallel_lower_bound";
constexpr const char *CUBE_L1_REUSE_SETTING = "cube_l1_reuse_setting";
constexpr const char *CUBE_NBUFFER_SETTING = "cube_nbuffer_setting";
constexpr const char *VEC_NBUFFER_SETTING = "vec_nbuffer_setting";
constexpr const char *COPYOUT_RESOLVE_COALESCING = "copyout_resolve_coalescing";
constexpr const char *CFG_COMPILE_DBEUG_MODE = "compile_debug_mode";
constexpr const char *CFG_RUNTIME_DBEUG_MODE = "runtime_debug_mode";
constexpr const char *CFG_DUMP_PASS_GRAPH = "dump_pass_graph";
constexpr int64_t CFG_DEBUG_NONE = 0;
constexpr int64_t CFG_DEBUG_ALL = 1;
constexpr int64_t CFG_COMPILE_FIXED_CCE = 2;

/* tilefwk/platform.h */
enum class NPUArch { DAV_1001 = 1001, DAV_2201 = 2201, DAV_3510 = 3510, DAV_3003 = 3003, DAV_3113 = 3113, DAV_UNKNOWN };
class SoC {
public:
    void SetNPUArch(NPUArch version);
    void SetNPUArch(const std::string &version);
    NPUArch GetNPUArch() const;
};
class Platform {
public:
    static Platform &Instance();
    SoC &GetSoc();
    void ReloadMemoryPaths(const std::string &socVersion);
};

/* interface/machine/device/tilefwk/aikernel_data.h */
enum class CoreType { AIV = 0, AIC = 1, MIX = 2, AICPU = 3, HUB = 4, GMATOMIC = 5, HUB_MIX = 6, INVALID = 20 };

/* interface/operation/opcode.h: the opcodes upstream's tests name */
enum class Opcode {
    OP_EXP, OP_NEG, OP_LOG1P, OP_PAD, OP_FILLPAD, OP_SQRT, OP_RECIPROCAL, OP_CAST, OP_EXPAND, OP_ONEHOT,
    OP_LOGICALNOT, OP_ROWSUMLINE, OP_ROWMAXLINE, OP_ROWPRODLINE, OP_ADDS, OP_MULS, OP_DIVS, OP_TRANSPOSE_MOVEIN,
    OP_TRANSPOSE_MOVEOUT, OP_TRANSPOSE_VNCHWCONV, OP_NCHW2NC1HWC0, OP_NCHW2F, OP_NC1HWC02NCHW, OP_ABS,
    OP_PERMUTE, OP_PERMUTE_ELEMENT, OP_LN, OP_HUB, OP_BRCB, OP_ERFC, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_MAXIMUM, OP_EXPANDEXPDIF, OP_GATHER_FROM_UB, OP_SCATTER_ELEMENT, OP_SCATTER, OP_INDEX_PUT, OP_CUM_SUM,
    OP_PAIRMAX, OP_PAIRSUM, OP_PAIRPROD, OP_PAIRARGMAX, OP_ROWMAX_SINGLE, OP_ROWSUM_SINGLE,
    OP_ROWARGMAXWITHVALUE_SINGLE, OP_ONLINE_SOFTMAX, OP_CMP, OP_CMPS, OP_PRELU, OP_WHERE_TT, OP_WHERE_TS,
    OP_WHERE_ST, OP_WHERE_SS, OP_LOGICALAND, OP_FLOORDIV, OP_FLOORDIVS, OP_AXPY, OP_A_MUL_B, OP_A_MULACC_B,
    OP_A_MUL_BT, OP_AT_MUL_B, OP_AT_MUL_BT, OP_CONV2D, OP_FAKE_TRANS, OP_L1_TO_L0A, OP_L1_TO_L0B, OP_L1_TO_BT,
    OP_L1_COPY_IN_CONV, OP_LOAD3D_CONV, OP_LOAD2D_CONV, OP_L0C_COPY_OUT_CONV, OP_DUPLICATE, OP_RESHAPE,
    OP_RESHAPE_COPY_IN, OP_RESHAPE_COPY_OUT, OP_L1_RESHAPE_COPY_IN, OP_L0C_RESHAPE_COPY_OUT, OP_ASSEMBLE,
    OP_CONTRACT, OP_VIEW, OP_SLICE, OP_VIEW_TYPE, OP_ATOMIC_RMW, OP_INDEX_OUTCAST, OP_REGISTER_COPY, OP_CONVERT,
    OP_COPY_IN, OP_COPY_OUT, OP_GATHER_IN_L1, OP_GATHER_IN_UB, OP_CALL, OP_PRINT, OP_NOP, OP_UB_ALLOC,
    OP_UB_COPY_IN, OP_UB_COPY_OUT, OP_VEC_DUP, OP_L1_ALLOC, OP_L0A_ALLOC, OP_L0B_ALLOC, OP_L0C_ALLOC,
    OP_FIX_ALLOC, OP_BT_ALLOC, OP_L1_COPY_IN, OP_L1_COPY_IN_FRACTAL_Z, OP_L1_COPY_OUT, OP_L0C_COPY_OUT,
    OP_L1_TO_L0_AT, OP_L1_TO_L0_BT, OP_L1_TO_FIX, OP_L1_TO_FIX_QUANT_PRE, OP_L1_TO_FIX_RELU_PRE,
    OP_L1_TO_FIX_RELU_POST, OP_L1_TO_FIX_QUANT_POST, OP_L1_TO_FIX_ELT_ANTIQ, OP_L1_TO_FIX_MTE2_ANTIQ,
    OP_L1_COPY_UB, OP_L0C_COPY_UB, OP_L0C_COPY_UB_DUAL_DST, OP_UB_COPY_L1, OP_L0C_TO_L1, OP_UB_COPY_ND2NZ,
    OP_SYNC_SRC, OP_SYNC_DST, OP_CV_SYNC_SRC, OP_CV_SYNC_DST, OP_FFTS_CROSS_CORE_SYNC, OP_WAIT_FLAG_DEV,
    OP_PHASE1, OP_PHASE2, OP_BAR_V, OP_BAR_M, OP_BAR_ALL, OP_SHMEM_WAIT_UNTIL, OP_SHMEM_GET, OP_SHMEM_LOAD,
    OP_TILEDMRGSORT, OP_BITSORT, OP_MRGSORT, OP_EXTRACT, OP_TWOTILEMRGSORT, OP_EXTRACT_SINGLE, OP_RADIX_SELECT,
    OP_TOPK_SORT, OP_TOPK_MERGE, OP_TOPK_EXTRACT, OP_REDUCE_ACC, OP_AICPU_CALL_AIV, OP_RANGE, OP_UNIFORM
};
class OpcodeManager {
public:
    static OpcodeManager &Inst();
    const std::vector<MemoryType> &GetInputsMemType(Opcode opcode) const;
};

/* interface/cache/hash.h */
class FunctionHash : public std::string {
public:
    FunctionHash();
    FunctionHash(uint64_t hash);
    uint64_t GetHash() const;
};

/* interface/tensor/tensor_offset.h */
class TensorOffset {
public:
    TensorOffset(const std::vector<int64_t> &offset, const std::vector<SymbolicScalar> &dynOffset);
    const std::vector<int64_t> &GetOffset() const;
    const std::vector<SymbolicScalar> &GetDynOffset() const;
};

/* interface/utils/serialization.h: the JSON dump's kinds and field names */
enum class Kind { T_KIND_RAW_TENSOR = 0, T_KIND_TENSOR = 1, T_KIND_OPERATION = 2, T_KIND_FUNCTION = 3 };
const std::string T_FIELD_KIND = "kind";
const std::string T_FIELD_RAWTENSOR = "rawtensor";

/* interface/tensor/symbolic_scalar.h: the expression tree behind a SymbolicScalar */
enum class SymbolicScalarKind { T_SCALAR_SYMBOLIC_IMMEDIATE, T_SCALAR_SYMBOLIC_SYMBOL, T_SCALAR_SYMBOLIC_EXPRESSION };
class RawSymbolicScalar {
public:
    SymbolicScalarKind Kind() const;
    bool IsImmediate() const;
    bool IsSymbol() const;
    bool IsExpression() const;
    std::string Dump() const;
};
class SymbolicClosure {
public:
    SymbolicClosure();
    virtual ~SymbolicClosure();
    void Insert(const std::string &name, ScalarImmediateType val);
    void Remove(const std::string &name);
    bool Has(const std::string &name) const;
    ScalarImmediateType Get(const std::string &name) const;
    ScalarImmediateType Evaluate(const SymbolicScalar &scalar) const;
    ScalarImmediateType Evaluate(const RawSymbolicScalarPtr &raw) const;
};
SymbolicScalar LoadSymbolicScalar(const Json &jval);
Json ToJson(const SymbolicScalar &sval);
Json ToJson(const Element &elem);
struct SymbolicExpressionTable {
    static std::string BuildExpression(const SymbolicScalar &ss);
};

/* interface/operation/attr_holder.h */
class AttrHolder {
public:
    bool HasAttr(const std::string &key) const;
    template <typename T> void SetAttr(const std::string &key, const T &value);
    template <typename T> bool GetAttr(const std::string &key, T &value) const;
    template <typename T> T *GetAttr(const std::string &key);
    std::string DumpAttr() const;
    std::string DumpAttr(const std::string &key) const;
    nlohmann::json DumpAttrJson() const;
    nlohmann::json DumpAttrJson(const std::string &key) const;
};

/* interface/tensor/raw_tensor.h */
class RawTensor {
public:
    int rawmagic;
    int memoryId;
    int actualRawmagic;
    Shape rawshape;
    std::vector<SymbolicScalar> dynRawShape;
    DataType datatype;
    TileOpFormat format;
    std::string symbol;
    uint64_t addrOffset;
    RawTensor(DataType t, std::vector<int64_t> tshape, TileOpFormat format = TileOpFormat::TILEOP_ND,
              std::string tname = "", int trawmagic = -1);
    Json DumpJson() const;
    static std::shared_ptr<RawTensor> LoadJson(const Json &rawTensorDump);
    std::string DumpSSA(bool showType = true, bool showSymbol = true) const;
    std::string Dump() const;
    int GetRawMagic() const;
    const std::string &GetSymbol() const;
    void SetSymbol(std::string s);
    DataType GetDataType() const;
    const Shape &GetRawShape() const;
    int64_t GetRawShapeSize() const;
    int64_t GetRawDataSize() const;
    const std::vector<SymbolicScalar> &GetDynRawShape() const;
    SymbolicScalar GetDynRawShape(int axis) const;
    void UpdateDynRawShape(const std::vector<SymbolicScalar> &dynShape);
    void UpdateRawShape(const std::vector<int64_t> &rawShape);
    void AddRefCount(int value);
    void SetRefCount(int value);
    int GetRefCount() const;
    void SetCachePolicy(CachePolicy policy, bool value);
    bool GetCachePolicy(CachePolicy policy) const;
};

/* interface/tensor/logical_tensor.h */
class TileRange {
public:
    size_t start;
    size_t end;
    int lifeStart;
    int lifeEnd;
    int memId;
    explicit TileRange(size_t s = 0, size_t e = 0, int id = -1);
    size_t Size() const;
    bool IsEmpty() const;
};
/* interface/tensor/storage.h: the workspace storage memory reuse gives a tensor */
class Storage {
public:
    MemoryType type_;
    int64_t id_;
    uint64_t start_;
    uint64_t length_;
    Storage(MemoryType type, int64_t id, uint64_t length);
};
class LogicalTensor : public AttrHolder {
public:
    struct CompareOp {
        bool operator()(const Operation *lhs, const Operation *rhs) const;
    };
    std::shared_ptr<RawTensor> tensor;
    Offset offset;
    Shape shape;
    Shape oriShape;
    std::vector<SymbolicScalar> dynOffset_;
    std::vector<SymbolicScalar> dynValidShape_;
    std::shared_ptr<Storage> storage_;
    int magic;
    TileRange memoryrange;
    int subGraphID;
    bool isSubGraphBoundary;
    NodeType nodetype;
    std::set<Operation *, CompareOp> producers_;
    std::set<Operation *, CompareOp> consumers_;
    LogicalTensor(Function &function, DataType t, Shape tshape, TileOpFormat tformat = TileOpFormat::TILEOP_ND,
                  std::string tname = "", NodeType tnodetype = NodeType::LOCAL);
    LogicalTensor(Function &function, DataType t, Shape tshape, std::vector<SymbolicScalar> tValidShape,
                  TileOpFormat tformat = TileOpFormat::TILEOP_ND, std::string tname = "",
                  NodeType tnodetype = NodeType::LOCAL);
    LogicalTensor(Function &function, std::shared_ptr<RawTensor> rawTensor, Offset toffset, Shape tshape);
    LogicalTensorPtr Clone(Function &dstFunc, bool create = false) const;
    Json DumpJson(Function &func, bool dumpRawTensor = true) const;
    static std::shared_ptr<LogicalTensor> LoadJson(Function &func, const std::unordered_map<int, std::shared_ptr<RawTensor>> &rawTensorDict,
                                                   const Json &tensorDump);
    std::string Dump() const;
    std::string DumpSSA(bool showType = true, bool showSymbol = true) const;
    DataType Datatype() const;
    std::string Symbol() const;
    TileOpFormat Format() const;
    int Id() const;
    MemoryType GetMemoryTypeOriginal() const;
    MemoryType GetMemoryTypeToBe() const;
    void SetMemoryTypeBoth(MemoryType t, bool force = false);
    void SetMemoryTypeOriginal(MemoryType t, bool force = false);
    void SetMemoryTypeToBe(MemoryType t);
    int GetMagic() const;
    void SetMagic(int m);
    int GetRawMagic() const;
    std::shared_ptr<RawTensor> GetRawTensor() const;
    const Offset &GetOffset() const;
    const Shape &GetShape() const;
    void UpdateOffset(const Offset &newOffset);
    void UpdateOffset(const TensorOffset &tensorOffset);
    const TensorOffset GetTensorOffset() const;
    void UpdateDynValidShape(const std::vector<SymbolicScalar> &dynValidShape);
    std::set<Operation *, CompareOp> &GetProducers();
    std::set<Operation *, CompareOp> &GetConsumers();
    const std::set<Operation *, CompareOp> &GetProducers() const;
    const std::set<Operation *, CompareOp> &GetConsumers() const;
    bool HasProducer(Operation *operation) const;
    bool HasProducer(Operation &operation) const;
    bool HasConsumer(Operation *operation) const;
    bool HasConsumer(Operation &operation) const;
    void AddProducer(Operation *operation);
    void AddConsumer(Operation *operation);
    void RemoveProducer(Operation *operation);
    void RemoveConsumer(Operation *operation);
    void AddProducer(Operation &operation);
    void AddConsumer(Operation &operation);
    void RemoveProducer(Operation &operation);
    void RemoveConsumer(Operation &operation);
    int64_t GetDataSize() const;
    const std::vector<SymbolicScalar> &GetDynOffset() const;
    const std::vector<SymbolicScalar> &GetDynValidShape() const;
    std::vector<SymbolicScalar> &GetDynValidShape();
};

/* passes/pass_utils/subfunc_utils.h: how a call op invokes its leaf function, and the root's
 * table of subgraph calls */
class SubfuncInvokeInfoTy {
public:
    int GetProgramId() const;
    CoreType GetGraphType() const;
};
class SubfuncTopologyInfoTy {
public:
    struct Entry {
        int esgId;
        int readyState;
        std::unordered_set<int> outGraph;
        uint32_t extType;
        uint32_t extParamNum;
        std::vector<int64_t> extParams;
    };
    void SetTableSize(const int n);
    const std::vector<Entry> &GetTopology() const;
    std::vector<int> GetSuccs(int esgId) const;
    std::vector<Entry> topology_;
};

/* interface/operation/attribute.h */
class OpAttribute {
public:
    virtual ~OpAttribute();
    virtual std::string Dump() const = 0;
    virtual std::shared_ptr<OpAttribute> Clone() const = 0;
};
enum class OpImmediateKind { T_SCALAR_INVALID, T_SCALAR_SPECIFIED, T_SCALAR_PARAMETER };
class OpImmediate {
public:
    OpImmediate();
    OpImmediate(OpImmediateKind kind, const SymbolicScalar &data);
    OpImmediate(OpImmediateKind kind, int data);
    explicit OpImmediate(const SymbolicScalar &value);
    static OpImmediate Specified(const SymbolicScalar &value);
    static std::vector<OpImmediate> Specified(const std::initializer_list<int64_t> &init);
    static std::vector<OpImmediate> Specified(const std::vector<int64_t> &value);
    static std::vector<OpImmediate> Specified(const std::vector<SymbolicScalar> &value);
    static std::vector<OpImmediate> Specified(const TensorOffset &offset);
    static OpImmediate Parameter(int index);
    static std::vector<SymbolicScalar> ToSpecified(const std::vector<OpImmediate> &value);
    bool IsSpecified() const;
    bool IsParameter() const;
    const SymbolicScalar &GetSpecifiedValue() const;
    int GetParameterIndex() const;
    std::string Dump() const;
};
class ViewOpAttribute : public OpAttribute {
public:
    explicit ViewOpAttribute(const Offset &fromOffset, const std::vector<SymbolicScalar> &fromDynOffset = {});
    explicit ViewOpAttribute(const Offset &fromOffset, const std::vector<SymbolicScalar> &fromDynOffset,
                             const std::vector<SymbolicScalar> &toDynValidShape);
    ViewOpAttribute(const Offset &fromOffset, MemoryType to, const std::vector<SymbolicScalar> &fromDynOffset = {},
                    const std::vector<SymbolicScalar> &toDynValidShape = {});
    std::string Dump() const override;
    std::shared_ptr<OpAttribute> Clone() const override;
    void SetToType(MemoryType to);
    MemoryType GetTo() const;
    Offset &GetFrom();
    const Offset &GetFromOffset() const;
    Offset &GetFromOffset();
    const std::vector<SymbolicScalar> &GetFromDynOffset() const;
    std::vector<SymbolicScalar> &GetFromDynOffset();
    void SetFromOffset(const Offset &fromOffset, const std::vector<SymbolicScalar> &fromDynOffset = {});
    TensorOffset GetFromTensorOffset() const;
    std::vector<SymbolicScalar> &GetToDynValidShape();
    void SetToDynValidShape(const std::vector<SymbolicScalar> &toDynValidShape);
};
class AssembleOpAttribute : public OpAttribute {
public:
    explicit AssembleOpAttribute(const Offset &toOffset, const std::vector<SymbolicScalar> &toDynOffset = {});
    AssembleOpAttribute(MemoryType from, const Offset &toOffset, const std::vector<SymbolicScalar> &toDynOffset = {},
                        const std::vector<SymbolicScalar> &fromDynValidShape = {});
    std::string Dump() const override;
    std::shared_ptr<OpAttribute> Clone() const override;
    void SetFromType(MemoryType from);
    MemoryType GetFrom() const;
    const Offset &GetToOffset() const;
    Offset &GetToOffset();
    const std::vector<SymbolicScalar> &GetToDynOffset() const;
    std::vector<SymbolicScalar> &GetToDynOffset();
    void SetToOffset(const Offset &toOffset, const std::vector<SymbolicScalar> &toDynOffset = {});
    std::vector<SymbolicScalar> &GetFromDynValidShape();
    void SetFromDynValidShape(std::vector<SymbolicScalar> &fromDynValidShape);
    TensorOffset GetToTensorOffset() const;
};
class CallOpAttribute : public OpAttribute {
public:
    CallOpAttribute();
    CallOpAttribute(const FunctionHash &calleeHash, const std::vector<std::vector<SymbolicScalar>> &argList,
                    const std::string &calleMagicName = "", const std::map<int, SymbolicScalar> &outIndexToExpr = {},
                    const std::vector<SymbolicScalar> &linearArgList = {});
    std::string Dump() const override;
    std::shared_ptr<OpAttribute> Clone() const override;
    const std::string &GetCalleeMagicName() const;
    const std::string &GetCalleeBracketName() const;
    int GetCalleeMagic() const;
    const FunctionHash &GetCalleeHash() const;
    void SetCalleeMagicName(const std::string &magicName);
    void SetCalleeHash(const FunctionHash &hash);
    const std::vector<std::vector<SymbolicScalar>> &GetArgList() const;
    std::vector<std::vector<SymbolicScalar>> &GetArgList();
    std::vector<SymbolicScalar> &GetLinearArgList();
    std::map<int, SymbolicScalar> &GetOutCastIndexToExpr();
    std::string DumpAttr(int idx = -1) const;
    std::shared_ptr<SubfuncInvokeInfoTy> invokeInfo_;
    int32_t wrapId;
};
class ConvertOpAttribute : public OpAttribute {
public:
    ConvertOpAttribute(MemoryType from, MemoryType to);
    std::string Dump() const override;
    std::shared_ptr<OpAttribute> Clone() const override;
    std::pair<MemoryType, MemoryType> GetConvertPath() const;
};
struct GmOutOfRangeCheckInfo {
    enum class AccessType : int64_t { READ_GM = 0, WRITE_GM = 1 };
    OpImmediate oneDimOffset;
    OpImmediate oneDimExtent;
    OpImmediate totalSize;
    AccessType accessType;
};
class CopyOpAttribute : public OpAttribute {
public:
    MemoryType from_;
    MemoryType to_;
    void SetGmOutOfRangeCheck(const GmOutOfRangeCheckInfo &info);
    const GmOutOfRangeCheckInfo *GetGmOutOfRangeCheck() const;
    CopyOpAttribute(MemoryType from, std::vector<OpImmediate> toOffset, std::vector<OpImmediate> shape,
                    std::vector<OpImmediate> rawShape, std::vector<OpImmediate> fromDynValidShape = {});
    CopyOpAttribute(std::vector<OpImmediate> fromOffset, MemoryType to, std::vector<OpImmediate> shape,
                    std::vector<OpImmediate> rawShape, std::vector<OpImmediate> toDynValidShape = {});
    std::string Dump() const override;
    std::shared_ptr<OpAttribute> Clone() const override;
    void SetFromOffset(std::vector<OpImmediate> fromOffset);
    void SetToOffset(std::vector<OpImmediate> toOffset);
    const std::vector<OpImmediate> &GetFromOffset() const;
    std::vector<OpImmediate> &GetFromOffset();
    const std::vector<OpImmediate> &GetToOffset() const;
    std::vector<OpImmediate> &GetToOffset();
    std::pair<MemoryType, std::vector<OpImmediate>> GetCopyOutAttr() const;
    std::pair<std::vector<OpImmediate>, MemoryType> GetCopyInAttr() const;
    bool IsCopyOut() const;
    const std::vector<OpImmediate> &GetShape() const;
    const std::vector<OpImmediate> &GetRawShape() const;
    std::vector<OpImmediate> &GetRawShape();
    const std::vector<OpImmediate> &GetToDynValidShape() const;
    std::vector<OpImmediate> &GetToDynValidShape();
    const std::vector<OpImmediate> &GetFromDynValidShape() const;
    std::vector<OpImmediate> &GetFromDynValidShape();
    std::vector<int64_t> GetSpecifiedShape(int64_t defaultValue) const;
    void SetShape(std::vector<OpImmediate> shape);
    void SetRawShape(std::vector<OpImmediate> rawShape);
    void SetToDynValidShape(std::vector<OpImmediate> toDynValidShape);
    void SetFromDynValidShape(std::vector<OpImmediate> fromDynValidShape);
};

/* interface/operation/operation_impl.h, passes/pass_utils/{pass_utils,pass_attr_defs}.h: attribute keys */
const std::string OP_ATTR_PREFIX = "op_attr_";
const std::string MATMUL_NZ_ATTR = OP_ATTR_PREFIX + "matmul_nz_attr";
const std::string A_MUL_B_ACT_M = OP_ATTR_PREFIX + "act_m";
const std::string A_MUL_B_ACT_K = OP_ATTR_PREFIX + "act_k";
const std::string A_MUL_B_ACT_N = OP_ATTR_PREFIX + "act_n";
const std::string A_MUL_B_TRANS_A = OP_ATTR_PREFIX + "trans_a";
const std::string A_MUL_B_TRANS_B = OP_ATTR_PREFIX + "trans_b";
const std::string A_MUL_B_SCALE_ATTR = OP_ATTR_PREFIX + "scale_value";
const std::string A_MUL_B_RELU_ATTR = OP_ATTR_PREFIX + "relu_type";
static const std::string RMW_MODE_ATTR_ADD = OP_ATTR_PREFIX + "atomic_add";
static const std::string RMW_MODE_ATTR_MIN = OP_ATTR_PREFIX + "atomic_min";
static const std::string RMW_MODE_ATTR_MAX = OP_ATTR_PREFIX + "atomic_max";
inline constexpr const char *OP_ATTR_VALID_SHAPE = "op_attr_validShape";

/* interface/operation/operation.h */
class OpAttributeKey {
public:
    static const std::string scalar;
    static const std::string isGlobalInput;
    static const std::string isCube;
    static const std::string inplaceInfo;
    static const std::string startOffset;
    static const std::string brcbIdx;
    static const std::string copyInMode;
    static const std::string perm;
    static const std::string vecMergeHashOrder;
    static const std::string vecMergeSubgraphCount;
    static const std::string rmwMode;
    static const std::string transDataOffset;
    static const std::string writeConflict;
    static const std::string aicpuCall;
    static const std::string needAlloc;
    static const std::string expandDims;
    static const std::string inplaceIdx;
    static const std::string cacheMode;
    static const std::string panzBlockSize;
    static const std::string accumulate;
    static const std::string indicesSize;
    static const std::string brcOperand;
    static const std::string lastUse;
    static const std::string gmTensorParamIdxInCall;
};
/* the vector core an operation runs on, and the synchronisation it takes part in (operation_common.h) */
enum class AIVCore { UNSPECIFIED = -1, AIV0 = 0, AIV1 = 1 };
class OpSyncQueue {
public:
    OpSyncQueue();
    OpSyncQueue(PipeType pipeId, PipeType trigPipeId, CoreType coreType, CoreType tirgCoreType, int evid,
                AIVCore setAivCore, AIVCore waitAivCore);
    OpSyncQueue(int bufid, const std::vector<int> &offset, CoreType coreType, CoreType tirgCoreType);
    PipeType pipeId_;
    PipeType trigPipeId_;
    CoreType coreType_;
    CoreType trigCoreType_;
    int eventId_;
    AIVCore setAivCore_;
    AIVCore waitAivCore_;
    int gMBufId;
};
class Operation : public ir::TensorOpStmt, public AttrHolder {
public:
    struct ScopeInfo {
        int scopeId;
        bool allowParallelMerge;
        bool allowCrossScopeMerge;
        int cvFuseId;
        ScopeInfo();
        explicit ScopeInfo(int id);
        static ScopeInfo FromConfig(const std::vector<int64_t> &config);
    };
    LogicalTensors iOperand;
    LogicalTensors oOperand;
    LogicalTensors dependOperand;
    int opmagic;
    ScopeInfo scopeInfo_;
    TileShape tileShape_;
    OpSyncQueue syncQueue_;
    const OpSyncQueue &GetSyncQueue() const;
    void SetIOpAtt(int pos, int offset);
    void SetOOpAtt(int pos, int offset, int attr = 0);
    int GetIOpAttrOffset(int pos) const;
    int GetOOpAttrOffset(int pos) const;
    AIVCore GetAIVCore() const;
    void SetAIVCore(AIVCore aivCore);
    Operation(Function &cur, Opcode opcode, LogicalTensors iOperands, LogicalTensors oOperands, int opMagic = -1);
    Operation(Function &cur, Opcode opcode);
    Function *BelongTo() const;
    const TileShape &GetTileShape() const;
    void UpdateTileShape(const TileShape newTileShape);
    TileShape &GetTileShapeForSetting();
    std::string GetStringAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, const std::string &value);
    void SetAttribute(const std::string &key, const char *value);
    bool GetBoolAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, bool value);
    int64_t GetIntAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, int64_t value);
    void SetAttribute(const std::string &key, int value);
    Element GetElementAttribute(const std::string &key) const;
    std::vector<Element> GetVectorElementAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, Element value);
    template <typename T> std::vector<T> GetVectorIntAttribute(const std::string &key) const;
    template <typename T> void SetAttribute(const std::string &key, const std::vector<T> &value);
    CastMode GetCastModeAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, CastMode value);
    SymbolicScalar GetSymbolicScalarAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, const SymbolicScalar &value);
    std::vector<SymbolicScalar> GetVectorSymbolicScalarAttribute(const std::string &key) const;
    void SetAttribute(const std::string &key, const std::vector<SymbolicScalar> &value);
    bool HasAttribute(const std::string &key) const;
    Json DumpJson(bool dumpTensor = true) const;
    std::string DumpSSA(const std::string &prefix = "") const;
    std::string Dump() const;
    int GetOpMagic() const;
    const LogicalTensors &GetIOperands() const;
    LogicalTensors &GetIOperands();
    const LogicalTensors &GetOOperands() const;
    LogicalTensors &GetOOperands();
    const LogicalTensors &GetDependOperands() const;
    LogicalTensors &GetDependOperands();
    void AddDependOperand(LogicalTensorPtr dependoperand);
    size_t GetInputOperandSize() const;
    size_t GetOutputOperandSize() const;
    LogicalTensorPtr GetInputOperand(const size_t index) const;
    LogicalTensorPtr GetOutputOperand(const size_t index) const;
    int GetIOperandIndex(const LogicalTensorPtr &ioperand) const;
    int GetOOperandIndex(const LogicalTensorPtr &ooperand) const;
    void ReplaceInputOperand(const LogicalTensorPtr &originInput, const LogicalTensorPtr &newInput);
    void ReplaceOutputOperand(const LogicalTensorPtr &originOutput, const LogicalTensorPtr &newOutput);
    void UpdateInputOperand(const size_t index, const std::shared_ptr<LogicalTensor> &newInput);
    void UpdateOutputOperand(const size_t index, const std::shared_ptr<LogicalTensor> &newOutput);
    std::unordered_set<Operation *> ConsumerOps() const;
    std::unordered_set<Operation *> ProducerOps() const;
    std::unordered_set<Operation *> ConsumerOpsByToken() const;
    std::unordered_set<Operation *> ProducerOpsByToken() const;
    const std::unordered_set<Operation *> &GetInCtrlOperations() const;
    const std::unordered_set<Operation *> &GetOutCtrlOperations() const;
    void SetScopeId(int scopeId);
    void SetScopeInfo(const ScopeInfo &info);
    const ScopeInfo &GetScopeInfo() const;
    int GetScopeId() const;
    bool GetAllowParallelMerge() const;
    bool GetAllowCrossScopeMerge() const;
    void AddInCtrlOperation(Operation &operation);
    void RemoveInCtrlOperation(Operation &operation);
    void AddOutCtrlOperation(Operation &operation);
    void RemoveOutCtrlOperation(Operation &operation);
    Operation &CloneOperation(Function &func, const LogicalTensors &iOperandList,
                              const LogicalTensors &oOperandList) const;
    std::string GetOpcodeStr(bool appendTile = false) const;
    CoreType GetCoreType() const;
    void SetCoreType(CoreType ct);
    unsigned long ComputeHash();
    bool IsCall() const;
    bool IsNOP() const;
    const std::shared_ptr<OpAttribute> &GetOpAttribute() const;
    std::shared_ptr<OpAttribute> &GetOpAttribute();
    void SetOpAttribute(const std::shared_ptr<OpAttribute> &attr);
    std::string GetCalleeMagicName() const;
    void EraseInput(const std::shared_ptr<LogicalTensor> &input);
    void ReplaceInput(const std::shared_ptr<LogicalTensor> &newInput, const std::shared_ptr<LogicalTensor> &oldInput);
    void ReplaceOutput(const std::shared_ptr<LogicalTensor> &newOutput, const std::shared_ptr<LogicalTensor> &oldOutput);
    Opcode GetOpcode() const;
    void SetOpCode(Opcode opcode);
    int GetSubgraphID() const;
    void UpdateSubgraphID(int subgraphID);
    void SetHashOrderInfo(const std::string &hashOrderKey, const std::string &countKey, const std::string &hashOrder,
                          size_t count);
    std::pair<std::string, size_t> GetHashOrderInfo(const std::string &hashOrderKey, const std::string &countKey) const;
    void SetAsDeleted();
    void SetAsNotDeleted();
    bool IsDeleted() const;
    int GetProgramId();
    SubfuncInvokeInfoTy &GetSubFuncInvokeInfo();
};
using OperationPtr = std::shared_ptr<Operation>;

bool IsCopyIn(const Opcode &op);
bool IsCopyOut(const Opcode &op);
bool IsViewLike(Opcode op);
bool IsAssembleLike(Opcode op);

/* interface/function/function.h */
enum class GraphType { TENSOR_GRAPH, TILE_GRAPH, EXECUTE_GRAPH, BLOCK_GRAPH, LEAF_VF_GRAPH, INVALID };
class OperationsViewer {
public:
    class IteratorDelimiter {};
    class Iterator {
    public:
        void operator++();
        void operator++(int);
        Operation &operator*() const;
        Operation *operator->() const;
        bool operator==(const IteratorDelimiter &) const;
        bool operator!=(const IteratorDelimiter &) const;
    };
    size_t size() const;
    Iterator begin() const;
    static IteratorDelimiter end();
    const std::vector<std::shared_ptr<Operation>> &operations_;
    Operation &at(size_t index) const;
    Operation &back() const;
    Operation &operator[](const size_t index) const;
    std::vector<Operation *> DuplicatedOpList() const;
    bool Contains(const Operation &op) const;
    int GetOpPosition(const Operation &op) const;
    bool IsEmpty() const;
};
/* the function-level tables of a dynamic (device) function tests read back */
struct DyndevFunctionAttribute {
    std::unordered_map<std::string, ScalarImmediateType> inputSymbolDict;
    SymbolicScalar maxDynamicAssembleOutcastMem;
    SymbolicScalar maxDynamicCellMatchTableMem;
    std::vector<uint8_t> disableL2List;
    std::vector<std::string> commGroupNames;
    std::vector<uint8_t> devProgBinary;
};
/* the producers and consumers of each dependency token of a function */
class VarDependency {
public:
    void AddProducer(ir::VarPtr var, ir::StmtPtr producer);
    void AddConsumer(ir::VarPtr var, ir::StmtPtr consumer);
    void RemoveProducer(ir::VarPtr var, ir::StmtPtr producer);
    void RemoveConsumer(ir::VarPtr var, ir::StmtPtr consumer);
    void RemoveVar(ir::VarPtr var);
    void Clear();
};
struct DynloopFunctionPathNode {
    SymbolicScalar cond;
    std::shared_ptr<DynloopFunctionPathNode> branchNodeList[2];
    std::string Dump() const;
};
struct DynloopFunctionPath {
    Function *root;
    Operation *callop;
};
struct DynloopFunctionAttribute {
    std::string iterSymbolName;
    bool submitBeforeLoop;
    bool parallel;
    int unrollTimes;
    std::vector<DynloopFunctionPath> pathList;
    std::shared_ptr<DynloopFunctionPathNode> BuildPathNode();
    std::string DumpBranch() const;
};
struct LeafFuncAttribute {
    static constexpr int32_t INVALID_MIX_ID = -1;
    CoreType coreType;
    int32_t mixId;
    std::string kernelName;
    std::string kernelNameMainBlock;
    std::string binPath;
    std::string binPathMainBlock;
};
enum class DynParamInfoType;
struct DynParamInfo {
    int dimSize;
    int tensorIndex;
    int tensorBaseAddrCoaIndex;
    DynParamInfoType type;
    int dimIndex;
    SymbolicScalar dim;
    bool isBaseParam;
    std::string replacedSymbol;
};
struct ParamConfigs {
    bool dynamicAlignedOps;
    int sgPgLowerBound;
    int sgParallelNum;
    int sgMgCopyInUpperBound;
    std::string sgPartitionAlgorithm;
    std::map<int64_t, int64_t> cubeL1ReuseSetting;
    std::map<int64_t, int64_t> cubeNBufferSetting;
    std::string OoOPreScheduleMethod;
    int mgVecParallelLb;
    bool combineAxis;
};
class TensorSlotScope;
class Program;
class Function {
public:
    std::vector<std::shared_ptr<LogicalTensor>> inCasts_;
    std::vector<std::shared_ptr<LogicalTensor>> outCasts_;
    std::vector<std::shared_ptr<Operation>> operations_;
    std::map<uint64_t, Function *> programs_;
    Function *rootFunc_;
    ParamConfigs paramConfigs_;
    SubfuncTopologyInfoTy topoInfo_;
    Function(const Program &belongTo, const std::string &funcMagicName, const std::string &funcRawName,
             Function *parentFunc);
    Function(const Function &other) = delete;
    OperationsViewer Operations(bool sorted = true);
    void ResetOperations();
    Operation &AddOperation(const std::string &opName, LogicalTensors iOperands, const LogicalTensors &oOperands);
    Operation &AddOperation(const Opcode opCode, LogicalTensors iOperands, const LogicalTensors &oOperands);
    Operation &AddRawOperation(const Opcode opCode, const LogicalTensors &iOperands, const LogicalTensors &oOperands,
                               bool updateTensorMap = true);
    FunctionHash ComputeHash();
    FunctionHash GetFunctionHash() const;
    std::vector<std::shared_ptr<CallOpAttribute>> GetCallopAttrList() const;
    std::vector<Function *> GetCalleeFunctionList() const;
    Function *GetRootFunction() const;
    void DumpJsonFile(std::string fileName = "");
    Json DumpJson(bool useTable = true);
    static std::shared_ptr<Function> LoadJson(Program &belongTo, const Json &funcJson);
    std::string Dump() const;
    void ValidCheck() const;
    size_t GetOperationSize() const;
    const std::string &GetMagicName() const;
    const std::string &GetRawName() const;
    int GetFuncMagic() const;
    size_t GetTotalSubGraphCount() const;
    void SetTotalSubGraphCount(const size_t totalSubGraphCount);
    const std::vector<std::shared_ptr<LogicalTensor>> &GetOriginIncast() const;
    const std::vector<std::shared_ptr<LogicalTensor>> &GetOriginOutcast() const;
    const std::vector<std::shared_ptr<LogicalTensor>> &GetIncast() const;
    const std::vector<std::shared_ptr<LogicalTensor>> &GetOutcast() const;
    FunctionType GetFunctionType() const;
    void SetFunctionType(FunctionType type);
    GraphType GetGraphType() const;
    void SetGraphType(GraphType type);
    bool IsGraphType(GraphType type) const;
    bool IsGraphType(std::set<GraphType> types) const;
    Operation *GetOpByOpMagic(const int opMagic) const;
    bool IsFromOutCast(const std::shared_ptr<LogicalTensor> &tensor);
    static bool TensorReuse(const LogicalTensorPtr &dstTensor, const LogicalTensorPtr &srcTensor);
    const std::shared_ptr<DynloopFunctionAttribute> &GetDynloopAttribute() const;
    std::shared_ptr<DynloopFunctionAttribute> &GetDynloopAttribute();
    const std::shared_ptr<DyndevFunctionAttribute> &GetDyndevAttribute() const;
    std::shared_ptr<DyndevFunctionAttribute> &GetDyndevAttribute();
    const std::shared_ptr<TensorSlotScope> &GetSlotScope() const;
    std::shared_ptr<TensorSlotScope> &GetSlotScope();
    size_t GetReadySubGraphCount(CoreType coreType) const;
    bool InsertLoopIdxNameList(const std::string &idxName);
    std::vector<std::shared_ptr<Operation>> GetLightweightSortedOperations() const;
    const std::map<std::string, DynParamInfo> &GetDynParamTable() const;
    bool IsUnderDynamicFunction() const;
    void SetUnderDynamicFunction(bool underDynamicFunciton);
    const std::shared_ptr<LeafFuncAttribute> &GetLeafFuncAttribute() const;
    std::shared_ptr<LeafFuncAttribute> &GetLeafFuncAttribute();
    void SetLeafFuncAttribute(const std::shared_ptr<LeafFuncAttribute> &attr);
    VarDependency &GetVarDependency();
    const VarDependency &GetVarDependency() const;
};

/* interface/cache/function_cache.h */
using HashKey = FunctionHash;
class FunctionCache {
public:
    FunctionCache();
    void Insert(const HashKey &key, Function &func);
    size_t Size();
    void Reset();
    Function *GetCacheFunction(const HashKey &key);
};

/* interface/tensor/tensor_slot.h: the slots the Program keeps tensors in while it records */
struct TensorSlot {
    TensorSlot();
};
struct IncastOutcastSlot {
    std::vector<std::vector<int>> incastSlot;
    std::vector<std::vector<int>> outcastSlot;
    std::vector<int> partialUpdateOutcastList;
};
struct TensorSlotScope {
    Function *tensorFunc;
    IncastOutcastSlot ioslot;
    IncastOutcastSlot originalIocastsSlot;
    explicit TensorSlotScope(Function *tfunc);
};
struct IncastOutcastLink {
    explicit IncastOutcastLink(int slotNum = 0);
    int totalSlot;
    std::unordered_map<Function *, IncastOutcastSlot> ioslotDict;
    std::vector<int> inputSlotIndexList;
    std::vector<int> outputSlotIndexList;
    std::vector<int> assembleSlotIndexList;
};
struct TensorSlotManager {
    void TensorSlotRead(const TensorSlot &slot, const std::shared_ptr<LogicalTensor> &tensor);
    std::vector<int> LookupSlotIndex(const std::vector<std::reference_wrapper<Tensor>> &tensorList);
    int GetOutputIndex(const Tensor &tensor);
    void Checkpoint();
    bool HasActiveCheckpoints() const;
    IncastOutcastLink BuildIncastOutcastLink(const std::string &rawname = "");
    std::string Dump() const;
};

/* interface/program/program.h */
class Program {
public:
    Function *lastFunc_;
    Function *currentDynamicFunctionPtr_;
    static Program &GetInstance();
    void Reset();
    void AbandonIncompleteRecording();
    bool HasIncompleteRecordingState() const;
    const std::map<std::string, std::shared_ptr<Function>> &GetFunctionMap() const;
    size_t FunctionMapSize() const;
    void InsertFuncToFunctionMap(const std::string &magicName, std::shared_ptr<Function> func);
    Function *GetFunctionByMagicName(const std::string &magicName) const;
    Function *GetFunctionByRawName(const std::string &rawName) const;
    Function *GetCurrentFunction();
    Function *GetCurrentDynamicFunction() const;
    void SetCurrentDynamicFunction(Function *dynFunc);
    Json DumpJson(Function *mainFunc = nullptr) const;
    void LoadJson(Json &programJson);
    void DumpJsonFile(const std::string &fileName, Function *mainFunc = nullptr);
    std::string DumpStack(const std::string &funcName = "") const;
    std::vector<std::reference_wrapper<RecordLoopFunc>> &GetLoopStack();
    void SetLastFunction(Function *func);
    Function *GetLastFunction() const;
    FunctionCache &GetFunctionCache();
    std::shared_ptr<TensorSlotManager> GetTensorSlotManager();
};

/* interface/tensor/irbuilder.h */
class IRContext {
public:
    IRContext(const IRContext &) = delete;
    static IRContext &Get();
    void Reset();
    void SetAssembleNewLogicalTensor(bool enabled);
    bool AssembleNewLogicalTensor() const;
};
class IRBuilder {
public:
    IRBuilder();
    IRBuilder(const IRBuilder &) = delete;
    std::shared_ptr<RawTensor> CreateRawTensor(DataType t, Shape shape, TileOpFormat format = TileOpFormat::TILEOP_ND,
                                               std::string name = "");
    std::shared_ptr<RawTensor> CreateRawTensor(DataType t, std::vector<SymbolicScalar> shape,
                                               TileOpFormat format = TileOpFormat::TILEOP_ND, std::string name = "");
    LogicalTensorPtr CreateTensorVar(DataType t, Shape shape, TileOpFormat format = TileOpFormat::TILEOP_ND,
                                     std::string name = "");
    LogicalTensorPtr CreateTensorVar(DataType t, Shape shape, std::vector<SymbolicScalar> validShape,
                                     TileOpFormat format = TileOpFormat::TILEOP_ND, std::string name = "");
    LogicalTensorPtr CreateTensorVar(std::shared_ptr<RawTensor> rawTensor, Offset offset, Shape shape,
                                     std::vector<SymbolicScalar> validShape = {});
    LogicalTensorPtr CreateTensorVar(Function &f, DataType t, Shape shape,
                                     TileOpFormat format = TileOpFormat::TILEOP_ND, std::string name = "");
    LogicalTensorPtr CreateTensorVar(Function &f, DataType t, Shape shape, std::vector<SymbolicScalar> validShape,
                                     TileOpFormat format = TileOpFormat::TILEOP_ND, std::string name = "");
    LogicalTensorPtr CreateTensorVar(Function &f, std::shared_ptr<RawTensor> rawTensor, Offset offset, Shape shape,
                                     std::vector<SymbolicScalar> validShape = {});
    Operation &CreateTensorOpStmt(Function &f, const Opcode opCode, const LogicalTensors &iOperands,
                                  const LogicalTensors &oOperands, ir::Span span = ir::Span::Unknown());
    SymbolicScalar CreateConstInt(int64_t value);
    SymbolicScalar CreateScalarVar(std::string sym);
    void Checkpoint();
};

/* passes/pass_interface/pass_type.h: the passes upstream's tests put into strategies */
enum class PassName {
    NOT_DEFINED, ADD_ALLOC, ASSIGN_MEMORY_TYPE, AUTO_CAST, AXIS_COMBINE, COMMON_OPERATION_ELIMINATE,
    COPY_OUT_RESOLVE, DUPLICATE_OP, EXPAND_FUNCTION, GENERATE_MOVE_OP, GLOBAL_MEMORY_REUSE, GRAPH_PARTITION,
    INFER_DISCONTINUOUS_INPUT, INFER_DYN_SHAPE, INFER_MEMORY_CONFLICT, INFER_PARAM_INDEX, INFER_TENSOR_FORMAT,
    INSERT_OP_FOR_VIEWASSEMBLE, INSERT_SYNC, INTRA_SUBGRAPH_ADAPTER, L1_COPY_IN_REUSE_MERGE, LAST_USE_MARK,
    MERGE_VIEW_ASSEMBLE, N_BUFFER_MERGE, OOO_SCHEDULE, PAD_LOCAL_BUFFER, PRE_GRAPH_PROCESS, PROCESS_ATOMIC,
    REDUCE_COPY_MERGE, REMOVE_ALLOC, REMOVE_REDUNDANT_OP, REMOVE_REDUNDANT_RESHAPE, REMOVE_UNALIGNED_RESHAPE,
    REMOVE_UNDRIVEN_VIEW, REPLACE_TENSOR, SPLIT_LARGE_FANOUT_TENSOR, SPLIT_RAW_TENSOR, SPLIT_RESHAPE,
    SRC_DST_BUFFER_MERGE, SUBGRAPH_TO_FUNCTION
};

/* passes/pass_mgr/pass_manager.h */
class PassManager {
public:
    static PassManager &Instance();
    PassManager(const PassManager &) = delete;
    Status RunPass(Program &program, Function &function, const std::string &strategy) const;
    void ResetAllPasses();
    struct PassEntry {
        std::string identifier;
        PassName passName;
        PassEntry(std::string id, PassName name);
    };
    void RegisterStrategy(const std::string &strategy, const std::vector<PassEntry> &passEntries);
};

/* passes/pass_utils/pass_operation_utils.h */
class PassOperationUtils {
public:
    static Operation &AddOperation(Function &function, Opcode opCode, LogicalTensors iOperands,
                                   const LogicalTensors &oOperands,
                                   std::function<void(Operation &)> beforeInferShapeHandler = nullptr,
                                   const ir::Span &span = ir::Span::Unknown(), bool inferShape = true);
};

/* interface/operation/tile_shape_resolver.h */
class TileShapeResolver {
public:
    static TileShapeResolver &Instance();
    TileShape GetInputTileShape(const Operation &op, int index) const;
    TileShape GetOutputTileShape(const Operation &op, int index) const;
};

/* interface/configs/config_manager.h */
class ConfigManager {
public:
    static ConfigManager &Instance();
    ConfigManager(const ConfigManager &) = delete;
    Status Initialize();
    const std::string &LogTopFolder();
    template <typename T> T GetPlatformConfig(const std::string &key, const T &defaultValue);
    template <typename T> T GetHostConfig(const std::string &key, const T &defaultValue);
};
namespace config {
const std::string &LogTopFolder();
} // namespace config

/* interface/configs/config_manager_ng.h: scoped options (JitScopeGuard begins a scope with the
 * given option values and ends it when destroyed) */
class ConfigScope {
public:
    TileShape GenerateTileShape() const;
};
class ConfigManagerNg {
public:
    static ConfigManagerNg &GetInstance();
    static std::shared_ptr<ConfigScope> CurrentScope();
    void EndScope(const char *file = __builtin_FILE(), int line = __builtin_LINE());
    class JitScopeGuard {
    public:
        JitScopeGuard(const std::string &name, std::map<std::string, std::any> &&values = {},
                      const char *file = __builtin_FILE(), int line = __builtin_LINE());
        ~JitScopeGuard();
        JitScopeGuard(const JitScopeGuard &) = delete;
    };
};

/* interface/utils/string_utils.h */
class StringUtils {
public:
    static void DataCopy(void *dest, size_t destMax, const void *src, size_t count);
    static std::vector<std::string> Split(const std::string &str, const std::string &pattern);
};

/* utils/file_utils.h */
std::string RealPath(const std::string &path);
bool CreateDir(const std::string &path, bool recursive = false);
} // namespace tile_fwk
} // namespace npu

#endif /* POOLCHECK_STUB_INTERNAL_H */
