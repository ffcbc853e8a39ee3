/* clang_tiles.h - the tile shapes in force at each operation of a C++ kernel (clang_tiles.c;
 * docs/model.md section 7 "Tile pieces of root_inner tensors"). */
#ifndef POOLCHECK_CLANG_TILES_H
#define POOLCHECK_CLANG_TILES_H

#include "clang_int.h"

/* A new statement `stmt` takes the tiles in force: those of the statement made before it (the
 * walk creates statements in program order; across FUNCTIONs too, as TileShape::Current() is one
 * value for the whole program). */
void pc_clang_tiles_inherit(pc_cx *cx, int stmt);
/* TileShape::Current().SetVecTile(...) / SetCubeTile(...) (name) at `call`, whose (empty) statement
 * is `stmt`: from here on the new tiles are in force.  Other tile calls change nothing. */
void pc_clang_tiles_call(pc_cx *cx, CXCursor call, const char *name, int stmt);
/* A matmul call: the cube reads of the current statement inside argument `left` / `right` get
 * their operand role, and `transposed` from a_trans / b_trans. */
void pc_clang_tiles_matmul(pc_cx *cx, CXCursor call, int left, int right, bool a_trans, bool b_trans);

#endif
