import pypto


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):
    for i in pypto.loop(0, (1 << 62) * 4, 1, name="a"):
        y[:] = pypto.add(x, x)
