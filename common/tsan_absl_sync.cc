// ThreadSanitizer builds only (CREASE_TSAN): absl's synchronization, annotated.
//
// Debian's Abseil is built without TSan, so absl::Mutex hands memory from one
// thread to the next through futexes TSan never sees, and every access a mutex
// guards reads as a race. Every executable of a TSan build links this file: its
// definitions of absl's Mutex, CondVar and Notification members take the place
// of the shared library's (the executable is first in the dynamic linker's
// search order, also for calls made inside libgrpc and libabsl), tell TSan what
// each does as Abseil's own TSan build would, and call the library's code
// (dlsym(RTLD_NEXT)) to do it. What a Condition reads while the library
// evaluates it (on the waiter's thread or on one that unlocks) is not checked:
// it runs inside the annotated call, where TSan ignores accesses. Abseil's own
// TSan build checks those reads; this one can miss a race there, not invent
// one.
#if !defined(__SANITIZE_THREAD__)
#error "tsan_absl_sync.cc is for -fsanitize=thread builds only"
#endif

#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/base/options.h"
#include "absl/cleanup/cleanup.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

#define CREASE_TSAN_STRINGIZE_(x) #x
#define CREASE_TSAN_STRINGIZE(x) CREASE_TSAN_STRINGIZE_(x)

namespace {

// The library's definition of "<head>4absl<N><inline namespace><tail>", the
// Itanium mangling of a member of absl's inline namespace.
template <typename Fn>
Fn LibraryFunction(const char* head, const char* tail) {
  const std::string inline_namespace =
      CREASE_TSAN_STRINGIZE(ABSL_OPTION_INLINE_NAMESPACE_NAME);
  const std::string name = std::string(head) + "4absl" +
                           std::to_string(inline_namespace.size()) +
                           inline_namespace + tail;
  void* symbol = dlsym(RTLD_NEXT, name.c_str());
  if (symbol == nullptr) {
    std::fprintf(stderr, "tsan_absl_sync: %s is not in Abseil's library\n",
                 name.c_str());
    std::abort();
  }
  return reinterpret_cast<Fn>(symbol);
}

constexpr unsigned kRead = __tsan_mutex_read_lock;

// The mode the caller holds `mu` in: absl's Await and CondVar waits take
// either. The Mutex is one word; absl's mutex.cc sets kMuWriter (0x8) in it
// while a writer holds it.
unsigned HeldMode(const absl::Mutex* mu) {
  static_assert(sizeof(absl::Mutex) == sizeof(std::atomic<intptr_t>));
  constexpr intptr_t kMuWriter = 0x0008;
  const intptr_t word =
      reinterpret_cast<const std::atomic<intptr_t>*>(mu)->load(
          std::memory_order_relaxed);
  return (word & kMuWriter) != 0 ? 0 : kRead;
}

// A waiter releases the mutex and takes it again in the mode it held; to TSan
// both happen around the library's call (which lets other threads in between).
// Returns the mode, for the caller's __tsan_mutex_post_lock.
unsigned AnnotateReleaseForWait(absl::Mutex* mu) {
  const unsigned mode = HeldMode(mu);
  __tsan_mutex_pre_unlock(mu, mode);
  __tsan_mutex_post_unlock(mu, mode);
  __tsan_mutex_pre_lock(mu, mode);
  return mode;
}

// The library's members call each other (AwaitWithTimeout calls
// AwaitWithDeadline, a Notification waits with LockWhen), and those calls come
// back here: only the outermost call on a thread is annotated.
thread_local int depth = 0;
class Outermost {
 public:
  Outermost() : outermost_(depth++ == 0) {}
  ~Outermost() { --depth; }
  Outermost(const Outermost&) = delete;
  Outermost& operator=(const Outermost&) = delete;
  explicit operator bool() const { return outermost_; }

