import pypto

x = "abc
