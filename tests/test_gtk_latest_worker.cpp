// clf::gtk::LatestOnlyWorker (apps/gtk): requests submitted while the worker is busy replace
// each other, so only the newest runs and input never queues up behind frames.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "apps/gtk/latest_worker.hpp"

namespace {

TEST(GtkLatestWorker, OnlyTheNewestPendingRequestRuns) {
  std::mutex mutex;
  std::vector<int> delivered;
  std::atomic<bool> started{false};
  std::atomic<bool> release{false};
  clf::gtk::LatestOnlyWorker<int, int> worker(
      [&](const int& request) {
        // The first request blocks until the test has queued many more behind it.
        if (request == 0) started = true;
        while (request == 0 && !release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return request * 10;
      },
      [&](int result) {
        std::lock_guard<std::mutex> lock(mutex);
        delivered.push_back(result);
      });
  worker.submit(0);
  while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int i = 1; i <= 100; ++i) worker.submit(i);
  release = true;
  worker.wait_idle();
  std::lock_guard<std::mutex> lock(mutex);
  ASSERT_EQ(delivered.size(), 2u) << "request 0, then only the newest of 1..100";
  EXPECT_EQ(delivered[0], 0);
  EXPECT_EQ(delivered[1], 1000);
  EXPECT_EQ(worker.submitted(), 101u);
  EXPECT_EQ(worker.completed(), 2u);
  EXPECT_EQ(worker.dropped(), 99u);
}

TEST(GtkLatestWorker, IdleWorkerRunsEveryRequest) {
  std::atomic<int> sum{0};
  clf::gtk::LatestOnlyWorker<int, int> worker([](const int& r) { return r; },
                                              [&](int result) { sum += result; });
  for (int i = 1; i <= 5; ++i) {
    worker.submit(i);
    worker.wait_idle();
  }
  EXPECT_EQ(sum, 15);
  EXPECT_EQ(worker.dropped(), 0u);
}

}  // namespace
