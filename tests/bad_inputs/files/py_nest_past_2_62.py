import pypto


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):
    for i in pypto.loop(0, 2147483648, 1, name="a"):
        for j in pypto.loop(0, 2147483649, 1, name="b"):
            y[:] = pypto.add(x, x)
