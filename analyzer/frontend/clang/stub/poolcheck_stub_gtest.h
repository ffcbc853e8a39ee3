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
/* what a parameter generator gives */
struct Generator {};
/* what an assertion gives: a message streams into it as into a std::ostream (gtest's Message) */
struct AssertResult {
    template <class T> auto operator<<(const T &v) -> decltype(std::declval<std::ostream &>() << v, *this) { return *this; }
};
/* INSTANTIATE_TEST_SUITE_P's parameter generator, and the name generator gtest allows after it
 * (a body, never run: it may be a lambda) */
struct Instantiation {};
Instantiation Instantiate(const Generator &generator);
template <class NameGenerator> Instantiation Instantiate(const Generator &, const NameGenerator &) { return {}; }
} // namespace pc_stub
template <class C> pc_stub::Generator ValuesIn(const C &container);
template <class It> pc_stub::Generator ValuesIn(It begin, It end);
template <class... T> pc_stub::Generator Values(const T &...values);
} // namespace testing
#define INSTANTIATE_TEST_SUITE_P(prefix, fixture, ...)                                                \
    [[maybe_unused]] static const ::testing::pc_stub::Instantiation PC_STUB_TEST_NAME(prefix, fixture) = \
        ::testing::pc_stub::Instantiate(__VA_ARGS__)
#define INSTANTIATE_TEST_CASE_P(prefix, fixture, ...) INSTANTIATE_TEST_SUITE_P(prefix, fixture, __VA_ARGS__)
#define PC_STUB_TEST_NAME(a, b) a##_##b##_PoolcheckTest
/* Each test is a struct with its body as TestBody(), as gtest makes it; pc_stub_test names the test
 * as gtest prints it (Suite.Name), which poolcheck shows to tell apart kernels of the same name. */
#define TEST(suite, name)                                                                          \
    struct PC_STUB_TEST_NAME(suite, name) {                                                        \
        void TestBody();                                                                           \
        static constexpr const char *pc_stub_test = #suite "." #name;                              \
    };                                                                                             \
    void PC_STUB_TEST_NAME(suite, name)::TestBody()
#define TEST_F(fixture, name)                                                                      \
    struct PC_STUB_TEST_NAME(fixture, name) : fixture {                                            \
        void TestBody();                                                                           \
        static constexpr const char *pc_stub_test = #fixture "." #name;                            \
    };                                                                                             \
    void PC_STUB_TEST_NAME(fixture, name)::TestBody()
#define TEST_P(fixture, name) TEST_F(fixture, name)
/* The assertions evaluate what they assert, as gtest's do (a comparison needs its operator, a
 * condition converts to bool), so an error in an argument is clang's error; each is an
 * expression a message can be streamed into.  The exception assertions run their statement in a
 * lambda (gtest runs it in a try block), so that it stays an expression too. */
namespace testing {
namespace pc_stub {
AssertResult Check(bool condition);
template <class A, class B> auto Eq(const A &a, const B &b) -> decltype((void)(a == b), AssertResult());
template <class A, class B> auto Ne(const A &a, const B &b) -> decltype((void)(a != b), AssertResult());
template <class A, class B> auto Lt(const A &a, const B &b) -> decltype((void)(a < b), AssertResult());
template <class A, class B> auto Le(const A &a, const B &b) -> decltype((void)(a <= b), AssertResult());
template <class A, class B> auto Gt(const A &a, const B &b) -> decltype((void)(a > b), AssertResult());
template <class A, class B> auto Ge(const A &a, const B &b) -> decltype((void)(a >= b), AssertResult());
AssertResult Near(double a, double b, double absError);
AssertResult FloatEq(float a, float b);
AssertResult DoubleEq(double a, double b);
AssertResult StrEq(const char *a, const char *b);
/* bodies (never run): a lambda has no linkage */
template <class Exception, class Statement> AssertResult Throws(const Statement &) { return AssertResult(); }
template <class Statement> AssertResult AnyThrow(const Statement &) { return AssertResult(); }
template <class Statement> AssertResult NoThrow(const Statement &) { return AssertResult(); }
} // namespace pc_stub
} // namespace testing
#define EXPECT_TRUE(...) ::testing::pc_stub::Check(static_cast<bool>(__VA_ARGS__))
#define EXPECT_FALSE(...) ::testing::pc_stub::Check(!static_cast<bool>(__VA_ARGS__))
#define EXPECT_EQ(a, b) ::testing::pc_stub::Eq((a), (b))
#define EXPECT_NE(a, b) ::testing::pc_stub::Ne((a), (b))
#define EXPECT_LT(a, b) ::testing::pc_stub::Lt((a), (b))
#define EXPECT_LE(a, b) ::testing::pc_stub::Le((a), (b))
#define EXPECT_GT(a, b) ::testing::pc_stub::Gt((a), (b))
#define EXPECT_GE(a, b) ::testing::pc_stub::Ge((a), (b))
#define EXPECT_NEAR(a, b, absError) ::testing::pc_stub::Near((a), (b), (absError))
#define EXPECT_FLOAT_EQ(a, b) ::testing::pc_stub::FloatEq((a), (b))
#define EXPECT_DOUBLE_EQ(a, b) ::testing::pc_stub::DoubleEq((a), (b))
#define EXPECT_STREQ(a, b) ::testing::pc_stub::StrEq((a), (b))
#define EXPECT_STRNE(a, b) ::testing::pc_stub::StrEq((a), (b))
#define EXPECT_THROW(statement, exception) ::testing::pc_stub::Throws<exception>([&]() { statement; })
#define EXPECT_ANY_THROW(statement) ::testing::pc_stub::AnyThrow([&]() { statement; })
#define EXPECT_NO_THROW(statement) ::testing::pc_stub::NoThrow([&]() { statement; })
#define ASSERT_TRUE(...) EXPECT_TRUE(__VA_ARGS__)
#define ASSERT_FALSE(...) EXPECT_FALSE(__VA_ARGS__)
#define ASSERT_EQ(a, b) EXPECT_EQ(a, b)
#define ASSERT_NE(a, b) EXPECT_NE(a, b)
#define ASSERT_LT(a, b) EXPECT_LT(a, b)
#define ASSERT_LE(a, b) EXPECT_LE(a, b)
#define ASSERT_GT(a, b) EXPECT_GT(a, b)
#define ASSERT_GE(a, b) EXPECT_GE(a, b)
#define ASSERT_NEAR(a, b, absError) EXPECT_NEAR(a, b, absError)
#define ASSERT_FLOAT_EQ(a, b) EXPECT_FLOAT_EQ(a, b)
#define ASSERT_DOUBLE_EQ(a, b) EXPECT_DOUBLE_EQ(a, b)
#define ASSERT_STREQ(a, b) EXPECT_STREQ(a, b)
#define ASSERT_STRNE(a, b) EXPECT_STRNE(a, b)
#define ASSERT_THROW(statement, exception) EXPECT_THROW(statement, exception)
#define ASSERT_ANY_THROW(statement) EXPECT_ANY_THROW(statement)
#define ASSERT_NO_THROW(statement) EXPECT_NO_THROW(statement)
#define FAIL() ::testing::pc_stub::AssertResult()
#define SUCCEED() ::testing::pc_stub::AssertResult()
#define ADD_FAILURE() ::testing::pc_stub::AssertResult()
#define GTEST_SKIP() ::testing::pc_stub::AssertResult()

#endif /* POOLCHECK_STUB_GTEST_H */
