import pypto

@pypto.frontend.jit
