#include "tilefwk/tilefwk.h"
using namespace npu::tile_fwk;
void K(Tensor &x) {
  FUNCTION("k", {x}, {x}) {
  }
}
