#!/usr/bin/env python3
"""Reference walker for poolcheck's property test (tests/unit/check_property.c).

Generates random kernels -- loops (nested, zero-trip, negative and zero steps, submit_before_loop,
parallel), paths (if / elif / else chains whose conditions are affine comparisons of loop
indices, the unroll factor variable, is_loop_begin / is_loop_end, and / or / not, constants, a
kernel constant, an unbound symbol, a data-dependent value), Python loop_unroll lists and C++
(greedy) unroll sets, root_inner intermediates whose shape follows the factor, exclusive outcasts,
assemble outcasts created in the kernel body and in a loop body (a new allocation each time the
body runs, carried into the next task by its reader) -- writes each as poolcheck's model JSON, and computes what docs/model.md says
about it by simulating the kernel instance by instance.  It shares no code with analyzer/: the
rules are re-implemented here from the text of docs/model.md sections 3-6.

Output: one JSON object per line, {"name", "seed", "k", "model": <model JSON>, "expect": {...}}.

    refwalk.py --seed 1 --count 100          fixed seed
    refwalk.py --daily --count 100           the seed of the day (YYYYMMDD, UTC), printed on stderr
"""

import argparse
import datetime
import json
import random
import sys

FP32 = 4


def align(n, a=512):
    return (n + a - 1) // a * a


def ceil_div(a, b):
    return -(-a // b)


# ---- conditions: ("int", v) ("sym", name) ("lt", a, b) ... ("and", a, b) ("or", a, b) ("not", a)
#      ("begin", var) ("end", var) ("add", a, b) ("sub", a, b) ("mul", a, b) ("mod", a, b)

CMP = {"lt": lambda x, y: x < y, "le": lambda x, y: x <= y, "gt": lambda x, y: x > y,
       "ge": lambda x, y: x >= y, "eq": lambda x, y: x == y, "ne": lambda x, y: x != y}
TEXT_OP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!=", "add": "+",
           "sub": "-", "mul": "*", "mod": "%", "and": "and", "or": "or"}


def cond_value(e, env):
    """True / False, or None when it cannot be decided (3-valued and / or)."""
    k = e[0]
    if k == "int":
        return e[1]
    if k == "sym":
        return env["vars"].get(e[1])
    if k in ("begin", "end"):
        for lp in reversed(env["active"]):
            if lp["index_var"] == e[1]:
                pos, n = lp["pos"], lp["n"]
                return int(pos == 0) if k == "begin" else int(pos == n - 1)
        return None
    if k == "not":
        v = cond_value(e[1], env)
        return None if v is None else int(v == 0)
    if k in ("and", "or"):
        x, y = cond_value(e[1], env), cond_value(e[2], env)
        if x is not None and y is not None:
            return int((x != 0 and y != 0) if k == "and" else (x != 0 or y != 0))
        decisive = 0 if k == "and" else 1
        for v in (x, y):
            if v is not None and int(v != 0) == decisive:
                return decisive
        return None
    x, y = cond_value(e[1], env), cond_value(e[2], env)
    if x is None or y is None:
        return None
    if k in CMP:
        return int(CMP[k](x, y))
    if k == "add":
        return x + y
    if k == "sub":
        return x - y
    if k == "mul":
        return x * y
    if k == "mod":
        return None if y == 0 else x % y  # Python's %
    raise ValueError(k)


def cond_json(e, rng):
    """The model JSON form: the structural form, or (half the time) fully parenthesised text."""
    if rng.random() < 0.5:
        return cond_text(e)
    return cond_struct(e)


def cond_struct(e):
    k = e[0]
    if k == "int":
        return e[1]
    if k == "sym":
        return {"sym": e[1]}
    if k in ("begin", "end"):
        return {"op": "is_loop_begin" if k == "begin" else "is_loop_end", "var": e[1]}
    if k == "not":
        return {"op": "not", "a": cond_struct(e[1])}
    return {"op": k, "a": cond_struct(e[1]), "b": cond_struct(e[2])}


