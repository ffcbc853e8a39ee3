import pypto
import os

POOL = [int(os.environ["A"]), 1, 1]
pypto.experimental.set_runtime_options(stitch_function_num_per_pool=POOL,
                                       stitch_function_max_num=lambda: 3,
                                       max_workspace_kb={"a": 1})


@pypto.frontend.jit(runtime_options=make_options())
def k(x: pypto.Tensor):
    for i in pypto.loop(4):
        y = pypto.add(x, x)
