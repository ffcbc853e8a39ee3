const char *s = "ÿşÃ(";
// été
int x;
