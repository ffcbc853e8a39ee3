/* <math.h> in poolcheck's stub mode: the math functions (double and float; the float overloads C++ adds).  The stub's own, so that a stub-mode parse
 * never reads a header of the machine (README.md, "How it works"). */
#pragma once
#pragma clang system_header
extern "C" {
double sqrt(double);
float sqrtf(float);
double pow(double, double);
float powf(float, float);
double exp(double);
float expf(float);
double log(double);
float logf(float);
double ceil(double);
float ceilf(float);
double floor(double);
float floorf(float);
double fabs(double);
float fabsf(float);
double round(double);
float roundf(float);
double log2(double);
float log2f(float);
double fmax(double, double);
float fmaxf(float, float);
double fmin(double, double);
float fminf(float, float);
double fmod(double, double);
float fmodf(float, float);
double trunc(double);
float truncf(float);
double cbrt(double);
float cbrtf(float);
double hypot(double, double);
float hypotf(float, float);
double exp2(double);
float exp2f(float);
double expm1(double);
float expm1f(float);
double log10(double);
float log10f(float);
double log1p(double);
float log1pf(float);
double sin(double);
float sinf(float);
double cos(double);
float cosf(float);
double tan(double);
float tanf(float);
double asin(double);
float asinf(float);
double acos(double);
float acosf(float);
double atan(double);
float atanf(float);
double atan2(double, double);
float atan2f(float, float);
double sinh(double);
float sinhf(float);
double cosh(double);
float coshf(float);
double tanh(double);
float tanhf(float);
double asinh(double);
float asinhf(float);
double acosh(double);
float acoshf(float);
double atanh(double);
float atanhf(float);
double erf(double);
float erff(float);
double erfc(double);
float erfcf(float);
double tgamma(double);
float tgammaf(float);
double lgamma(double);
float lgammaf(float);
double nearbyint(double);
float nearbyintf(float);
double rint(double);
float rintf(float);
double remainder(double, double);
float remainderf(float, float);
double copysign(double, double);
float copysignf(float, float);
double fdim(double, double);
float fdimf(float, float);
long lround(double); long long llround(double); double ldexp(double, int); double frexp(double, int *); double modf(double, double *);
}
#ifdef __cplusplus
inline float sqrt(float x) { return ::sqrtf(x); }
inline float pow(float x, float y) { return ::powf(x, y); }
inline float exp(float x) { return ::expf(x); }
inline float log(float x) { return ::logf(x); }
inline float ceil(float x) { return ::ceilf(x); }
inline float floor(float x) { return ::floorf(x); }
inline float fabs(float x) { return ::fabsf(x); }
inline float round(float x) { return ::roundf(x); }
inline float log2(float x) { return ::log2f(x); }
inline float fmax(float x, float y) { return ::fmaxf(x, y); }
inline float fmin(float x, float y) { return ::fminf(x, y); }
inline float fmod(float x, float y) { return ::fmodf(x, y); }
inline float trunc(float x) { return ::truncf(x); }
inline float cbrt(float x) { return ::cbrtf(x); }
inline float hypot(float x, float y) { return ::hypotf(x, y); }
inline float exp2(float x) { return ::exp2f(x); }
inline float expm1(float x) { return ::expm1f(x); }
inline float log10(float x) { return ::log10f(x); }
inline float log1p(float x) { return ::log1pf(x); }
inline float sin(float x) { return ::sinf(x); }
inline float cos(float x) { return ::cosf(x); }
inline float tan(float x) { return ::tanf(x); }
inline float asin(float x) { return ::asinf(x); }
inline float acos(float x) { return ::acosf(x); }
inline float atan(float x) { return ::atanf(x); }
inline float atan2(float x, float y) { return ::atan2f(x, y); }
inline float sinh(float x) { return ::sinhf(x); }
inline float cosh(float x) { return ::coshf(x); }
inline float tanh(float x) { return ::tanhf(x); }
inline float asinh(float x) { return ::asinhf(x); }
inline float acosh(float x) { return ::acoshf(x); }
inline float atanh(float x) { return ::atanhf(x); }
inline float erf(float x) { return ::erff(x); }
inline float erfc(float x) { return ::erfcf(x); }
inline float tgamma(float x) { return ::tgammaf(x); }
inline float lgamma(float x) { return ::lgammaf(x); }
inline float nearbyint(float x) { return ::nearbyintf(x); }
inline float rint(float x) { return ::rintf(x); }
inline float remainder(float x, float y) { return ::remainderf(x, y); }
inline float copysign(float x, float y) { return ::copysignf(x, y); }
inline float fdim(float x, float y) { return ::fdimf(x, y); }
#endif
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
