template <int N> struct F { enum { v = F<N - 1>::v + 1 }; };
template <> struct F<0> { enum { v = 0 }; };
int x = F<100000>::v;
