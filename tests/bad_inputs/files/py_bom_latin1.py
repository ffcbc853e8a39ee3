# -*- coding: latin-1 -*-
import pypto
