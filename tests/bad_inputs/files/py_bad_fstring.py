import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor):
    async = 1
    f"{x!z}"
