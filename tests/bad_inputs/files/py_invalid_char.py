import pypto

x = 1 $ 2
