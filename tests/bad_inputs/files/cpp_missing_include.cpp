#include "no/such/header.h"
#include <no_such_system_header>
int x;
