/* PLACEHOLDER main (owner: cli) */
#include <stdio.h>
int main(void) { fputs("poolcheck: not built yet\n", stderr); return 2; }
