# Bad input: the comment above the option holds escape sequences (retitle the
# terminal, clear it); --diff and --fix-dry-run show them escaped in the context lines.
# PC001: precise mode is on ([64, 0, 1]) and tmp_assemble needs assemble_outcast: an error at the
# value with upstream's wording and a fix to the suggested triple; --set overrides the source
# (docs/model.md 8), and with [64, 2, 1] the error goes.
#
# The kernel is the seed example (docs/model.md section 10): predicted [64, 1, 1], required [1, 1, 1],
# suggested [64, 2, 1]; U0 = 512 (dx), U2 = 4096 (tmp_exclusive, E = 1), A = 1, S = 4096;
# bytes(d) = AlignUp(512 d0 + 4096 d2 + (4 + d1) 4096, 32768).
import pypto

# ]0;pwned [2J[H cleared
pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, 0, 1])


@pypto.frontend.jit
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
        dx = pypto.matmul(dy_v, weight[0], pypto.DT_FP32, b_trans=True)  # ALL: EXPECT-DIAG: PC015 @LINE:9 'dx' is counted as one piece
        tmp_assemble[0, j_idx : j_idx + t, 0] = dx + 0.0
    for k_idx, t in pypto.loop_unroll(0, 64, 1, name="l_loop_2"):
        output1[0, k_idx : k_idx + t] = tmp_assemble[0, k_idx : k_idx + t, 0]
        output2[0, k_idx : k_idx + t] = tmp_exclusive[0, k_idx : k_idx + t, 0]
