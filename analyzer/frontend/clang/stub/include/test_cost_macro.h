/* test_cost_macro.h - upstream PyPTO's test-cost registration (framework/tests/utils).  Stub mode always uses this stand-in, whatever the include path reaches (a parse never
 * depends on what the machine has installed): these fallback declarations keep the
 * TEST_*_WITH_COST tests parseable: each is the TEST / TEST_F / TEST_P it names, after a static
 * registration of its cost. */
#pragma once
#pragma clang system_header
#include <gtest/gtest.h>
class TestCostManager {
public:
    static TestCostManager &Instance();
    void RegisterCost(const std::string &suiteName, const std::string &testName, double costSeconds);
    double GetCost(const std::string &fullName) const;
};
void ListTestsWithMetadata();
#define PC_STUB_TEST_COST(suite, name, costSeconds)                                                    \
    [[maybe_unused]] static const bool PC_STUB_TEST_NAME(suite, name##_Cost) =                          \
        (TestCostManager::Instance().RegisterCost(#suite, #name, costSeconds), true)
#define TEST_WITH_COST(suite, name, costSeconds) PC_STUB_TEST_COST(suite, name, costSeconds); TEST(suite, name)
#define TEST_F_WITH_COST(fixture, name, costSeconds) PC_STUB_TEST_COST(fixture, name, costSeconds); TEST_F(fixture, name)
#define TEST_P_WITH_COST(fixture, name, costSeconds) PC_STUB_TEST_COST(fixture, name, costSeconds); TEST_P(fixture, name)
#include "poolcheck_stub_framework.h" /* the framework internals upstream's tests reach */
