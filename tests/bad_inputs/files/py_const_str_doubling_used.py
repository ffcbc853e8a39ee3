# each string doubles the one before and a loop is named S59: past 1 MiB the
# string is unknown (a note names it), never 2**60 bytes.
import pypto

S0 = 'ab'
S1 = S0 + S0
S2 = S1 + S1
S3 = S2 + S2
S4 = S3 + S3
S5 = S4 + S4
S6 = S5 + S5
S7 = S6 + S6
S8 = S7 + S7
S9 = S8 + S8
S10 = S9 + S9
S11 = S10 + S10
S12 = S11 + S11
S13 = S12 + S12
S14 = S13 + S13
S15 = S14 + S14
S16 = S15 + S15
S17 = S16 + S16
S18 = S17 + S17
S19 = S18 + S18
S20 = S19 + S19
S21 = S20 + S20
S22 = S21 + S21
S23 = S22 + S22
S24 = S23 + S23
S25 = S24 + S24
S26 = S25 + S25
S27 = S26 + S26
S28 = S27 + S27
S29 = S28 + S28
S30 = S29 + S29
S31 = S30 + S30
S32 = S31 + S31
S33 = S32 + S32
S34 = S33 + S33
S35 = S34 + S34
S36 = S35 + S35
S37 = S36 + S36
S38 = S37 + S37
S39 = S38 + S38
S40 = S39 + S39
S41 = S40 + S40
S42 = S41 + S41
S43 = S42 + S42
S44 = S43 + S43
S45 = S44 + S44
S46 = S45 + S45
S47 = S46 + S46
S48 = S47 + S47
S49 = S48 + S48
S50 = S49 + S49
S51 = S50 + S50
S52 = S51 + S51
S53 = S52 + S52
S54 = S53 + S53
S55 = S54 + S54
S56 = S55 + S55
S57 = S56 + S56
S58 = S57 + S57
S59 = S58 + S58


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):
    for i in pypto.loop(0, 4, 1, name=S59):
        y[:] = pypto.add(x, x)
