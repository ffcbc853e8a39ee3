/* test_common.h - upstream PyPTO's system-test helpers (framework/tests/st/utils/include).  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these fallback declarations of
 * the golden-data helpers the tests call keep their files parseable. */
#pragma once
#pragma clang system_header
#include <nlohmann/json.hpp>
#include <cmath>
using namespace npu::tile_fwk;
using Json = nlohmann::json;
using namespace std;
template <typename T = float> void readInput(std::string filename, std::vector<T> &inputData);
template <typename T> void writeInput(std::string filename, std::vector<T> outData);
/* the comparisons' trailing parameters (thresholds, printing) have their defaults, as upstream's */
template <typename T = float>
bool resultCmp(const std::vector<T> &expected, const T *actual, float eps, size_t threshold = 0,
               size_t zeroCountThreshold = 1000, bool printAll = false, bool printErr = false, size_t testNum = 0);
template <typename T = float>
bool resultCmp(const std::vector<T> &expected, const std::vector<T> &actual, float eps, size_t threshold = 0,
               size_t zeroCountThreshold = 1000, bool printAll = false, bool printErr = false, size_t testNum = 0);
template <typename T = float>
bool resultCmp(const T *expected, const T *actual, size_t size, float eps, size_t threshold = 0,
               size_t zeroCountThreshold = 1000, bool printAll = false, bool printErr = false, size_t testNum = 0);
template <typename T = float>
bool resultCmpUnary(const std::vector<T> &x, const std::vector<T> &expected, const std::vector<T> &actual, float eps,
                    size_t threshold = 1, bool printAll = false, bool printErr = false);
template <typename Ts, typename Td>
bool resultCmpCast(const std::vector<Ts> &x, const std::vector<Td> &expected, const std::vector<Td> &actual, float eps,
                   size_t threshold = 1, bool printAll = false, bool printErr = false);
template <typename T>
bool resultCmp4TopK(const std::vector<T> &expected, const T *actual, size_t selectedCount, float ratio);
template <typename T = float>
bool resultCmpPrint(const std::vector<T> &expected, const T *actual, float eps, size_t testNum = 0);
template <typename T = float>
bool resultCmpAbsDelta(const std::vector<T> &expected, const T *actual, float absDelta, size_t threshold = 0,
                       size_t zeroCountThreshold = 1000, bool printAll = false, bool printErr = false,
                       size_t testNum = 0);
template <class T = float> void *readToDev(const std::string &path, int size);
uint8_t *allocDevAddr(uint64_t size);
std::string GetGoldenDir();
void SetInterpreterConfig();
/* test_common_types.h, which it includes: the device the tests run on (TILE_FWK_DEVICE_ID) */
int GetDeviceIdByEnvVar();
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
