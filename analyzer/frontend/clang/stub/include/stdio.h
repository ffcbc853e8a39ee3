/* <stdio.h> in poolcheck's stub mode: streams and formatted output.  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
#include <stddef.h>
#include <stdarg.h>
extern "C" {
typedef struct _IO_FILE FILE;
extern FILE *stdin, *stdout, *stderr;
FILE *fopen(const char *, const char *); FILE *fdopen(int, const char *); int fclose(FILE *); int fflush(FILE *);
size_t fread(void *, size_t, size_t, FILE *); size_t fwrite(const void *, size_t, size_t, FILE *);
int fseek(FILE *, long, int); long ftell(FILE *); void rewind(FILE *); int feof(FILE *); int ferror(FILE *);
int fgetc(FILE *); int getc(FILE *); int getchar(void); char *fgets(char *, int, FILE *);
int fputc(int, FILE *); int putc(int, FILE *); int putchar(int); int fputs(const char *, FILE *); int puts(const char *);
int printf(const char *, ...); int fprintf(FILE *, const char *, ...); int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...); int vprintf(const char *, va_list); int vfprintf(FILE *, const char *, va_list);
int vsnprintf(char *, size_t, const char *, va_list); int vsprintf(char *, const char *, va_list);
int scanf(const char *, ...); int sscanf(const char *, const char *, ...); int fscanf(FILE *, const char *, ...);
int remove(const char *); int rename(const char *, const char *); FILE *tmpfile(void); void perror(const char *);
FILE *popen(const char *, const char *); int pclose(FILE *); int fileno(FILE *);
}
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define BUFSIZ 8192
