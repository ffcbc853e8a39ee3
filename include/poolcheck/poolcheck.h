/*
 * poolcheck/poolcheck.h - libpoolcheck's umbrella header, for its clients (the CLI, the plugins,
 * programs embedding the library): every public header.  Inside the library each module includes
 * the headers it uses, so the include graph shows what depends on what.
 */
#ifndef POOLCHECK_POOLCHECK_H
#define POOLCHECK_POOLCHECK_H

#include "poolcheck/analysis.h"
#include "poolcheck/bind.h"
#include "poolcheck/config.h"
#include "poolcheck/diag.h"
#include "poolcheck/driver.h"
#include "poolcheck/frontend.h"
#include "poolcheck/logs.h"
#include "poolcheck/model.h"
#include "poolcheck/report.h"
#include "poolcheck/support.h"

#endif
