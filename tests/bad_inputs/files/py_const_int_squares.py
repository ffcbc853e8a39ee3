# each constant squares the one before; 3**(2**39) is far past int64 (Python would
# make a big integer). No kernel reads them: nothing is evaluated.
C0 = 3
C1 = C0 * C0
C2 = C1 * C1
C3 = C2 * C2
C4 = C3 * C3
C5 = C4 * C4
C6 = C5 * C5
C7 = C6 * C6
C8 = C7 * C7
C9 = C8 * C8
C10 = C9 * C9
C11 = C10 * C10
C12 = C11 * C11
C13 = C12 * C12
C14 = C13 * C13
C15 = C14 * C14
C16 = C15 * C15
C17 = C16 * C16
C18 = C17 * C17
C19 = C18 * C18
C20 = C19 * C19
C21 = C20 * C20
C22 = C21 * C21
C23 = C22 * C22
C24 = C23 * C23
C25 = C24 * C24
C26 = C25 * C25
C27 = C26 * C26
C28 = C27 * C27
C29 = C28 * C28
C30 = C29 * C29
C31 = C30 * C30
C32 = C31 * C31
C33 = C32 * C32
C34 = C33 * C33
C35 = C34 * C34
C36 = C35 * C35
C37 = C36 * C36
C38 = C37 * C37
C39 = C38 * C38

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
