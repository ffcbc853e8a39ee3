/* operator/models/llama/llama_def.h - upstream PyPTO's LLaMA model operators
 * (framework/src/operator/models/llama/llama_def.h), in poolcheck's stub mode.  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these declarations of the attention dimensions and
 * tile configurations and of the layer functions keep the tests that build a LLaMA layer inside a
 * kernel parseable.  A call to LlamaLayer is a call poolcheck does not follow (its body is in the
 * framework's sources), as with the real header. */
#pragma once
#pragma clang system_header
namespace npu {
namespace tile_fwk {
struct AttentionDims {
    int b;
    int n;
    int s;
    int d;
    int singleM;
    int singleN;
};
struct AttentionVecTileConfig {
    int defaultVecTileX;
    int defaultVecTileY;
    int softmaxTileX;
    int softmaxTileY;
    int updateTileX;
    int updateTileY;
    int castTileX;
    int castTileY;
};
struct AttentionCubeTileConfig {
    int c1L1M;
    int c1L1K;
    int c1L1N;
    int c2L1M;
    int c2L1K;
    int c2L1N;
    int c1L0;
    int c2L0;
};
struct KeyConfig {
    int max;
    int min;
    int dbType;
    int nBuffer;
    int isPartitionCv;
    int cTileX;
    int cTileY;
};
extern const AttentionVecTileConfig DFS_VEC_CFG;
extern const AttentionVecTileConfig SMALL_DFS_VEC_CFG;
extern const AttentionCubeTileConfig DFS_CUBE_CFG;
extern const AttentionVecTileConfig OOO_VEC_CFG;
extern const AttentionCubeTileConfig OOO_CUBE_CFG;
extern const KeyConfig DFT_BASIC_CFG;
constexpr int DFT_SINGLE_M = 128;
constexpr int DFT_SINGLE_N = 128;
Tensor LlamaLayer(Tensor hiddenStates, const Tensor &attnWight, const Tensor &denseWeight, const Tensor &ffnWeight,
                  const AttentionDims &atDims, const AttentionVecTileConfig &vecCfg,
                  const AttentionCubeTileConfig &cubeCfg);
Tensor FlashAttention(const Tensor &q, const Tensor &k, const Tensor &v, const Tensor &m, const Tensor &l,
                      const AttentionDims &atDims, const AttentionVecTileConfig &vecCfg,
                      const AttentionCubeTileConfig &cubeCfg);
Tensor FlashAttentionNew(const Tensor &q, const Tensor &k, const Tensor &v, const Tensor &m, const Tensor &l,
                         const AttentionDims &atDims);
} // namespace tile_fwk
} // namespace npu
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
