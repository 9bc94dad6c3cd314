// The Mankalah window's worker side: a search request and its reply, and EngineHost, which owns
// the engines and the device on the worker thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apps/mankalah/engine.hpp"
#include "apps/mankalah/perfect_engine.hpp"
#include "framework/runtime.hpp"

namespace mankalah {

struct SearchRequest {
  std::uint64_t serial = 0;
  KalahBoard board{};
  std::string engine;
  int time_ms = 1000;
  int device = -1;           // index into clf::enumerate_devices(), -1: the request's choice
  bool all_margins = false;  // a hint: every move's exact margin, where the engine can prove it
  // Counts the databases built while the window is open: engines made before read none of them.
  std::uint64_t databases_built = 0;
  std::shared_ptr<std::atomic<bool>> stop;
};

struct SearchReply {
  std::uint64_t serial = 0;
  SearchResult result;
  std::vector<std::pair<int, int>> margins;  // (cell, the mover's exact margin) per legal move
  std::string engine;
  std::string error;
};

// Owned by the worker thread: the engines, made on first use, and the device the GPU engines
// use, made when one of them first needs it.
class EngineHost {
 public:
  EngineHost(clf::DeviceRequest request, std::string database_dir)
      : request_(std::move(request)), database_dir_(std::move(database_dir)) {}

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
      if (r.databases_built != databases_built_) {
        engines_.clear();  // the perfect engine opened the databases there were
        databases_built_ = r.databases_built;
      }
      std::unique_ptr<Engine>& engine = engines_[r.engine];
      if (!engine) {
        EngineOptions options;
        options.runtime = [this]() -> clf::Runtime& { return runtime(); };
        options.database_dir = database_dir_;
        engine = make_engine(r.engine, options);
      }
      engine->set_progress(progress);
      SearchLimits limits;
      limits.time_ms = r.time_ms;
      limits.stop = r.stop.get();
      auto* perfect = dynamic_cast<PerfectEngine*>(engine.get());
      if (r.all_margins && perfect != nullptr) {
        reply.margins = perfect->move_margins(r.board, r.time_ms, r.stop.get());
      }
      if (reply.margins.empty()) {
        reply.result = engine->search(r.board, limits);
      } else {
        const auto best =
            std::max_element(reply.margins.begin(), reply.margins.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        reply.result.move = best->first;
        reply.result.exact = true;
      }
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
  std::string database_dir_;
  int device_ = -1;
  std::uint64_t databases_built_ = 0;
  std::unique_ptr<clf::Runtime> runtime_;  // before engines_: they go first
  std::map<std::string, std::unique_ptr<Engine>> engines_;
};

}  // namespace mankalah
