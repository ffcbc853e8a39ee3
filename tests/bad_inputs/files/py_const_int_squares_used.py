# each constant squares the one before and the kernel's loop runs C39 times: the
# value past int64 is unknown (a note names it), never a tree that doubles with every line.
import pypto

C0 = 3
C1 = C0 * C0
C2 = C1 * C1
C3 = C2 * C2
C4 = C3 * C3
C5 = C4 * C4
C6 = C5 * C5
C7 = C6 * C6
C8 = C7 * C7
C9 = C8 * C8
C10 = C9 * C9
C11 = C10 * C10
C12 = C11 * C11
C13 = C12 * C12
C14 = C13 * C13
C15 = C14 * C14
C16 = C15 * C15
C17 = C16 * C16
C18 = C17 * C17
C19 = C18 * C18
C20 = C19 * C19
C21 = C20 * C20
C22 = C21 * C21
C23 = C22 * C22
C24 = C23 * C23
C25 = C24 * C24
C26 = C25 * C25
C27 = C26 * C26
C28 = C27 * C27
C29 = C28 * C28
C30 = C29 * C29
C31 = C30 * C30
C32 = C31 * C31
C33 = C32 * C32
C34 = C33 * C33
C35 = C34 * C34
C36 = C35 * C35
C37 = C36 * C36
C38 = C37 * C37
C39 = C38 * C38


@pypto.frontend.jit
def k(x: pypto.Tensor([16, 16], pypto.DT_FP32), y: pypto.Tensor([16, 16], pypto.DT_FP32)):
    for i in pypto.loop(0, C39, 1, name="l"):
        y[:] = pypto.add(x, x)