def cond_text(e):
    k = e[0]
    if k == "int":
        return str(e[1]) if e[1] >= 0 else "(0 - %d)" % -e[1]
    if k == "sym":
        return e[1]
    if k in ("begin", "end"):
        return "%s(%s)" % ("is_loop_begin" if k == "begin" else "is_loop_end", e[1])
    if k == "not":
        return "(not %s)" % cond_text(e[1])
    return "(%s %s %s)" % (cond_text(e[1]), TEXT_OP[k], cond_text(e[2]))


# ---- kernels ------------------------------------------------------------------------------------

class Kernel:
    """The generated structure (for the reference) and its model JSON (for poolcheck)."""

    def __init__(self, rng, lang):
        self.rng = rng
        self.lang = lang
        self.tensors = []
        self.stmts = []
        self.loops = []
        self.constants = {}
        self.inner_tensors = 0
        self.excl = []      # exclusive outcast tensor ids
        self.asm = []       # assemble outcast tensor ids (created in the kernel body)
        self.sasm = []      # assemble outcast tensors created in a loop body
        self.x = self.tensor("x", "param", [64, 64], -1, -1)
        self.w = self.tensor("w", "param", [64, 64], -1, -1)
        self.o = self.tensor("o", "param", [64, 64], -1, -1)

    def loc(self, line):
        return {"line": line, "col": 1, "end_line": line, "end_col": 2}

    def tensor(self, name, kind, shape, scope, def_stmt):
        t = {"id": len(self.tensors), "name": name, "variable": name, "kind": kind, "dtype": "FP32",
             "shape": shape, "base": -1, "scope_loop": scope, "def_stmt": def_stmt,
             "loc": self.loc(1)}
        self.tensors.append(t)
        return t["id"]

    def stmt(self, kind, **fields):
        s = {"id": len(self.stmts), "kind": kind, "loc": self.loc(len(self.stmts) + 2)}
        s.update(fields)
        self.stmts.append(s)
        return s["id"]

    def access(self, t, kind, unit):
        return {"tensor": t, "kind": kind, "unit": unit, "loc": self.loc(1)}


def gen_cond(rng, k, ctx):
    """A random condition over the enclosing loops (ctx: list of loops, innermost last)."""
    loops = ctx["loops"]

    def index_term():
        lp = rng.choice(loops)
        e = ("sym", lp["index_var"])
        r = rng.random()
        if r < 0.2:
            e = ("add", e, ("int", rng.randint(-2, 3)))
        elif r < 0.3:
            e = ("mul", ("int", rng.randint(2, 3)), e)
        elif r < 0.45 and len(loops) > 1:
            other = rng.choice(loops)
            e = ("add", e, ("sym", other["index_var"]))
        return e

    def atom():
        r = rng.random()
        if not loops:
            if r < 0.5:
                return (rng.choice(list(CMP)), ("sym", "n"), ("int", rng.randint(0, 4)))
            return ("int", rng.randint(0, 1))
        if r < 0.35:
            return (rng.choice(list(CMP)), index_term(), ("int", rng.randint(-1, 6)))
        if r < 0.5:
            return ("eq", ("mod", ("sym", rng.choice(loops)["index_var"]), ("int", rng.randint(2, 3))),
                    ("int", rng.randint(0, 1)))
        if r < 0.7:
            return (rng.choice(["begin", "end"]), rng.choice(loops)["index_var"])
        if r < 0.8:
            fl = [lp for lp in loops if lp["factor_var"]]
            if fl:
                lp = rng.choice(fl)
                return (rng.choice(["eq", "ge", "lt"]), ("sym", lp["factor_var"]),
                        ("int", rng.choice(lp["factors"])))
            return ("lt", index_term(), ("int", 2))
        if r < 0.9:
            return (rng.choice(list(CMP)), index_term(), ("sym", "n"))   # n: bound or not
        return (rng.choice(list(CMP)), ("sym", "m"), index_term())      # m: a kernel constant

    e = atom()
    r = rng.random()
    if r < 0.15:
        e = ("not", e)
    elif r < 0.3:
        e = (rng.choice(["and", "or"]), e, atom())
    return e


