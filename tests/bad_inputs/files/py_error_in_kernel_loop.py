import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor):
    for i in pypto.loop(4):
        y = pypto.add(x, x
    z = 1
