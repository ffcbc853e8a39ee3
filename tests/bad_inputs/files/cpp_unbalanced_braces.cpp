#include "tilefwk/tilefwk.h"
using namespace npu::tile_fwk;
void K(Tensor &x) {
  FUNCTION("k", {x}, {x}) {
    LOOP("l", FunctionType::DYNAMIC_LOOP, i, LoopRange(4)) {
      Tensor y = Add(x, x);
