/*
 * The tile-pieces note (issue 18; docs/model.md section 7, "Tile pieces of root_inner tensors"): a
 * root_inner tensor whose tile split cannot be worked out (no tile setter before its producer or a
 * consumer, a tile that is not a constant, dynamic dims, a matmul reading it as its right operand or
 * transposed) is counted as one piece, so the kernel's root_inner bytes (U0, the workspace) may be
 * low.  One note per kernel, at the first such tensor, naming every one (pc_result.tiles_unverified);
 * it carries no check id, like the frontends' notes, as it is no finding about the configuration.
 */
#include "checks/checks_int.h"

void pc_chk_tiles_note(pc_chk_ctx *c)
{
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        if (!r || r->ntiles_unverified == 0)
            continue;
        const pc_kernel *kern = &c->model->kernels[k];
        pc_sb names = {0};
        char label[64];
        for (int i = 0; i < r->ntiles_unverified; i++) {
            int t = r->tiles_unverified[i];
            if (t < 0 || t >= kern->ntensors)
                continue;
            pc_sb_printf(&names, "%s'%s'", i == 0 ? "" : i + 1 == r->ntiles_unverified ? " and " : ", ",
                         pc_tensor_label(&kern->tensors[t], label, sizeof label));
        }
        int t0 = r->tiles_unverified[0];
        pc_sb msg = {0};
        pc_sb_printf(&msg,
                     "kernel '%s': the root_inner bytes may be low: %s %s counted as one piece, because %s; "
                     "upstream may store %s as several tile pieces, each rounded up to 512 bytes",
                     kern->name ? kern->name : "?", names.data ? names.data : "?",
                     r->ntiles_unverified == 1 ? "is" : "are",
                     r->ntiles_unverified == 1 ? r->tiles_unverified_why[0] : "the tile split's inputs are unknown",
                     r->ntiles_unverified == 1 ? "it" : "them");
        pc_loc at = pc_chk_loc_known(r->tiles_unverified_loc[0]) ? r->tiles_unverified_loc[0]
                    : t0 >= 0 && t0 < kern->ntensors ? kern->tensors[t0].loc
                                                     : kern->loc;
        pc_diag *d = pc_diag_message(c->sink, PC_SEV_NOTE, at, msg.data);
        for (int i = 0; d && r->ntiles_unverified > 1 && i < r->ntiles_unverified; i++) {
            int t = r->tiles_unverified[i];
            if (t >= 0 && t < kern->ntensors)
                pc_diag_note(c->sink, d, r->tiles_unverified_loc[i], "'%s': %s",
                             pc_tensor_label(&kern->tensors[t], label, sizeof label), r->tiles_unverified_why[i]);
        }
        pc_sb_free(&msg);
        pc_sb_free(&names);
    }
}
