#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_gtest.h - the gtest shims: upstream kernels mostly live in TEST / TEST_F bodies.
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own. */
#ifndef POOLCHECK_STUB_GTEST_H
#define POOLCHECK_STUB_GTEST_H

namespace testing {
class Test {
public:
    virtual ~Test();
protected:
    virtual void SetUp();
    virtual void TearDown();
};
template <class T> class TestWithParam : public Test {
    const T *param_ = nullptr;
public:
    using ParamType = T;
    const T &GetParam() const { return *param_; } /* a body: the parameter may be a local struct */
};
namespace pc_stub {
/* what a parameter generator or an assertion gives: anything can be streamed into it */
struct Generator {};
struct AssertResult {
    template <class T> AssertResult &operator<<(const T &) { return *this; }
};
struct Instantiation {};
template <class... A> Instantiation Instantiate(const A &...);
} // namespace pc_stub
template <class C> pc_stub::Generator ValuesIn(const C &container);
template <class It> pc_stub::Generator ValuesIn(It begin, It end);
template <class... T> pc_stub::Generator Values(const T &...values);
template <class T> pc_stub::Generator Range(T begin, T end);
template <class T, class S> pc_stub::Generator Range(T begin, T end, S step);
pc_stub::Generator Bool();
template <class... G> pc_stub::Generator Combine(const G &...generators);
} // namespace testing
#define INSTANTIATE_TEST_SUITE_P(prefix, fixture, ...)                                                \
    [[maybe_unused]] static const ::testing::pc_stub::Instantiation PC_STUB_TEST_NAME(prefix, fixture) = \
        ::testing::pc_stub::Instantiate(__VA_ARGS__)
#define INSTANTIATE_TEST_CASE_P(prefix, fixture, ...) INSTANTIATE_TEST_SUITE_P(prefix, fixture, __VA_ARGS__)
#define PC_STUB_TEST_NAME(a, b) a##_##b##_PoolcheckTest
#define TEST(suite, name) void PC_STUB_TEST_NAME(suite, name)()
#define TEST_F(fixture, name) struct PC_STUB_TEST_NAME(fixture, name) : fixture { void TestBody(); }; \
    void PC_STUB_TEST_NAME(fixture, name)::TestBody()
#define TEST_P(fixture, name) TEST_F(fixture, name)
#define EXPECT_TRUE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_FALSE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_EQ(...) ::testing::pc_stub::AssertResult()
#define EXPECT_NE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_LT(...) ::testing::pc_stub::AssertResult()
#define EXPECT_LE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_GT(...) ::testing::pc_stub::AssertResult()
#define EXPECT_GE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_NEAR(...) ::testing::pc_stub::AssertResult()
#define ASSERT_TRUE(...) ::testing::pc_stub::AssertResult()
#define ASSERT_FALSE(...) ::testing::pc_stub::AssertResult()
#define ASSERT_EQ(...) ::testing::pc_stub::AssertResult()
#define ASSERT_NE(...) ::testing::pc_stub::AssertResult()
#define ASSERT_LT(...) ::testing::pc_stub::AssertResult()
#define ASSERT_LE(...) ::testing::pc_stub::AssertResult()
#define ASSERT_GT(...) ::testing::pc_stub::AssertResult()
#define ASSERT_GE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_NO_THROW(...) ::testing::pc_stub::AssertResult()
#define EXPECT_STREQ(...) ::testing::pc_stub::AssertResult()
#define EXPECT_STRNE(...) ::testing::pc_stub::AssertResult()
#define EXPECT_FLOAT_EQ(...) ::testing::pc_stub::AssertResult()
#define EXPECT_DOUBLE_EQ(...) ::testing::pc_stub::AssertResult()
#define EXPECT_ANY_THROW(...) ::testing::pc_stub::AssertResult()
#define ASSERT_STREQ(...) ::testing::pc_stub::AssertResult()
#define ASSERT_NEAR(...) ::testing::pc_stub::AssertResult()
#define ASSERT_FLOAT_EQ(...) ::testing::pc_stub::AssertResult()
#define ASSERT_THROW(...) ::testing::pc_stub::AssertResult()
#define ASSERT_ANY_THROW(...) ::testing::pc_stub::AssertResult()
#define FAIL() ::testing::pc_stub::AssertResult()
#define SUCCEED() ::testing::pc_stub::AssertResult()
#define GTEST_SKIP() ::testing::pc_stub::AssertResult()
#define EXPECT_THROW(...) ::testing::pc_stub::AssertResult()
#define ASSERT_NO_THROW(...) ::testing::pc_stub::AssertResult()

#endif /* POOLCHECK_STUB_GTEST_H */
