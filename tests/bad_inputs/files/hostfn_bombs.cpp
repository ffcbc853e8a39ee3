// Host helpers poolcheck runs at trace time (clang_hostfn.c), made hostile: a loop that never
// ends, a list grown without bound, a recursion.  Each run stops at its step budget or its
// recursion guard; the view shapes they feed are unknown (PC013), nothing hangs.
#include "tilefwk/tilefwk.h"

using namespace npu::tile_fwk;

static Shape Forever(const Shape &s)
{
    Shape r = s;
    while (1 == 1) {
        r[0] = r[0] + 1;
    }
    return r;
}

static Shape Grow(const Shape &s)
{
    Shape r = s;
    for (int64_t i = 0; i < 4000000000; i++)
        r.push_back(i);
    return r;
}

static Shape Recurse(const Shape &s)
{
    Shape r = Recurse(s);
    return r;
}

void BuildHostFnBombs()
{
    Tensor x(DT_FP32, {64, 64}, "x");
    Tensor out(DT_FP32, {64, 64}, "out");
    FUNCTION("hostfn_bombs", {x}, {out})
    {
        Shape a = Forever({16, 64});
        Shape b = Grow({16, 64});
        Shape c = Recurse({16, 64});
        LOOP("rows", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1))
        {
            Tensor t1 = Add(View(x, a, {i * 16, 0}), Element(DT_FP32, 1.0));
            Tensor t2 = Add(View(x, b, {i * 16, 0}), t1);
            Tensor t3 = Add(View(x, c, {i * 16, 0}), t2);
            Assemble(t3, {i * 16, 0}, out);
        }
    }
}
