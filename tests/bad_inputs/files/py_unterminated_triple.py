import pypto

doc = """never closed

@pypto.frontend.jit
def k(x: pypto.Tensor):
    pass
