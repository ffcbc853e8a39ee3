#!/usr/bin/env python3
"""Write a large synthetic PyPTO/CANN log for the `poolcheck logs` scan benchmark.

Mostly lines that do NOT match (CANN slog headers of several modules with realistic messages,
device-log continuation lines, simulator `[file:line][MACHINE]:` lines, a few that mention
"workspace" in lower case), and about one `[Workspace Runtime ...]` message per ~2000 lines in
the device form (header line + quoted message line).  Deterministic (fixed seed), so two runs
of the benchmark scan the same bytes.

usage: gen_log.py OUTPUT SIZE_MB
"""
import random
import sys


def header(rng, level, module, pid, proc, src, tid, func=None):
    ts = "2026-11-20-%02d:%02d:%02d.%03d.%03d" % (
        rng.randrange(24), rng.randrange(60), rng.randrange(60), rng.randrange(1000), rng.randrange(1000))
    h = "[%s] %s(%d,%s):%s [%s][tid:%d]" % (level, module, pid, proc, ts, src, tid)
    if func:
        h += " %d %s" % (tid, func)
    return h


def noise_line(rng, pid, tid):
    k = rng.randrange(12)
    if k == 0:
        return header(rng, "INFO", "AICPU", pid, "aicpu_scheduler", "device_execute_context.cpp:%d" % rng.randrange(100, 900),
                      tid, "CallRootFunctionStitch") + "\n" + \
            '"[Stitch Finish] Stitch Limit Exceeded. memoryDriven=0 rootCount=%d (limit=128, hardLimit=1024) rootKey=%d, func=l_loop_%d, #callop=%d+2 (limit=60000)."' % (
                rng.randrange(1, 129), rng.randrange(64), rng.randrange(4), rng.randrange(100, 400))
    if k == 1:
        return header(rng, "DEBUG", "AICPU", pid, "aicpu_scheduler", "dev_encode_program.cpp:%d" % rng.randrange(100, 900), tid,
                      "DecodeFunction") + "\n" + '"[CalcControlMaxAicore] stitchedSize=%d, maxC=%d, maxV=%d"' % (
                rng.randrange(1, 129), rng.randrange(25), rng.randrange(50))
    if k == 2:
        return header(rng, "INFO", "RUNTIME", pid, "python3", "stream.cc:%d" % rng.randrange(100, 2000), tid) + \
            " Stream synchronize: stream_id=%d, task_id=%d, sq_id=%d, timeout=-1ms" % (
                rng.randrange(64), rng.randrange(65536), rng.randrange(512))
    if k == 3:
        return header(rng, "INFO", "GE", pid, "python3", "graph_manager.cc:%d" % rng.randrange(100, 4000), tid) + \
            " [GraphManager] RunGraph begin, graph_id:%d, session_id:%d, input num:%d" % (
                rng.randrange(100), rng.randrange(10), rng.randrange(1, 8))
    if k == 4:
        return header(rng, "DEBUG", "CCECPU", pid, "aicpu_scheduler", "ae_kernel_lib_aicpu_kfc.cpp:%d" % rng.randrange(50, 400), tid) + \
            "[CallKernelApi][AICPU_PROCESSER] kernel=%s, args size=%d, block dim=%d" % (
                rng.choice(["DynTileFwkKernelServer", "DynTileFwkInit", "AicpuKfcRun"]), rng.randrange(64, 4096), rng.randrange(1, 49))
    if k == 5:
        return "[%s:%d][MACHINE]:[DevCtrl] root=%d dup=%d path=%d leaf ops=%d, aicore=%d" % (
            rng.choice(["device_execute_context.cpp", "dev_ctrl_flow.cpp", "aicore_manager.cpp"]), rng.randrange(50, 900),
            rng.randrange(64), rng.randrange(4096), rng.randrange(4), rng.randrange(1, 300), rng.randrange(75))
    if k == 6:
        return header(rng, "INFO", "PROFILING", pid, "python3", "prof_acl_mgr.cpp:%d" % rng.randrange(100, 900), tid) + \
            " device %d report data, type=%d, length=%d bytes, total=%d" % (
                rng.randrange(8), rng.randrange(16), rng.randrange(64, 65536), rng.randrange(1 << 30))
    if k == 7:
        # mentions workspace, but not a tag poolcheck reads
        return header(rng, "INFO", "RUNTIME", pid, "python3", "npu_driver.cc:%d" % rng.randrange(100, 2000), tid) + \
            " malloc device workspace: addr=0x%x, size=%d, module=%d" % (
                rng.randrange(1 << 40), rng.randrange(1 << 24), rng.randrange(100))
    if k == 8:
        return header(rng, "WARNING", "TEFUSION", pid, "python3", "op_tiling.cc:%d" % rng.randrange(100, 900), tid) + \
            " tiling key %d not found in cache, compiling op %s_%d with %d inputs" % (
                rng.randrange(1 << 20), rng.choice(["MatMulV3", "Add", "Cast", "TransData"]), rng.randrange(999), rng.randrange(1, 5))
    if k == 9:
        return header(rng, "INFO", "AICPU", pid, "aicpu_scheduler", "aicpu_sharder.cpp:%d" % rng.randrange(50, 500), tid) + \
            " ParallelFor shard num=%d, total=%d, per unit size=%d" % (rng.randrange(1, 8), rng.randrange(1 << 16), rng.randrange(1, 4096))
    if k == 10:
        return header(rng, "INFO", "HCCL", pid, "python3", "hccl_comm.cc:%d" % rng.randrange(100, 900), tid) + \
            " [HcclCommInitRootInfo] rank=%d, rankSize=%d, deviceLogicId=%d, identifier=%016x" % (
                rng.randrange(8), 8, rng.randrange(8), rng.randrange(1 << 63))
    return header(rng, "EVENT", "RUNTIME", pid, "python3", "runtime.cc:%d" % rng.randrange(100, 900), tid) + \
        " Event record, event_id=%d, stream_id=%d, task_id=%d" % (rng.randrange(1024), rng.randrange(64), rng.randrange(65536))


