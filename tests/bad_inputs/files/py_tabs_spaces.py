import pypto

@pypto.frontend.jit
def k(x: pypto.Tensor):
	if x:
	    y = 1
        z = 2
