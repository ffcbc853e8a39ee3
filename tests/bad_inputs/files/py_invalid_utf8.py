import pypto

name = "ÿşÃ("
