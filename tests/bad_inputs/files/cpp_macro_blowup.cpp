#define A(x) x x x x x x x x
#define B(x) A(A(A(A(x))))
int v[] = { B(1,) };
