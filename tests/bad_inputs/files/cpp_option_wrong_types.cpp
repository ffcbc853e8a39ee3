#include "tilefwk/tilefwk.h"
using namespace npu::tile_fwk;
void K(Tensor &x) {
  config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, "abc");
  config::SetRuntimeOption("stitch_function_max_num", 1.5);
  config::SetRuntimeOption("max_workspace_kb", -3);
  FUNCTION("k", {x}, {x}) {
    LOOP("l", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) {
      Tensor y = Add(x, x);
    }
  }
}
