import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor):
        y = 1
    z = 2