def gen_block(rng, K, ctx, depth, budget):
    """A list of items: ("op", spec), ("if", spec), ("loop", spec)."""
    items = []
    n = rng.randint(1, 3)
    for _ in range(n):
        r = rng.random()
        if depth < 3 and r < 0.3 and budget[0] > 0:
            budget[0] -= 1
            items.append(("loop", gen_loop(rng, K, ctx, depth)))
        elif r < 0.55 and ctx["ifs"] < 4:
            ctx["ifs"] += 1
            items.append(("if", gen_if(rng, K, ctx, depth, budget)))
        else:
            items.append(("op", gen_op(rng, K, ctx)))
    return items


def gen_op(rng, K, ctx):
    loop = ctx["loops"][-1] if ctx["loops"] else None
    r = rng.random()
    if r < 0.4:
        # a root_inner intermediate: v = matmul(x, w) read by a vector op into o; its rows follow the
        # factor variable of the loop it is in (when that loop has one)
        rows = rng.choice([1, 2, 3, 4, 6, 8, 16])
        dim0 = rows
        if loop and loop["factor_var"] and rng.random() < 0.6:
            dim0 = loop["factor_var"]
        return {"kind": "inner", "rows": dim0, "cols": rng.choice([16, 32, 64, 128]),
                "loop": loop["id"] if loop else -1}
    if r < 0.6:
        return {"kind": "excl", "rows": rng.choice([1, 2, 4, 8, 32])}
    if r < 0.75:
        return {"kind": "asm", "rows": rng.choice([1, 2, 4])}
    if r < 0.9:
        return {"kind": "vec"}
    return {"kind": "decl"}


def gen_if(rng, K, ctx, depth, budget):
    branches = []
    for b in range(rng.randint(1, 3)):
        r = rng.random()
        if r < 0.1:
            branches.append({"cond": None, "text": "x[0, 0] > 0", "decided": -1})
        elif r < 0.17:
            v = rng.randint(0, 1)
            branches.append({"cond": ("int", v), "text": "pypto.cond(%d)" % v, "decided": v})
        else:
            branches.append({"cond": gen_cond(rng, K, ctx), "text": None, "decided": -1})
    if rng.random() < 0.6:
        branches.append({"cond": None, "text": None, "decided": -1, "else": True})
    for br in branches:
        # a branch body: ops (possibly nested ifs), rarely a loop (an IF walked as control flow)
        if depth < 3 and rng.random() < 0.12 and budget[0] > 0:
            budget[0] -= 1
            br["body"] = [("loop", gen_loop(rng, K, ctx, depth))]
        elif rng.random() < 0.15:
            br["body"] = []
        else:
            body = []
            for _ in range(rng.randint(1, 2)):
                if rng.random() < 0.15 and ctx["ifs"] < 4:
                    ctx["ifs"] += 1
                    body.append(("if", gen_if(rng, K, ctx, depth, budget)))
                else:
                    body.append(("op", gen_op(rng, K, ctx)))
            br["body"] = body
    return {"branches": branches}


