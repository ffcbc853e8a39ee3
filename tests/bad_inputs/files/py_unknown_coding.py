# -*- coding: no-such-codec -*-
import pypto