 private:
  const bool outermost_;
};

// `call` (the library's function) inside the annotations of taking `mu` in
// `mode`, of giving it up, or of a wait (given up and taken again in the mode
// held); a nested call runs bare.
template <typename Call>
auto AnnotatedLock(absl::Mutex* mu, unsigned mode, Call call) {
  const Outermost outermost;
  if (!outermost) return call();
  __tsan_mutex_pre_lock(mu, mode);
  const absl::Cleanup post = [&] { __tsan_mutex_post_lock(mu, mode, 0); };
  return call();
}

template <typename Call>
auto AnnotatedUnlock(absl::Mutex* mu, unsigned mode, Call call) {
  const Outermost outermost;
  if (!outermost) return call();
  __tsan_mutex_pre_unlock(mu, mode);
  const absl::Cleanup post = [&] { __tsan_mutex_post_unlock(mu, mode); };
  return call();
}

template <typename Call>
auto AnnotatedWait(absl::Mutex* mu, Call call) {
  const Outermost outermost;
  if (!outermost) return call();
  const unsigned mode = AnnotateReleaseForWait(mu);
  const absl::Cleanup post = [&] { __tsan_mutex_post_lock(mu, mode, 0); };
  return call();
}

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

Mutex::~Mutex() {
  static const auto library =
      LibraryFunction<void (*)(Mutex*)>("_ZN", "5MutexD2Ev");
  const Outermost outermost;
  if (outermost) __tsan_mutex_destroy(this, __tsan_mutex_not_static);
  library(this);
}

void Mutex::Lock() {
  static const auto library =
      LibraryFunction<void (*)(Mutex*)>("_ZN", "5Mutex4LockEv");
  return AnnotatedLock(this, 0, [&] { return library(this); });
}

void Mutex::Unlock() {
  static const auto library =
      LibraryFunction<void (*)(Mutex*)>("_ZN", "5Mutex6UnlockEv");
  return AnnotatedUnlock(this, 0, [&] { return library(this); });
}

bool Mutex::TryLock() {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*)>("_ZN", "5Mutex7TryLockEv");
  const Outermost outermost;
  if (!outermost) return library(this);
  __tsan_mutex_pre_lock(this, __tsan_mutex_try_lock);
  const bool locked = library(this);
  __tsan_mutex_post_lock(
      this, locked ? __tsan_mutex_try_lock : __tsan_mutex_try_lock_failed, 0);
  return locked;
}

void Mutex::ReaderLock() {
  static const auto library =
      LibraryFunction<void (*)(Mutex*)>("_ZN", "5Mutex10ReaderLockEv");
  return AnnotatedLock(this, kRead, [&] { return library(this); });
}

void Mutex::ReaderUnlock() {
  static const auto library =
      LibraryFunction<void (*)(Mutex*)>("_ZN", "5Mutex12ReaderUnlockEv");
  return AnnotatedUnlock(this, kRead, [&] { return library(this); });
}

bool Mutex::ReaderTryLock() {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*)>("_ZN", "5Mutex13ReaderTryLockEv");
  const Outermost outermost;
  if (!outermost) return library(this);
  __tsan_mutex_pre_lock(this, __tsan_mutex_try_read_lock);
  const bool locked = library(this);
  __tsan_mutex_post_lock(
      this,
      locked ? __tsan_mutex_try_read_lock : __tsan_mutex_try_read_lock_failed,
      0);
  return locked;
}

void Mutex::LockWhen(const Condition& cond) {
  static const auto library =
      LibraryFunction<void (*)(Mutex*, const Condition&)>(
          "_ZN", "5Mutex8LockWhenERKNS0_9ConditionE");
  return AnnotatedLock(this, 0, [&] { return library(this, cond); });
}

void Mutex::ReaderLockWhen(const Condition& cond) {
  static const auto library =
      LibraryFunction<void (*)(Mutex*, const Condition&)>(
          "_ZN", "5Mutex14ReaderLockWhenERKNS0_9ConditionE");
  return AnnotatedLock(this, kRead, [&] { return library(this, cond); });
}

bool Mutex::LockWhenWithTimeout(const Condition& cond, absl::Duration timeout) {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*, const Condition&, absl::Duration)>(
          "_ZN", "5Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  return AnnotatedLock(this, 0, [&] { return library(this, cond, timeout); });
}

bool Mutex::LockWhenWithDeadline(const Condition& cond, absl::Time deadline) {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*, const Condition&, absl::Time)>(
          "_ZN", "5Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return AnnotatedLock(this, 0, [&] { return library(this, cond, deadline); });
}

bool Mutex::ReaderLockWhenWithTimeout(const Condition& cond,
                                      absl::Duration timeout) {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*, const Condition&, absl::Duration)>(
          "_ZN",
          "5Mutex25ReaderLockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  return AnnotatedLock(this, kRead,
                       [&] { return library(this, cond, timeout); });
}

bool Mutex::ReaderLockWhenWithDeadline(const Condition& cond,
                                       absl::Time deadline) {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*, const Condition&, absl::Time)>(
          "_ZN",
          "5Mutex26ReaderLockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return AnnotatedLock(this, kRead,
                       [&] { return library(this, cond, deadline); });
}

void Mutex::Await(const Condition& cond) {
  static const auto library =
      LibraryFunction<void (*)(Mutex*, const Condition&)>(
          "_ZN", "5Mutex5AwaitERKNS0_9ConditionE");
  return AnnotatedWait(this, [&] { return library(this, cond); });
}

