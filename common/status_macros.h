#ifndef CREASE_COMMON_STATUS_MACROS_H_
#define CREASE_COMMON_STATUS_MACROS_H_

// Early returns on errors, and checks of documented preconditions. Header
// only: every part may use it.

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status) once; returns it from the enclosing
// function unless it is OK.
#define CREASE_RETURN_IF_ERROR(expr)                                    \
  do {                                                                  \
    if (::absl::Status crease_status_ = (expr); !crease_status_.ok()) { \
      return crease_status_;                                            \
    }                                                                   \
  } while (false)

// `lhs` is a declaration or an lvalue; `rexpr` an absl::StatusOr<T>. On an
// error, returns its status from the enclosing function; else moves the
// value into `lhs`. One statement; not inside an unbraced if.
#define CREASE_ASSIGN_OR_RETURN(lhs, rexpr) \
  CREASE_ASSIGN_OR_RETURN_IMPL_(            \
      CREASE_STATUS_CONCAT_(crease_statusor_, __LINE__), lhs, rexpr)

#define CREASE_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                  \
  if (!statusor.ok()) return std::move(statusor).status();  \
  lhs = *std::move(statusor)

#define CREASE_STATUS_CONCAT_INNER_(a, b) a##b
#define CREASE_STATUS_CONCAT_(a, b) CREASE_STATUS_CONCAT_INNER_(a, b)

// A documented precondition, checked in debug builds and in the sanitizer
// and fuzz builds (CREASE_CHECKS): a violation is a bug in the caller, not
// bad input, so it aborts with the condition and where. Other builds (NDEBUG)
// do not evaluate it. Input from outside is checked with a Status instead,
// always.
#if defined(NDEBUG) && !defined(CREASE_CHECKS)
#define CREASE_DCHECK(condition) \
  do {                           \
    if (false && (condition)) {  \
    }                            \
  } while (false)
#else
#define CREASE_DCHECK(condition)                                         \
  do {                                                                   \
    if (!(condition)) {                                                  \
      std::fprintf(stderr, "%s:%d: precondition failed: %s\n", __FILE__, \
                   __LINE__, #condition);                                \
      std::abort();                                                      \
    }                                                                    \
  } while (false)
#endif

#endif  // CREASE_COMMON_STATUS_MACROS_H_
