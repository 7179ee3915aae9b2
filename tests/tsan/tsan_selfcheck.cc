// Checks the tsan preset itself (ctest tsan_selfcheck.*; built only there).
//
// `tsan_selfcheck handed`: threads hand a plain int to each other through
// absl's MutexLock, Await (also under a reader lock), AwaitWithTimeout,
// AwaitWithDeadline, LockWhen, CondVar (Wait, WaitWithTimeout,
// WaitWithDeadline), Notification (waited for, with a timeout, polled),
// ReaderLock and TryLock. Without common/tsan_absl_sync.cc TSan sees none of
// these hand-offs and reports each as a race; the test wants no report.
// `tsan_selfcheck race`: the same int written by two threads with nothing
// between them; the test wants TSan's report, so a build that lost
// -fsanitize=thread, or annotations that hid real races, fails.
#include <cstdio>
#include <cstring>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace {

int shared_value = 0;  // the memory handed between threads

void HandedThroughMutexLock() {
  absl::Mutex mu;
  std::thread other([&] {
    absl::MutexLock lock(&mu);
    ++shared_value;
  });
  {
    absl::MutexLock lock(&mu);
    ++shared_value;
  }
  other.join();
}

void HandedThroughAwaitAndLockWhen() {
  absl::Mutex mu;
  bool ready = false;
  std::thread waiter([&] {
    mu.Lock();
    mu.Await(absl::Condition(&ready));
    ++shared_value;
    mu.Unlock();
  });
  std::thread when([&] {
    mu.LockWhen(absl::Condition(&ready));
    ++shared_value;
    mu.Unlock();
  });
  ++shared_value;  // before the release below, under no lock
  {
    absl::MutexLock lock(&mu);
    ready = true;
  }
  waiter.join();
  when.join();
}

void HandedThroughTimedAwaitAndReaderWait() {
  absl::Mutex mu;
  bool ready = false;
  std::thread timed([&] {
    absl::MutexLock lock(&mu);
    while (!mu.AwaitWithTimeout(absl::Condition(&ready), absl::Seconds(10))) {
    }
    ++shared_value;
  });
  std::thread deadline([&] {
    absl::MutexLock lock(&mu);
    while (!mu.AwaitWithDeadline(absl::Condition(&ready),
                                 absl::Now() + absl::Seconds(10))) {
    }
    ++shared_value;
  });
  // A reader waits too (absl allows either mode); it only reads.
  std::thread reader([&] {
    absl::ReaderMutexLock lock(&mu);
    mu.Await(absl::Condition(&ready));
    std::printf("reader saw %d\n", shared_value);
  });
  {
    absl::MutexLock lock(&mu);
    ++shared_value;
    ready = true;
  }
  timed.join();
  deadline.join();
  reader.join();
}

void HandedThroughCondVar() {
  absl::Mutex mu;
  absl::CondVar changed;
  bool ready = false;
  std::thread waiter([&] {
    absl::MutexLock lock(&mu);
    while (!ready) changed.WaitWithTimeout(&mu, absl::Seconds(10));
    ++shared_value;
  });
  std::thread deadline([&] {
    absl::MutexLock lock(&mu);
    while (!ready)
      changed.WaitWithDeadline(&mu, absl::Now() + absl::Seconds(10));
    ++shared_value;
  });
  std::thread plain([&] {
    absl::MutexLock lock(&mu);
    while (!ready) changed.Wait(&mu);
    ++shared_value;
  });
  ++shared_value;
  {
    absl::MutexLock lock(&mu);
    ready = true;
  }
  changed.SignalAll();
  waiter.join();
  deadline.join();
  plain.join();
}

void HandedThroughNotification() {
  absl::Notification done;
  std::thread writer([&] {
    ++shared_value;
    done.Notify();
  });
  done.WaitForNotification();
  ++shared_value;
  writer.join();
  absl::Notification polled;
  std::thread second([&] {
    ++shared_value;
    polled.Notify();
  });
  while (!polled.HasBeenNotified()) std::this_thread::yield();
  ++shared_value;
  second.join();
  absl::Notification timed;
  std::thread third([&] {
    ++shared_value;
    timed.Notify();
  });
  while (!timed.WaitForNotificationWithTimeout(absl::Seconds(10))) {
  }
  ++shared_value;
  third.join();
}

void HandedThroughReaderAndTryLock() {
  absl::Mutex mu;
  std::thread reader([&] {
    absl::ReaderMutexLock lock(&mu);
    std::printf("read %d\n", shared_value);
  });
  std::thread trier([&] {
    while (!mu.TryLock()) std::this_thread::yield();
    ++shared_value;
    mu.Unlock();
  });
  reader.join();
  trier.join();
}

void Raced() {
  std::thread other([] { ++shared_value; });
  ++shared_value;
  other.join();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "handed") == 0) {
    HandedThroughMutexLock();
    HandedThroughAwaitAndLockWhen();
    HandedThroughTimedAwaitAndReaderWait();
    HandedThroughCondVar();
    HandedThroughNotification();
    HandedThroughReaderAndTryLock();
    std::printf("handed %d times\n", shared_value);
    return shared_value == 19 ? 0 : 1;
  }
  if (argc == 2 && std::strcmp(argv[1], "race") == 0) {
    Raced();
    return 0;
  }
  std::fprintf(stderr, "usage: tsan_selfcheck handed|race\n");
  return 2;
}
