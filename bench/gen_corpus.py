#!/usr/bin/env python3
"""Write a corpus of generated PyPTO kernels for bench/corpus.sh: half Python, half C++.

    gen_corpus.py OUT_DIR [COUNT] [SEED]      (default 500 kernels, seed 1)

Each file is the seed article's kernel (examples/k_tmp_to_d_emb.*) with its own name and its
sizes, loop count and runtime-option site drawn from a fixed-seed generator, so every run of the
benchmark analyses the same files: L in 8..256 iterations per loop, D in 16..64, one to three
extra reading loops, and no option call, a valid precise triple, a jit/SetRuntimeOption site, or
an invalid value (PC002).  Deterministic; nothing is read from the network or the disk but the
output directory.
"""
import os
import random
import sys

PY = '''import pypto

L_STATIC, D_STATIC = {L}, {D}
{module_opts}

@pypto.frontend.jit{jit_opts}
def {name}(
    dy: pypto.Tensor([1, L_STATIC, 1, D_STATIC], pypto.DT_FP32),
    weight: pypto.Tensor([1, D_STATIC, D_STATIC], pypto.DT_FP32),
    output1: pypto.Tensor([1, L_STATIC, D_STATIC], pypto.DT_FP32),
    output2: pypto.Tensor([1, L_STATIC, D_STATIC], pypto.DT_FP32),
):
    tmp_assemble = pypto.tensor([1, L_STATIC, 1, D_STATIC], output1.dtype, "tmp_assemble")
    tmp_exclusive = pypto.tensor([1, L_STATIC, 1, D_STATIC], output2.dtype, "tmp_exclusive")

    for i_idx, t in pypto.loop_unroll(0, 1, 1, name="l_loop_0"):
        pypto.set_vec_tile_shapes(1, 64, 1, 256)
        tmp_exclusive[:] = pypto.add(dy, dy)

    for j_idx, t in pypto.loop_unroll(0, L_STATIC, 1, name="l_loop_1"):
        pypto.set_vec_tile_shapes(1, 64, 1, 256)
        dy_v = dy[0, j_idx : j_idx + t, 0]
        pypto.set_cube_tile_shapes([128, 128], [128, 128], [128, 128])
        dx = pypto.matmul(dy_v, weight[0], pypto.DT_FP32, b_trans=True)
        pypto.set_vec_tile_shapes(1, 64, 1, 512)
        tmp_assemble[0, j_idx : j_idx + t, 0] = dx + 0.0
{read_loops}'''

PY_READ = '''
    for k{n}, t in pypto.loop_unroll(0, L_STATIC, 1, name="l_read_{n}"):
        pypto.set_vec_tile_shapes(1, 64, 1, 512)
        output1[0, k{n} : k{n} + t] = tmp_assemble[0, k{n} : k{n} + t, 0]
        output2[0, k{n} : k{n} + t] = tmp_exclusive[0, k{n} : k{n} + t, 0]
'''

