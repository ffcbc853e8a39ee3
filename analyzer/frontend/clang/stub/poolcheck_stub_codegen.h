#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_codegen.h - codegen internals the codegen unit tests reach.
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own.
 *
 * Upstream's codegen unit tests (framework/tests/ut/codegen) build a kernel with PROGRAM /
 * FUNCTION / LOOP, take the function back from the Program and hand it to a code generator
 * (codegen/codegen_common.h, codegen/npu/...): none of that is kernel work, but an undeclared
 * CodeGenCtx is a clang error in every such test.  Declarations only, written from the API as the
 * tests use it (class names, constructors, the members they call); stub/include/codegen/ stands in
 * for the headers, which declare far more.  Function and Operation come from the other parts. */
#ifndef POOLCHECK_STUB_CODEGEN_H
#define POOLCHECK_STUB_CODEGEN_H

namespace npu {
namespace tile_fwk {

/* interface/configs/config_manager_ng.h: the compile stages that stop after code generation
 * (config::SetHostOption(COMPILE_STAGE, CS_CODEGEN_INSTRUCTION)); the earlier ones are the
 * internal part's */
constexpr int64_t CS_CODEGEN_INSTRUCTION = 4;
constexpr int64_t CS_CODEGEN_BINARY = 5;

/* tilefwk/error_code.h: codegen's error codes, the first argument of ASSERT(code, cond) */
enum class GenCodeErr : uint32_t {
    GEN_OP_CODE_FAILED, OP_CODE_UNSUPPORTED, PRINT_FAILED, PRINT_MODE_ERROR, DATA_TYPE_MISMATCHED,
    DATA_TYPE_UNSUPPORTED, TENSOR_SHAPE_INVALID, TENSOR_SHAPE_MISMATCHED, TENSOR_DIM_UNSUPPORTED,
    TENSOR_OFFSET_INVALID, TENSOR_MAGIC_CONFLICT, PARAM_IDX_INVALID, TENSOR_NOT_FOUND, SYMBOL_NOT_FOUND,
    PIPE_ID_NOT_FOUND, SYMBOL_ID_INVALID
};

/* codegen/codegen_common.h: where generated code goes and how it is laid out */
struct CodeGenCtx {
    std::string includePath;
    std::string cceDir;
    bool isMainBlock;
    bool isDynamicAligned;
    int devRootIndex;
    CodeGenCtx();
    CodeGenCtx(std::string inPath, std::string cmpPath, bool isMainBlk = false, bool isDynAligned = false,
               int devRootIdx = 0);
    bool IsCCEPathEmpty() const;
    bool IsIncludePathEmpty() const;
};

/* codegen/symbol_mgr/codegen_symbol.h: the local-buffer symbols of one generated function */
class SymbolManager {
public:
    SymbolManager();
    virtual ~SymbolManager();
};

/* codegen/codegen.h, codegen/npu/codegen_npu.h, codegen/npu/{cloudnpu,litenpu}/: the code
 * generators of a whole function */
class CodeGen {
public:
    explicit CodeGen(const CodeGenCtx &ctx);
    void GenCode(Function &topFunc);
};
class CodeGenNPU {
public:
    explicit CodeGenNPU(const CodeGenCtx &cgCtx);
    virtual ~CodeGenNPU();
    virtual void GenCode(Function &topFunc);
    void GenAllocForLocalBuffer(const Operation &op, const std::shared_ptr<SymbolManager> &sm);
    static void AppendVFOptions(std::ostringstream &oss, NPUArch platform, bool isCube);
};
class CodeGenCloudNPU : public CodeGenNPU {
public:
    explicit CodeGenCloudNPU(const CodeGenCtx &cgCtx);
};
class CodeGenLiteNPU : public CodeGenNPU {
public:
    explicit CodeGenLiteNPU(const CodeGenCtx &cgCtx);
    void GenCode(Function &topFunc) override;
};

/* codegen/codegen_op.h, codegen/npu/codegen_op_npu.h, codegen/npu/cloudnpu/codegen_op_cloudnpu.h:
 * the code of one operation */
class ForBlockManager;
struct CodeGenOpCtx {
    std::shared_ptr<SymbolManager> symbolManager;
    Function &topFunc;
    Function &subFunc;
    const Operation &operation;
    bool isMainBlock;
    bool isDynamicAligned;
    CodeGenOpCtx(std::shared_ptr<SymbolManager> sm, Function &tf, Function &sf, const Operation &op,
                 bool isMainBlk = false, bool isDynAligned = false);
};
struct CodeGenOpNPUCtx : public CodeGenOpCtx {
    std::shared_ptr<ForBlockManager> forBlockManager;
    CodeGenOpNPUCtx(std::shared_ptr<SymbolManager> sm, Function &tf, Function &sf, const Operation &op,
                    bool isMainBlk = false, bool isDynAligned = false, std::shared_ptr<ForBlockManager> fbm = nullptr);
};
class CodeGenOpNPU {
public:
    explicit CodeGenOpNPU(const CodeGenOpNPUCtx &ctx);
    virtual ~CodeGenOpNPU();
    virtual std::string GenOpCode() const;
    std::string QueryTileTensorTypeByIdx(int paramIdx) const;
};
class CodeGenOpCloudNPU : public CodeGenOpNPU {
public:
    explicit CodeGenOpCloudNPU(const CodeGenOpNPUCtx &ctx);
};

} // namespace tile_fwk
} // namespace npu

#endif /* POOLCHECK_STUB_CODEGEN_H */