def workspace_lines(rng, pid, tid, task):
    src = "dev_workspace.cpp"
    peak = 512 * rng.randrange(1, 65)
    return [
        header(rng, "INFO", "AICPU", pid, "aicpu_scheduler", src + ":118", tid, "LogTuningUsage") + "\n" +
        '"[Workspace Runtime Pool] parallelId=0, " "rootInner={current=%d,peak=%d,capacity=65536}, " '
        '"exclusiveOutcast={current=4096,peak=4096,capacity=524288}, " '
        '"assembleOutcast={currentSlots=1,peakSlots=1,capacitySlots=128}."' % (peak, peak),
        header(rng, "INFO", "AICPU", pid, "aicpu_scheduler", src + ":131", tid, "LogTuningUsage") + "\n" +
        '"[Workspace Runtime Tuning] taskId=%d, stitchCount=%d, " '
        '"configuredDepths={rootInner=128,innerTemporal=128,exclusive=128}, " '
        '"recommendedDepths={rootInner=%d,assembleOutcast=1,exclusive=1}."' % (task, rng.randrange(1, 129), peak // 512),
    ]


def main():
    out, size_mb = sys.argv[1], float(sys.argv[2])
    target = int(size_mb * 1024 * 1024)
    rng = random.Random(20261120)
    pid, tid = 48211, 48230
    # A block of ~8 MB of varied lines, written with its Workspace lines re-numbered each time.
    block = []
    for i in range(60000):
        block.append(noise_line(rng, pid, tid))
    written = 0
    task = 0
    with open(out, "w", encoding="ascii", newline="\n") as f:
        while written < target:
            parts = []
            for i, line in enumerate(block):
                parts.append(line)
                if i % 2000 == 1999:
                    parts.extend(workspace_lines(rng, pid, tid, task))
                    task += 1
            text = "\n".join(parts) + "\n"
            if written + len(text) > target:
                text = text[: target - written]
                text = text[: text.rfind("\n") + 1]
                if not text:
                    break
            f.write(text)
            written += len(text)
        tail = [
            header(rng, "INFO", "AICPU", pid, "aicpu_scheduler", "dev_workspace.cpp:160", tid, "LogTuningSummary") + "\n" +
            '"[Workspace Runtime Summary] parallelId=0, " "rootInner={peak=32768,capacity=65536}, " '
            '"exclusiveOutcast={peak=4096,capacity=524288}, " "assembleOutcast={peakSlots=1,capacitySlots=128}."',
            header(rng, "INFO", "AICPU", pid, "aicpu_scheduler", "dev_workspace.cpp:175", tid, "LogTuningSummary") + "\n" +
            '"[Workspace Runtime Recommendation] actualDepths={rootInner=128,innerTemporal=128,exclusive=128}, " '
            '"recommendedDepths={rootInner=64,assembleOutcast=1,exclusive=1}, " '
            '"depthMemory={rawPerParallelBytes={rootInner=512,innerTemporal=4096,exclusive=4096}, " '
            '"nextDepthTotalBytes={rootInner=0,assembleOutcast=0,exclusive=0}, parallelism=1}."',
        ]
        f.write("\n".join(tail) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
