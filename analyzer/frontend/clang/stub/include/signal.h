/* <signal.h> in poolcheck's stub mode: signals.  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
extern "C" {
typedef int sig_atomic_t;
typedef void (*__sighandler_t)(int);
__sighandler_t signal(int, __sighandler_t);
int raise(int);
}
#define SIGINT 2
#define SIGABRT 6
#define SIGFPE 8
#define SIGKILL 9
#define SIGSEGV 11
#define SIGTERM 15
