/* passes/poolcheck_stub_passes.h - the pass classes upstream PyPTO's pass unit tests construct and
 * run (framework/src/passes/**), for poolcheck's stub mode.  Every passes/ stand-in next to this
 * file includes it when the real header is not on the include path, so only files that include a
 * pass header pay for it.  Declarations only, with upstream's names and parameter and return types:
 * the Pass interface (pass_interface/pass.h) and, for each pass, its constructor and the members
 * the tests call.  Function, Operation, PassManager and the rest come from
 * poolcheck_stub_internal.h (injected with the stub). */
#pragma once
#pragma clang system_header

namespace npu {
namespace tile_fwk {

/* pass_interface/pass_type.h */
const char *PassNameStr(PassName name);

/* pass_interface/pass.h */
class Pass {
public:
    explicit Pass(std::string name);
    virtual ~Pass();
    Status Run(Function &function, const std::string &strategy, const std::string &identifier, size_t runtimeIdx,
               const std::string &logStrategy);
    Status Run(Function &function, const std::string &strategy, const std::string &identifier, size_t runtimeIdx);
    Status Run(Function &function, const std::string &strategy, const std::string &identifier);
    virtual Status PreCheck(Function &function);
    virtual Status PostCheck(Function &function);
    virtual Status DefaultEnabledPreCheck(Function &function);
    virtual Status DefaultEnabledPostCheck(Function &function);
    virtual void Reset();
    virtual Status PrintFunction(Function &function, const std::string &logFolder, bool beforeFunction);
    virtual Status DumpFunctionJson(Function &function, const std::string &logFolder, bool beforeFunction);
    virtual Status PreRun(Function &function);
    virtual Status PostRun(Function &function);
    const std::string &GetName() const;
    std::vector<NPUArch> &GetSupportedArches();
    void SetSupportedArches(const std::vector<NPUArch> &supportedArches);
protected:
    virtual Status RunOnFunction(Function &function) = 0;
};

/* A pass as the tests use it: constructed without arguments, its checks and RunOnFunction public. */
#define PC_STUB_PASS_COMMON(Name)                                                                   \
public:                                                                                            \
    Name();                                                                                        \
    Status PreCheck(Function &function) override;                                                  \
    Status PostCheck(Function &function) override;                                                 \
    Status RunOnFunction(Function &function) override;

/* tensor_graph_pass/ */
class ExpandFunction : public Pass {
    PC_STUB_PASS_COMMON(ExpandFunction)
};
class InferMemoryConflict : public Pass {
    PC_STUB_PASS_COMMON(InferMemoryConflict)
    Status Init(Function &function);
    Status ForwardPropagation(Function &function);
    Status UpdateForwardTensor(Function &function, const LogicalTensorPtr &curTensor, Operation *consumer,
                               std::queue<LogicalTensorPtr> &curTensors);
    Status BackwardPropagation(Function &function);
    Status UpdateBackwardTensor(Function &function, const LogicalTensorPtr &curTensor, Operation *producer,
                                std::queue<LogicalTensorPtr> &curTensors);
    Status InsertPrecededCopys(Function &function);
    Status InsertPostCopys(Function &function);
    Status InsertCopys(Function &function);
    bool CheckConflict(const LogicalTensorPtr &inTensor, const LogicalTensorPtr &outTensor);
    bool CheckRawShapeConflict(const LogicalTensorPtr &inTensor, const LogicalTensorPtr &outTensor);
    bool ShouldSkipOutcastInput(const LogicalTensorPtr &inputTensor, Function &function);
    Status HandleConflictBackward(Function &function, const LogicalTensorPtr &curTensor,
                                  const LogicalTensorPtr &inputTensor, Operation *producer,
                                  const LogicalTensorPtr &reshapeOutput);
    std::set<Operation *> preregcopys;
    std::set<Operation *> postregcopys;
    std::unordered_map<LogicalTensorPtr, LogicalTensorPtr> memoryInfo;
};
class RemoveRedundantReshape : public Pass {
    PC_STUB_PASS_COMMON(RemoveRedundantReshape)
};
class LoopUnroll : public Pass {
    PC_STUB_PASS_COMMON(LoopUnroll)
    std::unordered_map<int, std::pair<LogicalTensorPtr, bool>> lastWriteMap_;
    bool IsNoOverlapWAW(int slotIdx, LogicalTensorPtr tensor,
                        std::unordered_map<Operation *, std::vector<int64_t>> opDynOffsetMap);
};

/* tile_graph_pass/data_path/ */
class AssignMemoryType : public Pass {
    PC_STUB_PASS_COMMON(AssignMemoryType)
};
class GenerateMoveOp : public Pass {
    PC_STUB_PASS_COMMON(GenerateMoveOp)
    Status CreateMoveOp(Function &function) const;
    void SetCopyAttr(Operation &op, ViewOpAttribute *viewOpAttribute) const;
    Status SetOpcodeByMemPath(Operation &op, MemoryType from, MemoryType to) const;
    Status A23CreateMoveOpForView(Function &function, Operation &op) const;
    Status ProcessDefault(Function &function, Operation &op, ViewOpAttribute *viewOpAttribute) const;
    void CreateMoveOpForAssemble(Function &function, Operation &op) const;
    void ProcessUB2L1(Function &function, Operation &op) const;
    static int64_t PadUB(int64_t dim, int64_t padValue);
    Status ProcessL1CopyInConv(Operation &op) const;
    Status ProcessL0CCopyOutConv(Operation &op) const;
};
class ConvertInserter {
public:
    ConvertInserter();
    bool CreateMoveOpForConvert(Operation &op);
};

/* tile_graph_pass/graph_constraint/ */
class AxisCombine : public Pass {
    PC_STUB_PASS_COMMON(AxisCombine)
};
const std::string L0C_COPY_OUT_OUTER = OP_ATTR_PREFIX + "curH";
const std::string L0C_COPY_OUT_INNER = OP_ATTR_PREFIX + "curW";
const std::string COPY_IS_NZ = OP_ATTR_PREFIX + "is_nz";
extern const std::map<std::pair<DataType, DataType>, DataType> supportDtypeMap; /* the cube input -> output dtypes */
class CubeProcess {
public:
    Status GetL0CCopyOuts(Operation &op, std::vector<Operation *> &l0CCopyOuts);
    Status ReconnectGraph(Operation &mulOp, std::vector<Operation *> copyOutOps);
    CubeProcess();
    Status CheckValidCube(const Operation &op);
    Status UpdateCubeOp(Function &function);
    Status UpdateCopyAttr(Operation &op) const;
};
class RemoveRedundantAssemble {
public:
    RemoveRedundantAssemble();
    bool IsCandidateAssembleOp(Function &function, Operation &op) const;
    Status DeleteRedundantAssemble(Function &function) const;
    Status ProcessViewToCopyIn(Function &function) const;
    Status ProcessView(Function &function) const;
    Status RemoveViewMultiReshape(const std::vector<std::pair<Operation *, Operation *>> &multiReshapeVector) const;
};
class PreGraphProcess : public Pass {
    PC_STUB_PASS_COMMON(PreGraphProcess)
    void UpdateCopyOpIsCube(Operation &op) const;
};

/* tile_graph_pass/graph_optimization/ */
class DuplicateOp : public Pass {
    PC_STUB_PASS_COMMON(DuplicateOp)
};
class MergeViewAssemble : public Pass {
    PC_STUB_PASS_COMMON(MergeViewAssemble)
};
class ProcessAtomic : public Pass {
    PC_STUB_PASS_COMMON(ProcessAtomic)
    Status EliminateReduceAcc(Function &function);
    Status EliminateAtomicRMW(Function &function);
    Status EliminateVecDupBranch(Function &function, bool &hasReduceAccCascade);
    Status CheckAtomicRMWUnsupportedMode(Function &function);
};
class RemoveRedundantOp : public Pass {
    PC_STUB_PASS_COMMON(RemoveRedundantOp)
};
class SplitLargeFanoutTensor : public Pass {
    PC_STUB_PASS_COMMON(SplitLargeFanoutTensor)
    struct OverlapSearchIndex {
        const std::vector<std::pair<LogicalTensorPtr, Offset>> *tensorInfos;
        std::vector<std::vector<size_t>> orderByDim;
    };
    void Init();
    void EraseRedundantAssembleOp(Function &function);
    int64_t GCD(int64_t x, int64_t y);
    Status LCM(int64_t x, int64_t y, int64_t &lcm);
    Status CalLcmShape(const Shape &toShape, const Shape &fromShape, Shape &lcmShape);
    Status CalGcdShape(const Shape &toShape, const Shape &fromShape, Shape &lcmShape);
    void BuildOverlapSearchIndex(const std::vector<std::pair<LogicalTensorPtr, Offset>> &tensorInfos,
                                 OverlapSearchIndex &index) const;
    void CollectCoveredTensors(const Shape &lcmTileShape, const Offset &lcmTileOffset, const OverlapSearchIndex &index,
                               LogicalTensors &tensors) const;
    bool IsTensorCoveredByTile(const Offset &tensorOffset, const Shape &tensorShape, const Offset &tileOffset,
                               const Shape &tileShape) const;
    void CollectLargeTensor(Function &function);
    void SplitLargeTensor(Function &function);
    void SetEnableMoreSplit(bool enableMoreSplit);
    std::vector<LogicalTensorPtr> largeTensors_;
    bool enableMoreSplit_;
};
/* tensor/tensormap.h, pass_utils/pass_common_defs.h, interpreter/function.h: what SplitReshape works with */
enum class OverlapStatus {
    PERFECTLY_MATCH_WITH_ALL, BE_COVERED_BY_ALL, COVERED_ALL, PARTIAL_OVERLAP_WITH_ALL, PERFECTLY_MATCH, BE_COVERED,
    COVERED, PARTIAL_OVERLAP, NO_OVER_LAP
};
struct AssembleOp {
    MemoryType from;
    std::vector<int64_t> toOffset;
    LogicalTensorPtr input;
    LogicalTensorPtr output;
    const Operation *originOp;
    Opcode opcode;
};
class ReshapeOp {
public:
    ReshapeOp(LogicalTensorPtr aInput, LogicalTensorPtr aOutput, const Operation *opPtr = nullptr);
    LogicalTensorPtr input;
    LogicalTensorPtr output;
    const Operation *originOpPtr;
    std::vector<std::vector<SymbolicScalar>> dynValidShapes;
};
struct PairHash {
    template <class T1, class T2> std::size_t operator()(const std::pair<T1, T2> &p) const;
};
/* tile_graph_pass/graph_optimization/split_reshape.h */
using OverlaprawMagic = int;
struct ReshapeTilePara {
    std::vector<int64_t> shape;
    std::vector<int64_t> newShape;
    std::vector<int64_t> tileOffset;
    std::vector<int64_t> tileShape;
};
struct copyOutTilePara {
    LogicalTensorPtr reshapeSource;
    int reshapeOpMagic;
    LogicalTensorPtr inputView;
    LogicalTensorPtr newInputView;
    std::vector<int64_t> alignedShape;
};
struct CalcOverlapPara {
    std::vector<int64_t> alignedShape;
    LogicalTensorPtr reshapeSource;
    std::vector<int64_t> newInputViewTileOffset;
    std::vector<int64_t> newInputViewTileShape;
    std::vector<SymbolicScalar> oriViewDynShape;
    LogicalTensors overlaps;
    LogicalTensors newOverlaps;
    LogicalTensorPtr input;
    LogicalTensorPtr inputView;
    LogicalTensorPtr output;
};
struct AlignResult {
    Status st;
    LogicalTensorPtr newCopyOutSource;
};
class SplitReshape : public Pass {
    PC_STUB_PASS_COMMON(SplitReshape)
    Status Init();
    Status CollectCopyOut(Function &function);
    Status ObtainCopyOutTile(Function &function, const copyOutTilePara &copyOutTile, LogicalTensors &overlaps,
                             LogicalTensors &newOverlaps, OverlapStatus &overlapStatus);
    Status ProcessOnetoOne(Function &function, Operation &op, const CalcOverlapPara &para);
    Status ProcessOnetoMulti(Function &function, Operation &op, const CalcOverlapPara &para);
    Status ProcessMultitoOne(Function &function, Operation &op, const CalcOverlapPara &para);
    bool CheckSameRawInput(const LogicalTensorPtr &reshapeSource);
    Status CheckDynStatus(std::vector<int64_t> alignedShape, std::vector<int64_t> input, std::vector<int64_t> output,
                          std::vector<SymbolicScalar> dynOutput);
    Status ShapeAlign(std::vector<int64_t> shape1, std::vector<int64_t> shape2, std::vector<int64_t> &alignedShape);
    Status RawToAlign(const ReshapeTilePara &shapePara, std::vector<int64_t> &newOffset, std::vector<int64_t> &newShape);
    Status AlignToRaw(const ReshapeTilePara &shapePara, std::vector<int64_t> &newOffset, std::vector<int64_t> &newShape);
    std::unordered_map<int, std::vector<LogicalTensorPtr>> assembleOutToInput_;
    std::unordered_map<std::pair<int, int>, std::vector<int64_t>, PairHash> mapOffset_;
    std::unordered_map<std::pair<int, int>, int, PairHash> mapAssembleOpMagic_;
    std::unordered_map<int, LogicalTensorPtr> reshapeSources_;
    std::unordered_map<int, std::vector<SymbolicScalar>> reshapeDynOutput_;
    std::vector<AssembleOp> assembles_;
    std::unordered_map<unsigned long, std::shared_ptr<ReshapeOp>> reshapes_;
    std::unordered_map<std::shared_ptr<ReshapeOp>, std::vector<int64_t>> viewOffset_;
    std::unordered_map<LogicalTensorPtr, std::vector<int64_t>> reshapeOffset_;
    std::unordered_map<OverlaprawMagic, std::shared_ptr<RawTensor>> reshapeRawOutputs_;
    std::unordered_map<OverlaprawMagic, std::shared_ptr<RawTensor>> reshapeRawInputs_;
    std::unordered_map<std::pair<int, int>, AlignResult, PairHash> rawToAlignCache_;
    std::unordered_map<LogicalTensorPtr, bool> sameRawInputCache_;
};
class InferDiscontinuousInput : public Pass {
    PC_STUB_PASS_COMMON(InferDiscontinuousInput)
};

/* tile_graph_pass/subgraph_to_function.h */
class StaticSubgraphProcessor {
public:
    Status BuildGraph(Function &function);
    void BuildColorGraph(Function &function);
    void EraseRedundantColorEdges(const Function &function);
    void SetNList(std::vector<std::vector<OperationPtr>> &nList);
    std::vector<bool> isReshape;
    std::vector<std::vector<int>> colorOutGraph;
};
class SubgraphToFunction : public Pass {
    PC_STUB_PASS_COMMON(SubgraphToFunction)
    void SetupStaticProcessor();
    void RecordIncastOutcast(Function &function);
    void ConstructParamMap(Function &function);
    StaticSubgraphProcessor staticProcessor_;
    std::vector<std::vector<OperationPtr>> nLIST;
};

/* block_graph_pass/ */
/* block_graph_pass/memory_reuse/: large_bm.h, connection_matrix.h, global_memory_reuse.h */
class LargeBitmap {
public:
    explicit LargeBitmap(const size_t &size);
    bool operator==(const LargeBitmap &anotherBm) const;
    bool operator!=(const LargeBitmap &anotherBm) const;
    void SetValues(const uint64_t &value);
    bool GetBit(const size_t &index) const;
    void SetBit(const size_t &index);
    void ClearBit(const size_t bitIdx);
    void Or(const LargeBitmap &anotherBm);
};
class ConnectionMatrix {
public:
    explicit ConnectionMatrix(Function *func);
    bool IsConnected(const Operation &a, const Operation &b) const;
    bool IsConnected(uint64_t indexA, uint64_t indexB) const;
    void Generate(Function *func);
    uint64_t GetIndex(const Operation &op) const;
    const LargeBitmap &GetBitMap(const Operation &op) const;
    const LargeBitmap &GetBitMap(uint64_t index) const;
};
struct TensorsDesc {
    bool isDummy;
    LargeBitmap connectionOpsBitmap;
    std::set<LogicalTensorPtr> tensors;
    std::unordered_set<uint64_t> consumerOpIdxs;
    TensorsDesc();
    TensorsDesc(Function *func);
};
class Allocator {
public:
    explicit Allocator(Function *function);
    Status Allocate();
    void Init();
    std::vector<TensorsDesc> storageNeedToAllocate_;
    ConnectionMatrix connectionMatrix_;
    uint64_t size_;
};
class GlobalMemoryReuse : public Pass {
    PC_STUB_PASS_COMMON(GlobalMemoryReuse)
};
static const std::string COA_PREFIX = "RUNTIME_COA_GET_PARAM";
static const std::string MAYBE_CONST_POSTFIX = "MAYBE_CONST";
class VectorParamConsistencyChecker {
public:
    bool RegisterCall(const std::vector<SymbolicScalar> &args);
    std::vector<size_t> GetConsistentIndexGroup() const;
    std::vector<std::vector<size_t>> GetAllConsistentIndexGroups() const;
    std::string PrintIndexGroups(const std::vector<std::vector<size_t>> &groups) const;
    void Reset();
};
class DynAttrToStatic : public Pass {
    PC_STUB_PASS_COMMON(DynAttrToStatic)
    std::vector<std::reference_wrapper<SymbolicScalar>> GetOpDynamicAttributeList(Operation &op);
};
class LoopaxesProc : public Pass {
    PC_STUB_PASS_COMMON(LoopaxesProc)
    Status UpdateFuncLoopAxes(Function &function);
    Status UpdateOpLoopAxes(Operation &op, Function &subFunc);
};
class CodegenPreproc : public Pass {
    PC_STUB_PASS_COMMON(CodegenPreproc)
};

#undef PC_STUB_PASS_COMMON

/* pass_check/: the graph checkers some tests call directly */
class Checker {
public:
    virtual ~Checker();
    virtual Status DoPreCheck(Function &function);
    virtual Status DoPostCheck(Function &function);
    Status CheckConsumerProducer(const LogicalTensorPtr &tensor);
    Status CheckValidOp(Function &function);
    Status CheckCompleteness(Function &function);
    Status CheckGraphLoop(Function &function);
    Status PublicCheck(Function &function);
};
class DuplicateOpChecker : public Checker {
public:
    Status DoPreCheck(Function &function) override;
    Status DoPostCheck(Function &function) override;
    Status PreCheckGatherIn(const Operation &op);
    Status ProcessPreCheck(const Operation &op);
    Status PostCheckGatherIn(const Operation &op);
    Status PostCheckView(const Operation &op);
    Status ProcessPostCheck(const Operation &op);
};
class SubGraphToFuncChecker : public Checker {
public:
    Status DoPreCheck(Function &function) override;
    Status DoPostCheck(Function &function) override;
    void SetInOutGraph(const std::vector<std::vector<size_t>> &inGraph, const std::vector<std::vector<size_t>> &outGraph);
    void SetColorGraph(const std::vector<std::vector<int>> &colorInGraph,
                       const std::vector<std::vector<int>> &colorOutGraph);
    Status NOPCheck(const Operation &op) const;
    Status CheckSubGraphTopo(Function &function) const;
    template <typename eType>
    Status InAndOutGraphConsistencyCheck(const std::vector<std::vector<eType>> &inEdgeGraph,
                                         const std::vector<std::vector<eType>> &outEdgeGraph);
    Status CheckSubGraphBoundary(Function &function);
};
class InplaceConflictChecker : public Checker {
public:
    Status CheckIndexOutcastDisorderedCoverage(Function &function);
    Status CheckInplaceOperationConflict(Function &function);
};

/* pass_utils/ */
struct CompareTensorByMagic {
    bool operator()(const LogicalTensorPtr &lhs, const LogicalTensorPtr &rhs) const;
};
using TensorSet = std::set<LogicalTensorPtr, CompareTensorByMagic>;
class GraphUtils {
public:
    static bool IsCVMixPlatform();
    static TensorSet GetAllTensors(Function &function);
};
class CommonUtils {
public:
    template <typename Container>
    static std::string ContainerToStr(const Container &container, const std::string &delimiter = ", ");
    static int GetTensorSubgraphID(const LogicalTensorPtr &tensor);
    static int GetTensorSubgraphID(const LogicalTensor *tensor);
};
class SubgraphUtils {
public:
    static bool IsBoundary(const LogicalTensorPtr &tensor);
    static bool IsBoundary(const LogicalTensor &tensor);
};
class RemoveRedundantOpUtils {
public:
    static Status Process(Function &function, std::vector<Operation *> &newOps, bool &operationUpdated);
    static Status ProcessContractSlice(Function &function, std::vector<Operation *> &newOps, bool &operationUpdated);
    static Status ProcessViewCopyout(Function &function, bool &operationUpdated);
};
class ViewReshapeAssembleReorderUtils {
public:
    static Status ReorderViewReshapeAssemble(Function &function);
    static bool InferInputDynRawShapeFromOutput(const LogicalTensorPtr &input, const LogicalTensorPtr &output,
                                                std::vector<SymbolicScalar> &inferredInputDynRawShape);
    void CreateMetadataReshape(Function &function, const LogicalTensorPtr &input, const LogicalTensorPtr &output,
                               const std::vector<SymbolicScalar> &dynShape, const ir::Span &span,
                               const Operation::ScopeInfo &scopeInfo, Operation &srcOp);
};

} // namespace tile_fwk
} // namespace npu
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