def gen_loop(rng, K, ctx, depth, inject=None):
    lid = len(K.loops)
    K.loops.append(None)
    r = rng.random()
    if r < 0.08:
        begin, end, step = 0, rng.randint(0, 4), 0                        # a zero step
    elif r < 0.15:
        begin, end, step = rng.randint(3, 8), rng.randint(-2, 2), -rng.randint(1, 2)
    else:
        begin = rng.randint(-1, 2)
        if LONG[0]:
            # --long: trip counts where DeviceTask windows repeat (the closed form)
            end = begin + rng.randint(-1, [120, 30, 6, 4][min(depth, 3)])
        else:
            end = begin + rng.randint(-1, 9 if depth == 0 else 5)
        step = rng.choice([1, 1, 1, 2, 3])
    factors = []
    factor_var = None
    r = rng.random()
    if r < 0.35 and step != 0:
        factors = rng.sample([2, 3, 4, 5, 6, 8], rng.randint(1, 2))
        factor_var = "t%d" % lid
    elif r < 0.45 and step != 0:
        factor_var = "t%d" % lid   # loop_unroll with the default list [1]: stops at stop - span % step
    lp = {"id": lid, "name": "L%d" % lid, "index_var": "i%d" % lid, "factor_var": factor_var,
          "begin": begin, "end": end, "step": step, "unroll": factors,
          "factors": sorted(set(f for f in factors if f >= 1), reverse=True) + ([1] if 1 not in factors else []),
          "submit": rng.random() < 0.15, "parallel": rng.random() < 0.08,
          "parent": ctx["loops"][-1]["id"] if ctx["loops"] else -1,
          "rule": rng.choice(["per_factor", "greedy", None]) if factor_var else None}
    if factors and 1 in factors:
        lp["factors"] = sorted(set(factors), reverse=True)
    K.loops[lid] = lp
    ctx["loops"].append(lp)
    lp["body"] = gen_block(rng, K, ctx, depth + 1, [2])
    if inject is not None:
        lp["body"].insert(rng.randint(0, len(lp["body"])), ("op", inject))
    if depth <= 1 and rng.random() < 0.3:
        # a tensor created in this loop body, assembled by an inner loop, read after it: a new
        # allocation each time the body runs (model.md 6), carried into the next task by its reader
        decl = {"kind": "sdecl"}
        inner = gen_loop(rng, K, ctx, depth + 1, inject={"kind": "sasm", "ref": decl})
        lp["body"] = [("op", decl), ("loop", inner), ("op", {"kind": "sread", "ref": decl})] + lp["body"]
    ctx["loops"].pop()
    return lp


LONG = [False]   # --long (main)


# ---- emitting the model JSON ---------------------------------------------------------------------

def emit_items(K, items, scope, stmt_ids, rng):
    """Append statements for items; returns the block (statement ids)."""
    block = []
    for kind, spec in items:
        if kind == "op":
            block.extend(emit_op(K, spec, scope, rng))
        elif kind == "if":
            sid = K.stmt("if", branches=[], has_op=False)
            block.append(sid)
            brs = []
            for br in spec["branches"]:
                body = emit_items(K, br["body"], scope, stmt_ids, rng)
                cond = None if br["cond"] is None else cond_json(br["cond"], rng)
                brs.append({"cond": cond, "cond_text": br["text"], "decided": br["decided"], "body": body,
                            "loc": K.loc(len(K.stmts) + 2)})
            K.stmts[sid]["branches"] = brs
        else:
            lp = spec
            sid = K.stmt("loop", loop=lp["id"], has_op=False)
            block.append(sid)
            lp["stmt"] = sid
            lp["body_ids"] = emit_items(K, lp["body"], lp["id"], stmt_ids, rng)
    return block


