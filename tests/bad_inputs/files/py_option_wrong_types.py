import pypto

pypto.experimental.set_runtime_options(stitch_function_num_per_pool=[64, True, 1.5],
                                       stitch_function_max_num="128",
                                       max_workspace_kb=-1,
                                       device_sched_parallelism=None)


@pypto.frontend.jit(runtime_options={"stitch_function_num_per_pool": (1, 2), "device_sched_parallelism": 9})
def k(x: pypto.Tensor):
    for i in pypto.loop(4):
        y = pypto.add(x, x)
