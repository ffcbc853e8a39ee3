import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor):
    pypto.experimental.set_runtime_options(stitch_function_num_per_pool=)
