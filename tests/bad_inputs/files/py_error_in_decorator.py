import pypto

@pypto.frontend.jit(runtime_options={"stitch_function_num_per_pool": [64, 2, 1]
def k(x: pypto.Tensor):
    pass
