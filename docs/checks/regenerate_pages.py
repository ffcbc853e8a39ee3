# Regenerates docs/checks/PCnnn.md: what each check finds and why, a failing and a fixed example
# (the seed kernel, Python and C++), and the real output of `poolcheck check --no-summary` on the
# failing Python example.  Usage: python3 docs/checks/regenerate_pages.py build/bin/poolcheck docs/checks
# (index.md is generated from the check table: PC_UPDATE_DOCS=1 build/bin/check_checks).
import os, subprocess, sys, tempfile, textwrap
POOLCHECK = os.path.abspath(sys.argv[1])
OUT = sys.argv[2]

PY_KERNEL = '''@pypto.frontend.jit
def k_tmp_to_d_emb(
    dy: pypto.Tensor([1, 64, 1, 16], pypto.DT_FP32),
    weight: pypto.Tensor([1, 16, 16], pypto.DT_FP32),
    output1: pypto.Tensor([1, 64, 16], pypto.DT_FP32),
    output2: pypto.Tensor([1, 64, 16], pypto.DT_FP32),
):
    tmp_assemble = pypto.tensor([1, 64, 1, 16], output1.dtype, "tmp_assemble")
    tmp_exclusive = pypto.tensor([1, 64, 1, 16], output2.dtype, "tmp_exclusive")
    for i_idx, t in pypto.loop_unroll(0, 1, 1, name="l_loop_0"):
        tmp_exclusive[:] = pypto.add(dy, dy)
    for j_idx, t in pypto.loop_unroll(0, 64, 1, name="l_loop_1"):
        dy_v = dy[0, j_idx : j_idx + t, 0]
        dx = pypto.matmul(dy_v, weight[0], pypto.DT_FP32, b_trans=True)
        tmp_assemble[0, j_idx : j_idx + t, 0] = dx + 0.0
    for k_idx, t in pypto.loop_unroll(0, 64, 1, name="l_loop_2"):
        output1[0, k_idx : k_idx + t] = tmp_assemble[0, k_idx : k_idx + t, 0]
        output2[0, k_idx : k_idx + t] = tmp_exclusive[0, k_idx : k_idx + t, 0]'''

CPP_KERNEL = '''    FUNCTION("k_tmp_to_d_emb", {dy, weight}, {output1, output2})
    {
        Tensor tmpAssemble(DT_FP32, {1, 64, 1, 16}, "tmp_assemble");
        Tensor tmpExclusive(DT_FP32, {1, 64, 1, 16}, "tmp_exclusive");
        LOOP("l_loop_0", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 1, 1))
        {
            tmpExclusive = Add(dy, dy);
        }
        LOOP("l_loop_1", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 64, 1))
        {
            Tensor dyV = Reshape(View(dy, {1, 1, 1, 16}, {0, j, 0, 0}), {1, 16});
            Tensor w0 = Reshape(View(weight, {1, 16, 16}, {0, 0, 0}), {16, 16});
            Tensor dx = Matrix::Matmul(DT_FP32, dyV, w0, false, true);
            Assemble(Reshape(Add(dx, Element(DT_FP32, 0.0)), {1, 1, 1, 16}), {0, j, 0, 0}, tmpAssemble);
        }
        LOOP("l_loop_2", FunctionType::DYNAMIC_LOOP, k, LoopRange(0, 64, 1))
        {
            Assemble(Reshape(View(tmpAssemble, {1, 1, 1, 16}, {0, k, 0, 0}), {1, 1, 16}), {0, k, 0}, output1);
            Assemble(Reshape(View(tmpExclusive, {1, 1, 1, 16}, {0, k, 0, 0}), {1, 1, 16}), {0, k, 0}, output2);
        }
    }'''

CPP_DECLS = '''    Tensor dy(DT_FP32, {1, 64, 1, 16}, "dy");
    Tensor weight(DT_FP32, {1, 16, 16}, "weight");
    Tensor output1(DT_FP32, {1, 64, 16}, "output1");
    Tensor output2(DT_FP32, {1, 64, 16}, "output2");'''

def py_src(opts, kernel=PY_KERNEL):
    return "import pypto\n\n" + (opts + "\n" if opts else "") + "\n\n" + kernel + "\n"

