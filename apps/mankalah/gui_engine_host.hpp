// The Mankalah window's worker side: a search request and its reply, and EngineHost, which owns
// the engines and the device on the worker thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "apps/mankalah/engine.hpp"
#include "framework/runtime.hpp"

namespace mankalah {

struct SearchRequest {
  std::uint64_t serial = 0;
  KalahBoard board{};
  std::string engine;
  int time_ms = 1000;
  int device = -1;  // index into clf::enumerate_devices(), -1: the request's choice
  std::shared_ptr<std::atomic<bool>> stop;
};

struct SearchReply {
  std::uint64_t serial = 0;
  SearchResult result;
  std::string engine;
  std::string error;
};

// Owned by the worker thread: the engines, made on first use, and the device the GPU engines
// use, made when one of them first needs it.
class EngineHost {
 public:
  explicit EngineHost(clf::DeviceRequest request) : request_(std::move(request)) {}

  SearchReply search(const SearchRequest& r, const ProgressCallback& progress) {
    SearchReply reply;
    reply.serial = r.serial;
    reply.engine = r.engine;
    try {
      if (r.device != device_) {
        engines_.clear();  // they hold the old runtime
        runtime_.reset();
        device_ = r.device;
      }
      std::unique_ptr<Engine>& engine = engines_[r.engine];
      if (!engine) {
        EngineOptions options;
        options.runtime = [this]() -> clf::Runtime& { return runtime(); };
        engine = make_engine(r.engine, options);
      }
      engine->set_progress(progress);
      SearchLimits limits;
      limits.time_ms = r.time_ms;
      limits.stop = r.stop.get();
      reply.result = engine->search(r.board, limits);
    } catch (const std::exception& error) {
      engines_.erase(r.engine);
      reply.error = error.what();
    }
    return reply;
  }

 private:
  clf::Runtime& runtime() {
    if (!runtime_) {
      runtime_ = device_ >= 0 ? std::make_unique<clf::Runtime>(clf::enumerate_devices().at(device_),
                                                               request_)
                              : std::make_unique<clf::Runtime>(request_);
    }
    return *runtime_;
  }

  clf::DeviceRequest request_;
  int device_ = -1;
  std::unique_ptr<clf::Runtime> runtime_;  // before engines_: they go first
  std::map<std::string, std::unique_ptr<Engine>> engines_;
};

}  // namespace mankalah
