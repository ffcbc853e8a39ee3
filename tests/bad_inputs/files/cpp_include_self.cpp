#include "cpp_include_self.cpp"
int x;
