/* offender.c - an archive member with two globals that lack the pc_ prefix (a function and an
 * object), next to what the check must accept: a pc_ function, a pc_ constant, static functions
 * and objects, and an undefined reference.  CTest symbols_offender runs check_symbols.py on the
 * archive built from this file and expects exactly an_walk and counter to be reported, so the
 * check is shown to fail on real `nm` output, not only on the text of its self-test. */
#include <string.h>

int counter;                          /* offender: a global object */
const int pc_symbols_table[2] = {1, 2}; /* fine: prefixed constant */

static int helper(int x) { return x + (int)strlen("ab"); } /* fine: static, and strlen is undefined */
static int cache[4];                  /* fine: static object */

void an_walk(int x) { cache[0] = helper(x); counter = cache[0]; } /* offender: a global function */
int pc_symbols_probe(void) { return cache[0] + pc_symbols_table[1]; } /* fine: prefixed */