def emit_op(K, spec, scope, rng):
    kind = spec["kind"]
    if kind == "inner":
        K.inner_tensors += 1
        s1 = K.stmt("op", has_op=True, accesses=[])
        v = K.tensor("v%d" % K.inner_tensors, "value", [spec["rows"], spec["cols"]], scope, s1)
        spec["tensor"] = v
        K.stmts[s1]["accesses"] = [K.access(K.x, "read", "cube"), K.access(K.w, "read", "cube"),
                                   K.access(v, "define", "cube")]
        s2 = K.stmt("op", has_op=True, accesses=[K.access(v, "read", "vector"),
                                                  K.access(K.o, "write_assemble", "vector")])
        return [s1, s2]
    if kind == "excl":
        e = K.tensor("e%d" % len(K.excl), "created", [spec["rows"], 64], -1, -1)
        K.excl.append(e)
        spec["tensor"] = e
        return [K.stmt("op", has_op=True, accesses=[K.access(K.x, "read", "vector"),
                                                     K.access(e, "write_whole", "vector")])]
    if kind == "asm":
        a = K.tensor("a%d" % len(K.asm), "created", [spec["rows"] * 4, 64], -1, -1)
        K.asm.append(a)
        spec["tensor"] = a
        return [K.stmt("op", has_op=True, accesses=[K.access(K.x, "read", "vector"),
                                                     K.access(a, "write_assemble", "vector")])]
    if kind == "sdecl":
        sid = K.stmt("op", has_op=False, accesses=[])
        a = K.tensor("sa%d" % len(K.sasm), "created", [4, 64], scope, sid)
        K.stmts[sid]["accesses"] = [K.access(a, "define", "none")]
        K.sasm.append(a)
        spec["tensor"] = a
        return [sid]
    if kind == "sasm":
        return [K.stmt("op", has_op=True, accesses=[K.access(K.x, "read", "vector"),
                                                     K.access(spec["ref"]["tensor"], "write_assemble", "vector")])]
    if kind == "sread":
        return [K.stmt("op", has_op=True, accesses=[K.access(spec["ref"]["tensor"], "read", "vector"),
                                                     K.access(K.o, "write_assemble", "vector")])]
    if kind == "vec":
        return [K.stmt("op", has_op=True, accesses=[K.access(K.x, "read", "vector"),
                                                     K.access(K.o, "write_assemble", "vector")])]
    return [K.stmt("op", has_op=False, accesses=[])]  # a statement that does no tensor work


def build(rng, index, seed):
    lang = rng.choice(["python", "python", "cpp"])
    K = Kernel(rng, lang)
    ctx = {"loops": [], "ifs": 0}
    budget = [4]
    items = gen_block(rng, K, ctx, 0, budget)
    if not any(kind == "loop" for kind, _ in items):
        items.append(("loop", gen_loop(rng, K, ctx, 0)))
    if rng.random() < 0.5:
        K.constants["m"] = rng.randint(0, 4)
    if rng.random() < 0.3:
        K.constants["n"] = rng.randint(0, 4)
    # declarations of the kernel-body tensors come first (they are created before they are used)
    decl_ids = []
    body_ids = emit_items(K, items, -1, None, rng)
    for t in K.excl + K.asm:
        sid = K.stmt("op", has_op=False, accesses=[K.access(t, "define", "none")])
        K.tensors[t]["def_stmt"] = sid
        decl_ids.append(sid)
    reader = None
    if K.excl or K.asm:
        # a final loop reads every outcast into the output parameter
        lid = len(K.loops)
        reader = {"id": lid, "name": "R", "index_var": "r", "factor_var": None, "begin": 0, "end": 1,
                  "step": 1, "unroll": [], "factors": [1], "submit": False, "parallel": False,
                  "parent": -1, "rule": None, "body": [("read", None)]}
        K.loops.append(reader)
        rsid = K.stmt("loop", loop=lid, has_op=False)
        reader["stmt"] = rsid
        acc = [K.access(t, "read", "vector") for t in K.excl + K.asm]
        acc.append(K.access(K.o, "write_assemble", "vector"))
        reader["body_ids"] = [K.stmt("op", has_op=True, accesses=acc)]
        body_ids.append(rsid)
        items.append(("loop", reader))
    loops_json = []
    for lp in K.loops:
        j = {"id": lp["id"], "name": lp["name"], "index_var": lp["index_var"], "factor_var": lp["factor_var"],
             "begin": lp["begin"], "end": lp["end"], "step": lp["step"], "unroll": lp["unroll"],
             "submit_before_loop": lp["submit"], "parallel": lp["parallel"], "parent": lp["parent"],
             "stmt": lp["stmt"], "body": lp["body_ids"], "loc": K.loc(1), "header": K.loc(1)}
        if lp["rule"]:
            j["unroll_rule"] = lp["rule"]
        loops_json.append(j)
    model = {"version": 1, "file": "gen_%d_%d.py" % (seed, index), "lang": lang, "fatal": False,
             "kernels": [{"id": 0, "name": "gen_%d_%d" % (seed, index), "loc": K.loc(1),
                          "insert_loc": K.loc(1), "tensors": K.tensors, "stmts": K.stmts,
                          "loops": loops_json, "body": decl_ids + body_ids, "constants": K.constants}],
             "options": [], "messages": []}
    return K, items, model


