//===--- Expected.h - Failing a test on an error instead of crashing ------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers that turn a failed llvm::Expected, a failed llvm::Error or an empty
/// std::optional / llvm::Optional into a test failure that shows the error,
/// instead of a crash when the test goes on and dereferences it:
///
///     ASSERT_THAT_EXPECTED_VALUE(Rules, RuleSet::loadBuffer("a.yaml", Yaml));
///     EXPECT_EQ(1u, Rules.size());      // Rules is the RuleSet, moved out
///
///     EXPECT_TRUE(test::succeeded(Set.merge(std::move(Other))));
///
/// ASSERT_THAT_EXPECTED_VALUE is fatal (it returns from the enclosing
/// function), so it can be used only in functions returning void, such as a
/// TEST body. A helper that returns a value should return an llvm::Expected
/// itself and let the test unwrap it with the macro.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_EXPECTED_H
#define DEVPORT_TESTS_SUPPORT_EXPECTED_H

#include "llvm/ADT/Optional.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <optional>
#include <utility>

namespace devport::test {

/// Success if E holds a value; otherwise a failure whose message is E's
/// error text. The error is consumed either way, so E may then be destroyed
/// (and, on success, dereferenced).
template <typename T>::testing::AssertionResult hasValue(llvm::Expected<T> &E) {
  if (E)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "error: " << llvm::toString(E.takeError());
}

template <typename T>::testing::AssertionResult hasValue(const std::optional<T> &O) {
  if (O)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "empty std::optional";
}

template <typename T>::testing::AssertionResult hasValue(const llvm::Optional<T> &O) {
  if (O)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "empty llvm::Optional";
}

/// Success for llvm::Error::success(); otherwise a failure with the error's
/// text. Consumes E.
inline ::testing::AssertionResult succeeded(llvm::Error E) {
  if (!E)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "error: " << llvm::toString(std::move(E));
}

} // namespace devport::test

#define DEVPORT_TEST_CONCAT_IMPL(A, B) A##B
#define DEVPORT_TEST_CONCAT(A, B) DEVPORT_TEST_CONCAT_IMPL(A, B)

/// Evaluates Expr (an llvm::Expected<T>, which must be an rvalue, or a
/// std::optional<T> or llvm::Optional<T>) once. If it holds no value, records a fatal failure
/// with the error text and the expression, and returns from the enclosing
/// function; otherwise declares `auto Var` holding the value, moved out.
#define ASSERT_THAT_EXPECTED_VALUE(Var, Expr)                                                      \
  DEVPORT_ASSERT_THAT_EXPECTED_VALUE_IMPL(Var, Expr,                                               \
                                          DEVPORT_TEST_CONCAT(DevportOrError_, __COUNTER__))
#define DEVPORT_ASSERT_THAT_EXPECTED_VALUE_IMPL(Var, Expr, Tmp)                                    \
  auto Tmp = (Expr);                                                                               \
  ASSERT_TRUE(::devport::test::hasValue(Tmp)) << "in: " #Expr;                                     \
  auto Var = std::move(*Tmp)

#endif
