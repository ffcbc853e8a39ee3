# each string doubles the one before (S59 would be 2**60 bytes). No kernel reads
# them: nothing is evaluated.
S0 = 'ab'
S1 = S0 + S0
S2 = S1 + S1
S3 = S2 + S2
S4 = S3 + S3
S5 = S4 + S4
S6 = S5 + S5
S7 = S6 + S6
S8 = S7 + S7
S9 = S8 + S8
S10 = S9 + S9
S11 = S10 + S10
S12 = S11 + S11
S13 = S12 + S12
S14 = S13 + S13
S15 = S14 + S14
S16 = S15 + S15
S17 = S16 + S16
S18 = S17 + S17
S19 = S18 + S18
S20 = S19 + S19
S21 = S20 + S20
S22 = S21 + S21
S23 = S22 + S22
S24 = S23 + S23
S25 = S24 + S24
S26 = S25 + S25
S27 = S26 + S26
S28 = S27 + S27
S29 = S28 + S28
S30 = S29 + S29
S31 = S30 + S30
S32 = S31 + S31
S33 = S32 + S32
S34 = S33 + S33
S35 = S34 + S34
S36 = S35 + S35
S37 = S36 + S36
S38 = S37 + S37
S39 = S38 + S38
S40 = S39 + S39
S41 = S40 + S40
S42 = S41 + S41
S43 = S42 + S42
S44 = S43 + S43
S45 = S44 + S44
S46 = S45 + S45
S47 = S46 + S46
S48 = S47 + S47
S49 = S48 + S48
S50 = S49 + S49
S51 = S50 + S50
S52 = S51 + S51
S53 = S52 + S52
S54 = S53 + S53
S55 = S54 + S54
S56 = S55 + S55
S57 = S56 + S56
S58 = S57 + S57
S59 = S58 + S58

"""The worked example of the stitch_function_num_per_pool article (seed 000).

Loop 0 writes tmp_exclusive whole once, loop 1 assembles slices of tmp_assemble from a matmul
result that never leaves its iteration, loop 2 reads both into the outputs.
Expected: predicted depths [64, 1, 1], required [1, 1, 1] (see docs/model.md section 10).
"""
import pypto

B_STATIC, L_STATIC, H_STATIC, D_STATIC = 1, 64, 1, 16


@pypto.frontend.jit
def k_tmp_to_d_emb(
    dy: pypto.Tensor([B_STATIC, L_STATIC, H_STATIC, D_STATIC], pypto.DT_FP32),
    weight: pypto.Tensor([H_STATIC, D_STATIC, D_STATIC], pypto.DT_FP32),
    output1: pypto.Tensor([B_STATIC, L_STATIC, D_STATIC], pypto.DT_FP32),
    output2: pypto.Tensor([B_STATIC, L_STATIC, D_STATIC], pypto.DT_FP32),
):
    tmp_assemble = pypto.tensor([B_STATIC, L_STATIC, H_STATIC, D_STATIC], output1.dtype, "tmp_assemble")
    tmp_exclusive = pypto.tensor([B_STATIC, L_STATIC, H_STATIC, D_STATIC], output2.dtype, "tmp_exclusive")

    # Loop0: exclusive write
    for i_idx, t in pypto.loop_unroll(0, 1, 1, name="l_loop_0"):
        pypto.set_vec_tile_shapes(1, 64, 1, 256)
        tmp_exclusive[:] = pypto.add(dy, dy)

    # Loop1: assemble write
    for j_idx, t in pypto.loop_unroll(0, L_STATIC, 1, name="l_loop_1"):
        pypto.set_vec_tile_shapes(1, 64, 1, 256)
        dy_v = dy[0, j_idx : j_idx + t, 0]
        pypto.set_cube_tile_shapes([128, 128], [128, 128], [128, 128])
        dx = pypto.matmul(dy_v, weight[0], pypto.DT_FP32, b_trans=True)
        pypto.set_vec_tile_shapes(1, 64, 1, 512)
        tmp_assemble[0, j_idx : j_idx + t, 0] = dx + 0.0

    # Loop2: read
    for k_idx, t in pypto.loop_unroll(0, L_STATIC, 1, name="l_loop_2"):
        pypto.set_vec_tile_shapes(1, 64, 1, 512)
        output1[0, k_idx : k_idx + t] = tmp_assemble[0, k_idx : k_idx + t, 0]
        output2[0, k_idx : k_idx + t] = tmp_exclusive[0, k_idx : k_idx + t, 0]
