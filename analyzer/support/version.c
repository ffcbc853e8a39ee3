/* version.c - the library's version, beneath every module: the reports (SARIF's tool, the HTML
 * report's footer) name it without reaching up to the driver. */
#include "poolcheck/support.h"

const char *pc_version(void)
{
#ifdef POOLCHECK_VERSION
    return POOLCHECK_VERSION;
#else
    return "0";
#endif
}
