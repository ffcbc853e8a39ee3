import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor)
    pass