CPP = '''#include "tilefwk/tilefwk.h"

using namespace npu::tile_fwk;

constexpr int L_STATIC = {L};
constexpr int D_STATIC = {D};

void Build_{name}()
{{
    Tensor dy(DT_FP32, {{1, L_STATIC, 1, D_STATIC}}, "dy");
    Tensor weight(DT_FP32, {{1, D_STATIC, D_STATIC}}, "weight");
    Tensor output1(DT_FP32, {{1, L_STATIC, D_STATIC}}, "output1");
    Tensor output2(DT_FP32, {{1, L_STATIC, D_STATIC}}, "output2");
{opts}
    FUNCTION("{name}", {{dy, weight}}, {{output1, output2}})
    {{
        Tensor tmpAssemble(DT_FP32, {{1, L_STATIC, 1, D_STATIC}}, "tmp_assemble");
        Tensor tmpExclusive(DT_FP32, {{1, L_STATIC, 1, D_STATIC}}, "tmp_exclusive");

        LOOP("l_loop_0", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 1, 1))
        {{
            TileShape::Current().SetVecTile({{1, 64, 1, 256}});
            tmpExclusive = Add(dy, dy);
        }}

        LOOP("l_loop_1", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, L_STATIC, 1))
        {{
            TileShape::Current().SetVecTile({{1, 64, 1, 256}});
            Tensor dyV = Reshape(View(dy, {{1, 1, 1, D_STATIC}}, {{0, j, 0, 0}}), {{1, D_STATIC}});
            Tensor w0 = Reshape(View(weight, {{1, D_STATIC, D_STATIC}}, {{0, 0, 0}}), {{D_STATIC, D_STATIC}});
            TileShape::Current().SetCubeTile({{128, 128}}, {{128, 128}}, {{128, 128}});
            Tensor dx = Matrix::Matmul(DT_FP32, dyV, w0, false, true);
            TileShape::Current().SetVecTile({{1, 64, 1, 512}});
            Assemble(Reshape(Add(dx, Element(DT_FP32, 0.0)), {{1, 1, 1, D_STATIC}}), {{0, j, 0, 0}}, tmpAssemble);
        }}
{read_loops}    }}
}}
'''

CPP_READ = '''
        LOOP("l_read_{n}", FunctionType::DYNAMIC_LOOP, k{n}, LoopRange(0, L_STATIC, 1))
        {{
            TileShape::Current().SetVecTile({{1, 64, 1, 512}});
            Assemble(Reshape(View(tmpAssemble, {{1, 1, 1, D_STATIC}}, {{0, k{n}, 0, 0}}), {{1, 1, D_STATIC}}), {{0, k{n}, 0}},
                     output1);
            Assemble(Reshape(View(tmpExclusive, {{1, 1, 1, D_STATIC}}, {{0, k{n}, 0, 0}}), {{1, 1, D_STATIC}}), {{0, k{n}, 0}},
                     output2);
        }}
'''


def triple(rng):
    return [rng.choice([1, 8, 32, 64, 128]), rng.choice([1, 2, 4]), rng.choice([1, 2])]


def python_kernel(rng, name):
    L, D = rng.choice([8, 16, 32, 64, 128, 256]), rng.choice([16, 32, 64])
    site = rng.choice(["none", "module", "jit", "invalid"])
    module_opts, jit_opts = "", ""
    if site == "module":
        module_opts = "pypto.experimental.set_runtime_options(stitch_function_num_per_pool=%s)\n" % triple(rng)
    elif site == "jit":
        jit_opts = '(runtime_options={"stitch_function_num_per_pool": %s})' % triple(rng)
    elif site == "invalid":
        jit_opts = '(runtime_options={"stitch_function_num_per_pool": [64, True, 1]})'
    reads = "".join(PY_READ.format(n=n) for n in range(rng.randint(1, 3)))
    return PY.format(L=L, D=D, name=name, module_opts=module_opts, jit_opts=jit_opts, read_loops=reads)


def cpp_kernel(rng, name):
    L, D = rng.choice([8, 16, 32, 64, 128, 256]), rng.choice([16, 32, 64])
    site = rng.choice(["none", "valid", "invalid"])
    opts = ""
    if site == "valid":
        opts = "    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>{%s});\n" % (
            ", ".join(map(str, triple(rng))))
    elif site == "invalid":
        opts = "    config::SetRuntimeOption(STITCH_FUNCTION_NUM_PER_POOL, std::vector<int64_t>{64, 2000, 1});\n"
    reads = "".join(CPP_READ.format(n=n) for n in range(rng.randint(1, 3)))
    return CPP.format(L=L, D=D, name=name, opts=opts, read_loops=reads)


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    os.makedirs(out, exist_ok=True)
    for i in range(count):
        name = "k_gen_%04d" % i
        if i % 2 == 0:
            text, ext = python_kernel(rng, name), ".py"
        else:
            text, ext = cpp_kernel(rng, name), ".cpp"
        with open(os.path.join(out, name + ext), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