# ---- the reference: docs/model.md sections 3-6, instance by instance -----------------------------

def rule_of(K, lp):
    if lp["rule"]:
        return lp["rule"]
    return "per_factor" if K.lang == "python" else "greedy"


def segments(K, lp):
    """[(factor, [index values])] in the order the loop runs them (model.md 3, "Unroll")."""
    b, e, s = lp["begin"], lp["end"], lp["step"]
    if s == 0:
        return [(p, []) for p in lp["factors"]]
    rule = rule_of(K, lp)
    if len(lp["factors"]) == 1 and not (rule == "per_factor" and lp["factor_var"]):
        return [(1, list(range(b, e, s)))]
    out = []
    if rule == "per_factor":
        cur = b
        for p in lp["factors"]:
            end = e - ((e - b) % (s * p))
            out.append((p, list(range(cur, end, s * p))))
            cur = end
        return out
    cur = b
    for i, p in enumerate(lp["factors"]):
        stride = s * p
        if i == len(lp["factors"]) - 1:
            vals = list(range(cur, e, stride))
        else:
            span = (e - cur) if stride > 0 else (cur - e)
            n = span // abs(stride) if span > 0 else 0
            vals = [cur + j * stride for j in range(n)]
            cur += n * stride
        out.append((p, vals))
    return out


def candidates(spec, env):
    """Indices of the branches the instance may take (None = no branch)."""
    out = []
    brs = spec["branches"]
    for i, br in enumerate(brs):
        if br["decided"] == 1:
            v = 1
        elif br["decided"] == 0:
            v = 0
        elif br.get("else"):
            v = 1
        elif br["cond"] is None:
            v = None
        else:
            v = cond_value(br["cond"], env)
            if v is not None:
                v = int(v != 0)
        if v == 0:
            continue
        out.append(i)
        if v == 1:
            return out
    out.append(None)
    return out


def tensor_bytes(K, t, factor):
    rows, cols = K.tensors[t]["shape"]
    if isinstance(rows, str):
        rows = factor
    return align(rows * cols * FP32)


def run_req(K, items, env, factor, all_paths):
    """(inner, excl, has_op, asm writes) of the path taken (every path's maximum when all_paths or
    undecidable)."""
    inner = excl = 0
    has_op = False
    asm = []
    for kind, spec in items:
        if kind == "op":
            k = spec["kind"]
            if k == "inner":
                inner += tensor_bytes(K, spec["tensor"], factor)
            elif k == "excl":
                excl += tensor_bytes(K, spec["tensor"], factor)
            elif k == "asm":
                asm.append(("write", spec["tensor"]))
            elif k == "sasm":
                asm.append(("write", spec["ref"]["tensor"]))
            elif k == "sread":
                asm.append(("read", spec["ref"]["tensor"]))
            elif k == "sdecl":
                asm.append(("new", spec["tensor"]))
            if k not in ("decl", "sdecl"):
                has_op = True
        elif kind == "if":
            cands = list(range(len(spec["branches"]))) + [None] if all_paths else candidates(spec, env)
            bi = be = 0
            for c in cands:
                if c is None:
                    continue
                i2, e2, h2, a2 = run_req(K, spec["branches"][c]["body"], env, factor, all_paths)
                bi, be = max(bi, i2), max(be, e2)
                has_op = has_op or h2
                asm.extend(a2)
            inner += bi
            excl += be
        elif kind == "read":
            has_op = True
            asm.extend(("read", t) for t in K.asm)
    return inner, excl, has_op, asm


def has_loop(items):
    for kind, spec in items:
        if kind == "loop":
            return True
        if kind == "if" and any(has_loop(br["body"]) for br in spec["branches"]):
            return True
    return False


