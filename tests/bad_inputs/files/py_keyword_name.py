import pypto

def class(x):
    pass
