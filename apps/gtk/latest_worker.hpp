// A worker thread that runs only the newest request: submitting while it is busy replaces the
// pending request instead of queueing behind it, so a GUI never lags behind its input (frames
// requested faster than they render are dropped, without flushing the event loop).
// No GTK here, so it is unit-tested without a display; clf::gtk::run_window posts its results to
// the UI thread from `deliver`.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace clf::gtk {

template <typename Request, typename Result>
class LatestOnlyWorker {
 public:
  using Work = std::function<Result(const Request&)>;
  using Deliver = std::function<void(Result)>;  // runs on the worker thread

  LatestOnlyWorker(Work work, Deliver deliver)
      : work_(std::move(work)), deliver_(std::move(deliver)), thread_([this] { loop(); }) {}
  ~LatestOnlyWorker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  LatestOnlyWorker(const LatestOnlyWorker&) = delete;
  LatestOnlyWorker& operator=(const LatestOnlyWorker&) = delete;

  // Makes `request` the next one to run; an older request not yet started is dropped.
  void submit(Request request) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (pending_) ++dropped_;
      pending_ = std::move(request);
      ++submitted_;
    }
    wake_.notify_one();
  }

  // Blocks until nothing is pending or running (tests, shutdown paths).
  void wait_idle() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return !pending_ && !busy_; });
  }

  std::uint64_t submitted() const { return locked(submitted_); }
  std::uint64_t completed() const { return locked(completed_); }
  std::uint64_t dropped() const { return locked(dropped_); }

 private:
  std::uint64_t locked(const std::uint64_t& counter) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return counter;
  }

  void loop() {
    while (true) {
      Request request;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || pending_; });
        if (stopping_) return;
        request = std::move(*pending_);
        pending_.reset();
        busy_ = true;
      }
      Result result = work_(request);
      deliver_(std::move(result));
      {
        std::lock_guard<std::mutex> lock(mutex_);
        busy_ = false;
        ++completed_;
      }
      idle_.notify_all();
    }
  }

  Work work_;
  Deliver deliver_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::optional<Request> pending_;
  bool busy_ = false;
  bool stopping_ = false;
  std::uint64_t submitted_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t dropped_ = 0;
  std::thread thread_;  // last: starts after everything it uses exists
};

}  // namespace clf::gtk