class Walk:
    def __init__(self, K, k, P, binds):
        self.K, self.k, self.P = K, k, P
        # a binding set is searched before the kernel's constants
        self.env = {"vars": dict(K.constants, **binds), "active": []}
        self.tasks = []          # [count, sum_inner, sum_excl, last_instance]
        self.count = 0
        # per workspace copy: inside a parallel loop the instances of a task go round-robin over
        # device_sched_parallelism copies and the sums are the largest copy's (model.md 5)
        self.sums = [[0, 0] for _ in range(P)]
        self.ninst = 0
        self.parallel = 0
        # assemble allocations (model.md 6): [first instance, last instance, whole launch]
        self.allocs = []
        self.current = {}
        self.need_new = set(K.asm + K.sasm)

    def cut(self):
        if self.count:
            self.tasks.append((self.count, max(c[0] for c in self.sums), max(c[1] for c in self.sums),
                               self.ninst - 1))
        self.count = 0
        self.sums = [[0, 0] for _ in range(self.P)]

    def events(self, asm, inst, creations_only):
        for what, t in asm:
            if what == "new":
                self.need_new.add(t)
            elif creations_only:
                continue
            elif what == "write":
                cur = self.current.get(t)
                if cur is None or t in self.need_new:
                    self.current[t] = [inst, inst, t in self.K.asm]
                    self.allocs.append(self.current[t])
                    self.need_new.discard(t)
                else:
                    cur[1] = max(cur[1], inst)
            elif what == "read" and t in self.current:
                self.current[t][1] = max(self.current[t][1], inst)

    def emit(self, inner, excl, asm):
        limit = 1024 if self.parallel else self.k
        if self.count >= limit:
            self.cut()
        self.events(asm, self.ninst, False)
        copy = self.count % self.P if self.parallel else 0
        self.ninst += 1
        self.count += 1
        self.sums[copy][0] += inner
        self.sums[copy][1] += excl

    def block(self, items, factor):
        run = []
        for item in items + [None]:
            if item is not None and (item[0] in ("op", "read") or (item[0] == "if" and not has_loop([item]))):
                run.append(item)
                continue
            if run:
                inner, excl, has_op, asm = run_req(self.K, run, self.env, factor, False)
                if has_op:
                    self.emit(inner, excl, asm)
                else:
                    self.events(asm, self.ninst, True)
                run = []
            if item is None:
                break
            if item[0] == "loop":
                self.loop(item[1])
            else:  # an IF holding loops: walked as control flow, every possible branch
                for c in candidates(item[1], self.env):
                    if c is not None:
                        self.block(item[1]["branches"][c]["body"], factor)

    def loop(self, lp):
        if lp["submit"]:
            self.cut()
        if lp["parallel"]:
            self.cut()
            self.parallel += 1
        state = {"index_var": lp["index_var"], "pos": 0, "n": 0}
        self.env["active"].append(state)
        saved = dict(self.env["vars"])
        for p, vals in segments(self.K, lp):
            state["n"] = len(vals)
            for pos, v in enumerate(vals):
                state["pos"] = pos
                self.env["vars"][lp["index_var"]] = v
                if lp["factor_var"]:
                    self.env["vars"][lp["factor_var"]] = p
                self.block(lp["body"], p)
        self.env["vars"] = saved
        self.env["active"].pop()
        if lp["parallel"]:
            self.cut()
            self.parallel -= 1


def compiled_units(K, items, factor):
    """U0, U2 over every compiled root: every run of every block, every factor of its loop, every
    path (model.md 6, "Units")."""
    u0 = u2 = 0
    run = []
    for item in items + [None]:
        if item is not None and (item[0] in ("op", "read") or (item[0] == "if" and not has_loop([item]))):
            run.append(item)
            continue
        if run:
            i, e, _, _ = run_req(K, run, None, factor, True)
            u0, u2 = max(u0, i), max(u2, e)
            run = []
        if item is None:
            break
        if item[0] == "loop":
            for p in item[1]["factors"]:
                a, b = compiled_units(K, item[1]["body"], p)
                u0, u2 = max(u0, a), max(u2, b)
        else:
            for br in item[1]["branches"]:
                a, b = compiled_units(K, br["body"], factor)
                u0, u2 = max(u0, a), max(u2, b)
    return u0, u2