def cpp_src(opts, kernel=CPP_KERNEL):
    body = CPP_DECLS + "\n" + (opts + "\n" if opts else "") + kernel
    return '#include "tilefwk/tilefwk.h"\n\nusing namespace npu::tile_fwk;\n\nvoid BuildTmpToDEmb()\n{\n' + body + "\n}\n"

def run(src, args):
    d = tempfile.mkdtemp()
    open(os.path.join(d, "k.py"), "w").write(src)
    r = subprocess.run([POOLCHECK, "check", "--no-summary", "--color=never", "--no-config-lookup"] + args + ["k.py"],
                       cwd=d, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("poolcheck failed: " + r.stderr)
    return r.stdout

SET = 'pypto.experimental.set_runtime_options(stitch_function_num_per_pool=%s)'
CSET = '    config::SetRuntimeOption("stitch_function_num_per_pool", std::vector<int64_t>{%s});'

def page(id_, name, sev, finds, why, fail, fixed, notes="", args=(), only=None):
    (fpy, fcpp), (xpy, xcpp) = fail, fixed
    out = run(fpy, list(args))
    if only:  # keep the blocks of these checks (a diagnostic and its notes)
        keep, blocks, cur = [], [], None
        for line in out.splitlines(True):
            if line.startswith("k.py:") and (": error:" in line or ": warning:" in line or (": note:" in line and "[PC" in line)):
                cur = [line, any(f"[{c}" in line for c in only)]
                blocks.append(cur)
            elif cur:
                cur[0] += line
        out = "".join(b[0] for b in blocks if b[1])
    if not out.strip():
        sys.exit(f"{id_}: the failing example reports nothing")
    s = f"# {id_}: {name}\n\nSeverity: **{sev}**. [All checks](index.md)\n\n"
    s += "## What it finds\n\n" + textwrap.dedent(finds).strip() + "\n\n"
    s += "## Why it matters\n\n" + textwrap.dedent(why).strip() + "\n\n"
    s += "## Failing example\n\n```python\n" + fpy + "```\n\n```cpp\n" + fcpp + "```\n\n"
    cmd = "poolcheck check " + " ".join(list(args) + ["k.py"])
    s += f"`{cmd}` says:\n\n```text\n" + out.rstrip("\n") + "\n```\n\n"
    s += "## Fixed example\n\n```python\n" + xpy + "```\n\n```cpp\n" + xcpp + "```\n\n"
    if notes:
        s += "## Notes\n\n" + textwrap.dedent(notes).strip() + "\n\n"
    s += ("## Suppressing it\n\n"
          f"Drop it with `--checks=-{id_}` (or `--checks=-{name}`), and silence one finding on its line with "
          f"`// NOLINT({id_})` in C++ or `# noqa: {id_}` in Python; `{name}` or `poolcheck-{name}` works "
          f"in place of the id.\n")
    open(os.path.join(OUT, id_ + ".md"), "w").write(s)

def both(py_opts, cpp_opts, pyk=PY_KERNEL, cppk=CPP_KERNEL):
    return (py_src(py_opts, pyk), cpp_src(cpp_opts, cppk))

GOOD = both(SET % "[64, 2, 1]", CSET % "64, 2, 1")

page("PC001", "zero-depth-pool", "error", """
 Precise mode is on (an element of `stitch_function_num_per_pool` is non-zero), one of the three
 pools is set to 0, and the kernel has a tensor that needs that pool: a `root_inner` intermediate, an
 `assemble_outcast` tensor or an `exclusive_outcast` tensor (docs/model.md section 4).
 """, """
 In precise mode the runtime uses the three depths as given. Upstream checks at encode time that every
 pool the program needs has a depth and stops compilation with `stitch_function_num_per_pool[i] cannot
 be 0 because the current program requires this workspace pool to construct one root function`.
 poolcheck says the same before anything is compiled, names the tensors that need the pool and points
 at the option value; the fix writes the suggested triple (the predicted depths plus the assemble
 headroom).
 """, both(SET % "[64, 0, 1]", CSET % "64, 0, 1"), GOOD, only=["PC001"])

page("PC002", "invalid-pool-option", "error", """
 A value of `stitch_function_num_per_pool` that is not a list or tuple of exactly three integers in
 [0, 1024]: a `bool` element (`True` is not an int here), a float, a string, a wrong length or an
 element out of range. Every place the option can be set is checked: `set_runtime_options`,
 `set_options`, `options(...)`, `jit(runtime_options=...)`, `config::SetRuntimeOption`,
 `tile_fwk_config.json`, `.poolcheck.json` and `--set`.
 """, """
 Upstream's `_validate_stitch_function_num_per_pool` raises `Invalid stitch_function_num_per_pool:
 '<value>'. Each element must be an int in [0, 1024].` (or `Expected a list of 3 ints in [0, 1024],
 ...` for the wrong shape) before the kernel runs, and the C++ encoder throws
 `stitch_function_num_per_pool must contain exactly 3 elements`. poolcheck echoes the Python message so
 it can be searched. An invalid value never applies: the previous valid value stays in force, and that
 is what the analysis uses.
 """, both(SET % "[64, True, 1]", CSET % "64, 1, 1, 1"), GOOD, notes="""
 An expression poolcheck cannot evaluate (a variable it cannot resolve) is not reported: it is not
 known to be wrong. `None` means "no change" and is valid.
 """, only=["PC002"])

page("PC003", "invalid-runtime-option", "error", """
 Another runtime option out of its range or of the wrong type: `stitch_function_max_num` outside
 1..1024, `max_workspace_kb` outside 0..2147483647, `device_sched_parallelism` outside 1..8, or any of
 them given as a float, bool or string. Keys poolcheck does not model are not checked.
 """, """
 The runtime rejects such values (the ranges are those of upstream's tile_fwk_config schema), and an
 invalid value does not apply: DeviceTasks and workspace are then those of the previous valid value or
 the default, not of the value written. A well-formed `--set` with a bad value is reported here too
 (exit status 1).
 """, both('pypto.experimental.set_runtime_options(stitch_function_max_num=2048)',
           '    config::SetRuntimeOption("stitch_function_max_num", 2048);'),
 both('pypto.experimental.set_runtime_options(stitch_function_max_num=1024)',
      '    config::SetRuntimeOption("stitch_function_max_num", 1024);'), only=["PC003"])

page("PC004", "ignored-option", "warning", """
 Precise mode is on while `stitch_function_max_num` or `max_workspace_kb` (other than 0) is also set
 for the same kernel. Reported once per option, at its value.
 """, """
 With any non-zero element in `stitch_function_num_per_pool` the runtime sizes each DeviceTask's
 Workspace from the three depths alone; `stitch_function_max_num` and `max_workspace_kb` stop having
 an effect. A budget written next to the triple therefore bounds nothing. (poolcheck still uses
 `stitch_function_max_num` as the parallelism the depths must keep, docs/model.md section 5.)
 """, both(SET % "[64, 2, 1]" + "\npypto.experimental.set_runtime_options(max_workspace_kb=4096)",
           CSET % "64, 2, 1" + '\n    config::SetRuntimeOption("max_workspace_kb", 4096);'), GOOD, notes="""
 To work to a budget instead, leave precise mode off and let `poolcheck plan` choose depths that fit.
 """, only=["PC004"])

IN_KERNEL_PY = PY_KERNEL.replace("    tmp_assemble = pypto.tensor", "    " + SET % "[64, 2, 1]" + "\n    tmp_assemble = pypto.tensor")
IN_KERNEL_CPP = CPP_KERNEL.replace('        Tensor tmpAssemble', '        config::SetRuntimeOption("stitch_function_num_per_pool", std::vector<int64_t>{64, 2, 1});\n        Tensor tmpAssemble')
page("PC005", "option-in-kernel", "warning", """
 `pypto.experimental.set_runtime_options`, `pypto.set_options(runtime_options=...)` or
 `config::SetRuntimeOption` called inside a kernel body or a loop body.
 """, """
 Runtime options are read when the kernel is compiled; a call inside its body comes too late for that
 kernel (the upstream documentation says not to call it inside `pypto.loop` or a kernel). poolcheck
 does not apply such a call, so its numbers are those of the configuration really in force.
 """, both("", "", IN_KERNEL_PY, IN_KERNEL_CPP), GOOD, notes="""
 `@pypto.frontend.jit(runtime_options={...})` and `pypto.options(runtime_options=...)` belong to the
 kernel by design and are not reported.
 """, only=["PC005"])

page("PC006", "pool-too-shallow", "warning", """
 Precise mode is on and a configured non-zero depth is below the predicted one (the depth the
 DeviceTask that needs most of that pool requires). A depth of 0 is PC001's; an unknown prediction is
 PC008's.
 """, """
 The predicted depths are the smallest under which no DeviceTask is cut early and nothing is
 serialised (docs/model.md sections 5-6; what the upstream `[Workspace Runtime Recommendation]` log
 recommends after a run). With less, the runtime submits DeviceTasks before `stitch_function_max_num`
 instances or makes instances wait for a free slot: the kernel is correct but slower. A note names the
 DeviceTask and the root functions that set the prediction.
 """, both(SET % "[16, 2, 1]", CSET % "16, 2, 1"), GOOD, only=["PC006"])

page("PC007", "pool-too-deep", "note", """
 Precise mode is on and a configured depth is above the suggested one (the predicted depth, plus the
 assemble headroom on the assemble pool) by enough to make the Workspace bigger. It says how many
 bytes the extra depth reserves, and stays silent when it reserves nothing (the workspace is rounded up
 to 32 KiB, and a pool no tensor uses costs nothing).
 """, """
 Every DeviceTask gets a Workspace sized from the three depths (docs/model.md section 7:
 `AlignUp(U0·d0 + U2·d2 + (2E + 2A + A·d1)·S, 32768) × P`). Depth that no instance uses is device
 memory taken from everything else. When one option serves several kernels, the deepest suggestion
 among them is the yardstick.
 """, both(SET % "[128, 2, 1]", CSET % "128, 2, 1"), GOOD, only=["PC007"])

DYN_PY = PY_KERNEL.replace("dy: pypto.Tensor([1, 64, 1, 16]", "dy: pypto.Tensor([1, pypto.DYNAMIC, 1, 16]").replace(
    'pypto.loop_unroll(0, 64, 1, name="l_loop_1")', 'pypto.loop_unroll(0, dy.shape[1], 1, name="l_loop_1")')
DYN_CPP = CPP_KERNEL.replace('LOOP("l_loop_1", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, 64, 1))',
                             'LOOP("l_loop_1", FunctionType::DYNAMIC_LOOP, j, LoopRange(0, GetInputShape(dy, 1), 1))')
page("PC008", "unknown-trip-count", "note", """
 A depth could not be computed exactly because it depends on a value poolcheck cannot see: a dynamic
 dimension (`x.shape[0]`, `GetInputShape(x, 0)`), a variable, `pypto.frontend.dynamic("n")`. One note
 per unbound symbol per kernel, at the loop or tensor that mentions it, with the bound (and formula) of
 each pool that depends on it.
 """, """
 poolcheck does not guess trip counts. Unbound, it still classifies every tensor and reports which
 pools are needed (so PC001 works), prints the depth as an upper bound, and the checks that need exact
 depths (PC006, PC007, PC009) stay silent. Binding the symbol with `--bind NAME=VALUE` (or several
 shapes with `--shapes FILE`, whose element-wise maximum is taken) gives exact depths.
 """, both("", "", DYN_PY, DYN_CPP), both("", "", DYN_PY, DYN_CPP), notes="""
 The fixed example is the same source analysed with `poolcheck check --bind dy.shape[1]=64 k.py`
 (C++: `--bind dy.shape[1]=64` names `GetInputShape(dy, 1)` the same way).
 """, only=["PC008"])

page("PC009", "suggest-precise-config", "note", """
 Precise mode is off (the pool triple is `[0, 0, 0]`, the default), the kernel needs at least one
 pool, every predicted depth is known, and the suggested triple makes the Workspace smaller. The note
 gives the suggested and predicted triples and the bytes saved against the default `[k, k, k]`.
 """, """
 By default every pool is `stitch_function_max_num` deep (128), which for most kernels reserves far
 more memory than any DeviceTask uses: the seed example needs 65536 bytes with `[64, 2, 1]` against
 1146880 with the default. The suggested depths keep every DeviceTask as large as before. The fix
 rewrites an explicit `[0, 0, 0]`, or inserts a module-level `set_runtime_options` call before the
 first kernel (Python: one call for the whole file, with the element-wise maximum) or a
 `config::SetRuntimeOption` before the `FUNCTION` (C++). `poolcheck check --emit-config=python|cpp|json`
 prints the same configuration.
 """, both("", ""), GOOD, only=["PC009"])

page("PC010", "workspace-budget-too-small", "error", """
 `max_workspace_kb` is set (non-zero, precise mode off) and is at or below the smallest runnable
 workspace: the tensor workspace at the required depths (1 for each needed pool).
 """, """
 Upstream's encoder refuses such a budget with `[workspaceSize] max_workspace_kb=<n>KB must be greater
 than the minimum runnable workspace=<m>KB.` poolcheck's bytes are the tensor workspace only (AICore
 stack spill cannot be seen in the source), so the real minimum is at least the one it prints and the
 failure is certain.
 """, both('pypto.experimental.set_runtime_options(max_workspace_kb=32)',
           '    config::SetRuntimeOption("max_workspace_kb", 32);'),
 both('pypto.experimental.set_runtime_options(max_workspace_kb=128)',
      '    config::SetRuntimeOption("max_workspace_kb", 128);'), only=["PC010"])

page("PC011", "assemble-no-headroom", "warning", """
 Precise mode is on, the configured `assemble_outcast` depth equals the predicted one (the most
 assemble allocations alive at once), and an assemble tensor's allocation lives across DeviceTasks
 (written in one, still read in a later one, like the seed example's `tmp_assemble`).
 """, """
 Newer upstream runtimes refuse a root whenever fewer assemble slots are free than there are assemble
 tensors (a conservative pre-check) and recommend `assembleOutcast = observed + 1`. With exactly the
 observed depth, the allocation carried into the next DeviceTask leaves too few free slots and the
 launch stops with `Root cannot fit in an empty DeviceTask` (docs/model.md section 6). The fix adds the
 headroom.
 """, both(SET % "[64, 1, 1]", CSET % "64, 1, 1"), GOOD, notes="""
 `--assemble-headroom 0` (a runtime without the pre-check; the seed article's exact `[64, 1, 1]`)
 silences this check.
 """, only=["PC011"])

MATCH_PY = PY_KERNEL + '''
    match k_idx:
        case 0:
            output1[0, 0:1] = tmp_assemble[0, 0:1, 0]'''
LOOP_CPP = CPP_KERNEL.replace('''        LOOP("l_loop_2", FunctionType::DYNAMIC_LOOP, k, LoopRange(0, 64, 1))''', '''        for (int64_t k = 0; k < 64; k++) // a C++ loop, not a LOOP''')
page("PC012", "unanalysed-region", "warning", """
 A part of a kernel the frontend could not turn into the kernel model: a statement form poolcheck does
 not know (a Python `match`, a compile-time `while`), a C++ construct libclang dropped. The message says
 what was skipped.
 """, """
 Whatever the skipped part adds (tensors, instances, DeviceTask boundaries) is missing from the
 analysis, so the predicted depths may be too low. The rest of the kernel is still analysed and linted.
 Check the numbers against a run with `poolcheck logs`, or write the construct in a form poolcheck
 models (`pypto.loop` / `LOOP`, `if` on loop values / `IF`).
 """, both(SET % "[64, 2, 1]", CSET % "64, 2, 1", MATCH_PY, LOOP_CPP), GOOD, only=["PC012"])

ARGSORT_PY = PY_KERNEL.replace('''        tmp_exclusive[:] = pypto.add(dy, dy)''', '''        order = pypto.argsort(dy, dim=3)
        tmp_exclusive[:] = pypto.add(dy, dy)''')
ARGSORT_CPP = CPP_KERNEL.replace('''            tmpExclusive = Add(dy, dy);''', '''            Tensor order = ArgSort(dy, 3);
            tmpExclusive = Add(dy, dy);''')
page("PC013", "shape-not-inferred", "note", """
 A call in a kernel to an op poolcheck has no shape rule for (it is not in poolcheck's op table). The
 note names the op.
 """, """
 poolcheck works out each tensor's shape, and so its bytes, from the op that makes it. An op it does
 not know is modelled as vector work with an unknown result: the tensor it makes has unknown bytes,
 and so do the workspace figures that count that tensor. The depths count instances and tensors, not
 bytes, and are not affected.
 """, both(SET % "[64, 2, 1]", CSET % "64, 2, 1", ARGSORT_PY, ARGSORT_CPP), GOOD, notes="""
 The C++ frontend reports the note for a function of the PyPTO API that returns a `Tensor` and is not
 in its table (`ArgSort` above); it gives the result the broadcast shape of the op's tensor operands,
 so the note says the bytes may be wrong rather than unknown. A call clang cannot resolve at all is
 PC012's.
 The fixed example leaves the op out; to keep it, silence the note with `--checks=-PC013` or
 `# noqa: PC013`.
 """, only=["PC013"])
FLOAT_BOUND_PY = PY_KERNEL.replace('pypto.loop_unroll(0, 64, 1, name="l_loop_2")', 'pypto.loop_unroll(0, 64.0, 1, name="l_loop_2")')
FLOAT_BOUND_CPP = CPP_KERNEL.replace('LOOP("l_loop_2", FunctionType::DYNAMIC_LOOP, k, LoopRange(0, 64, 1))',
                                     'LOOP("l_loop_2", FunctionType::DYNAMIC_LOOP, k, LoopRange(0, 64.0, 1))')
page("PC014", "unevaluated-loop-bound", "note", """
 A `pypto.loop` bound that is not an integer expression poolcheck can evaluate (a float such as
 `64.0`, a value beyond 64 bits, a call it does not know), or a compile-time Python loop (`for ... in
 range(n)`) whose count depends on a value that is not bound while its body makes tensors. The note
 says which name to bind.
 """, """
 A bound poolcheck cannot evaluate is kept as a symbol (named after the expression, or `LOOP.start` /
 `LOOP.stop` / `LOOP.step` when the expression is no name), so the trip count, and every depth that
 depends on it, is an upper bound (PC008 says which). A compile-time loop with an unknown count has its
 body modelled once, so the root_inner bytes may be low. Binding the name with `--bind NAME=VALUE`
 gives exact numbers; writing an integer bound removes the note.
 """, both(SET % "[64, 2, 1]", CSET % "64, 2, 1", FLOAT_BOUND_PY, FLOAT_BOUND_CPP), GOOD, notes="""
 The note comes from the Python frontend. The C++ frontend keeps a bound it cannot evaluate as a
 symbol too and reports it as PC008.
 """, only=["PC014"])
TILE_PY = '''import pypto


@pypto.frontend.jit
def k_matmul_rows(
    a: pypto.Tensor([1, 16], pypto.DT_FP32),
    b: pypto.Tensor([16, 64], pypto.DT_FP32),
    out: pypto.Tensor([4, 64], pypto.DT_FP32),
):
%s    for i in pypto.loop(0, 4, 1, name="rows"):
        c = pypto.matmul(a, b, pypto.DT_FP32)
        out[i : i + 1, :] = pypto.add(c, 1.0)
'''
TILE_CPP = '''#include "tilefwk/tilefwk.h"

using namespace npu::tile_fwk;

void BuildMatmulRows()
{
    Tensor a(DT_FP32, {1, 16}, "a");
    Tensor b(DT_FP32, {16, 64}, "b");
    Tensor out(DT_FP32, {4, 64}, "out");
    FUNCTION("k_matmul_rows", {a, b}, {out})
    {
%s        LOOP("rows", FunctionType::DYNAMIC_LOOP, i, LoopRange(0, 4, 1))
        {
            Tensor c = Matrix::Matmul(DT_FP32, a, b);
            Assemble(Add(c, Element(DT_FP32, 1.0)), {i, 0}, out);
        }
    }
}
'''
page("PC015", "tile-split-unknown", "note", """
 A kernel with a root_inner tensor whose tile split poolcheck cannot work out: no tile setter before its
 producer or a consumer, a tile that is not a constant, dynamic dims, a matmul reading it as its right
 operand or transposed. One note per kernel, at the first such tensor, naming every one and why.
 """, """
 Upstream may store a root_inner tensor as several tile pieces, each rounded up to 512 bytes
 (docs/model.md section 7). Without the split poolcheck counts the tensor as one piece, so the kernel's
 root_inner bytes (U0, and the workspace) may be lower than the runtime's. The depths are not
 affected.
 """, (TILE_PY % "", TILE_CPP % ""),
 (TILE_PY % "    pypto.set_cube_tile_shapes([32, 32], [32, 32], [32, 32])\n    pypto.set_vec_tile_shapes(1, 32)\n",
  TILE_CPP % "        TileShape::Current().SetCubeTile({32, 32}, {32, 32}, {32, 32});\n        TileShape::Current().SetVecTile(1, 32);\n"),
 only=["PC015"])
