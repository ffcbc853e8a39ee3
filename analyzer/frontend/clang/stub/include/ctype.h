/* <ctype.h> in poolcheck's stub mode: the character classes.  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
extern "C" {
int isalnum(int); int isalpha(int); int isblank(int); int iscntrl(int); int isdigit(int); int isgraph(int);
int islower(int); int isprint(int); int ispunct(int); int isspace(int); int isupper(int); int isxdigit(int);
int tolower(int); int toupper(int);
}