def expect(K, items, k, P, sets):
    """model.md 3: several binding sets give the element-wise maximum of the depths; the counts are
    those of the set with the most instances (the first of equals)."""
    if not sets:
        return expect_one(K, items, k, P, {})
    results = [expect_one(K, items, k, P, b) for b in sets]
    most = max(r["instances"] for r in results)
    out = dict(next(r for r in results if r["instances"] == most))
    out["predicted"] = [max(r["predicted"][i] for r in results) for i in range(3)]
    out["unit_inner"] = max(r["unit_inner"] for r in results)
    out["unit_excl"] = max(r["unit_excl"] for r in results)
    return out


def expect_one(K, items, k, P, binds):
    w = Walk(K, k, P, binds)
    w.block(items, 1)
    w.cut()
    u0, u2 = compiled_units(K, items, 1)
    needed = [K.inner_tensors > 0, bool(K.asm or K.sasm), bool(K.excl)]
    A = len(K.asm) + len(K.sasm)  # distinct variables
    # an allocation is live from the task of its first write to the task of its last reader (a
    # kernel-body tensor's: to the end of the launch)
    firsts = [t[3] - t[0] + 1 for t in w.tasks]

    def task_of(inst):
        for i, t in enumerate(w.tasks):
            if firsts[i] <= inst <= t[3]:
                return i
        return len(w.tasks) - 1

    live = [0] * len(w.tasks)
    for first, last, whole in w.allocs:
        a, b = task_of(first), (len(w.tasks) - 1 if whole else task_of(last))
        for i in range(a, max(a, b) + 1):
            live[i] += 1
    pred = [0, 0, 0]
    for i, (count, si, se, last) in enumerate(w.tasks):
        need = [ceil_div(si, u0) if u0 else 0, ceil_div(live[i], A) if A else 0,
                ceil_div(se, u2) if u2 else 0]
        pred = [max(a, b) for a, b in zip(pred, need)]
    pred = [(max(p, 1) if n else 0) for p, n in zip(pred, needed)]
    return {"predicted": pred, "required": [int(n) for n in needed], "instances": w.ninst,
            "device_tasks": len(w.tasks), "unit_inner": u0, "unit_excl": u2}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, action="append", default=[])
    ap.add_argument("--daily", action="store_true", help="also the seed of the day (YYYYMMDD, UTC)")
    ap.add_argument("--count", type=int, default=100, help="kernels per seed")
    ap.add_argument("--long", action="store_true",
                    help="longer loops (outer trip counts up to ~120, inner ~30) and small k, so that "
                         "DeviceTask windows repeat")
    args = ap.parse_args()
    LONG[0] = args.long
    seeds = list(args.seed)
    if args.daily:
        day = int(datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d"))
        seeds.append(day)
    print("refwalk: seeds %s, %d kernels each" % (", ".join(map(str, seeds)), args.count), file=sys.stderr)
    out = sys.stdout
    for seed in seeds:
        rng = random.Random(seed)
        for i in range(args.count):
            K, items, model = build(rng, i, seed)
            k = rng.choice([1, 2, 3, 4, 5, 8, 128] if not args.long else [1, 2, 3, 4, 5, 7, 8, 16])
            P = rng.choice([1, 1, 1, 2, 3])   # device_sched_parallelism
            sets = []
            if "n" not in K.constants and rng.random() < 0.4:   # --bind n=... / a --shapes file
                sets = [{"n": rng.randint(0, 4)} for _ in range(rng.randint(1, 3))]
            out.write(json.dumps({"name": "seed %d kernel %d" % (seed, i), "seed": seed, "k": k, "P": P,
                                  "sets": sets, "model": model,
                                  "expect": expect(K, items, k, P, sets)}) + "\n")


if __name__ == "__main__":
    main()