bool Mutex::AwaitWithTimeout(const Condition& cond, absl::Duration timeout) {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*, const Condition&, absl::Duration)>(
          "_ZN", "5Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  return AnnotatedWait(this, [&] { return library(this, cond, timeout); });
}

bool Mutex::AwaitWithDeadline(const Condition& cond, absl::Time deadline) {
  static const auto library =
      LibraryFunction<bool (*)(Mutex*, const Condition&, absl::Time)>(
          "_ZN", "5Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return AnnotatedWait(this, [&] { return library(this, cond, deadline); });
}

// A CondVar waiter holds `mu` in either mode (absl works out which).
void CondVar::Wait(Mutex* mu) {
  static const auto library = LibraryFunction<void (*)(CondVar*, Mutex*)>(
      "_ZN", "7CondVar4WaitEPNS0_5MutexE");
  return AnnotatedWait(mu, [&] { return library(this, mu); });
}

bool CondVar::WaitWithTimeout(Mutex* mu, absl::Duration timeout) {
  static const auto library =
      LibraryFunction<bool (*)(CondVar*, Mutex*, absl::Duration)>(
          "_ZN", "7CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  return AnnotatedWait(mu, [&] { return library(this, mu, timeout); });
}

bool CondVar::WaitWithDeadline(Mutex* mu, absl::Time deadline) {
  static const auto library =
      LibraryFunction<bool (*)(CondVar*, Mutex*, absl::Time)>(
          "_ZN", "7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  return AnnotatedWait(mu, [&] { return library(this, mu, deadline); });
}

// The notifier releases what it wrote before Notify() to every thread that
// sees it notified: the waits below, and HasBeenNotified(), whose acquiring
// load of the flag (inline, so instrumented) TSan pairs with a release at the
// flag's address (the member after the Mutex).
namespace {
// absl 20220623's members, in order (notification.h); a change of their sizes
// fails here, a swap at the first use (FlagIsAfterTheMutex).
struct NotificationLayout {
  Mutex mutex;
  std::atomic<bool> notified_yet;
};
static_assert(sizeof(NotificationLayout) == sizeof(Notification));
static_assert(offsetof(NotificationLayout, notified_yet) == sizeof(Mutex));

// The members could swap places with the sizes unchanged: a notified
// Notification must have its flag where NotifiedFlag looks.
bool FlagIsAfterTheMutex() {
  const Notification notified(true);
  bool flag = false;
  std::memcpy(&flag, reinterpret_cast<const char*>(&notified) + sizeof(Mutex),
              sizeof(flag));
  return flag;
}

void* NotifiedFlag(const Notification* notification) {
  static const bool checked = [] {
    if (!FlagIsAfterTheMutex()) {
      std::fprintf(stderr,
                   "tsan_absl_sync: absl::Notification's flag is not after "
                   "its Mutex; update NotifiedFlag\n");
      std::abort();
    }
    return true;
  }();
  (void)checked;
  return const_cast<char*>(reinterpret_cast<const char*>(notification)) +
         sizeof(Mutex);
}
}  // namespace

void Notification::Notify() {
  static const auto library = LibraryFunction<void (*)(Notification*)>(
      "_ZN", "12Notification6NotifyEv");
  const Outermost outermost;
  if (!outermost) return library(this);
  __tsan_release(NotifiedFlag(this));
  library(this);
}

void Notification::WaitForNotification() const {
  static const auto library = LibraryFunction<void (*)(const Notification*)>(
      "_ZNK", "12Notification19WaitForNotificationEv");
  const Outermost outermost;
  if (!outermost) return library(this);
  library(this);
  __tsan_acquire(NotifiedFlag(this));
}

bool Notification::WaitForNotificationWithTimeout(
    absl::Duration timeout) const {
  static const auto library =
      LibraryFunction<bool (*)(const Notification*, absl::Duration)>(
          "_ZNK",
          "12Notification30WaitForNotificationWithTimeoutENS0_8DurationE");
  const Outermost outermost;
  if (!outermost) return library(this, timeout);
  const bool notified = library(this, timeout);
  if (notified) __tsan_acquire(NotifiedFlag(this));
  return notified;
}

bool Notification::WaitForNotificationWithDeadline(absl::Time deadline) const {
  static const auto library =
      LibraryFunction<bool (*)(const Notification*, absl::Time)>(
          "_ZNK", "12Notification31WaitForNotificationWithDeadlineENS0_4TimeE");
  const Outermost outermost;
  if (!outermost) return library(this, deadline);
  const bool notified = library(this, deadline);
  if (notified) __tsan_acquire(NotifiedFlag(this));
  return notified;
}

ABSL_NAMESPACE_END
}  // namespace absl
