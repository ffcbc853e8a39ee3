const char *s = "never closed;
int x = 1;
