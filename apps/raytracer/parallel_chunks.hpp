// Work over [0, count) on several host threads, in chunks handed out as threads finish the last
// one (rays differ in cost, so fixed shares would leave threads idle): ray batches generated and
// traced on the host (the CPU reference, Embree).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace raytracer {

// `requested`, or every hardware thread for 0.
inline unsigned host_thread_count(unsigned requested) {
  return requested > 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

// Calls work(begin, end) for consecutive chunks of `chunk` indices (the last may be shorter) on
// host_thread_count(threads) threads; returns when all are done.
template <typename Work>
void for_each_chunk(std::size_t count, std::size_t chunk, unsigned threads, const Work& work) {
  chunk = std::max<std::size_t>(chunk, 1);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t begin = next.fetch_add(chunk); begin < count; begin = next.fetch_add(chunk)) {
      work(begin, std::min(begin + chunk, count));
    }
  };
  std::vector<std::thread> workers;
  const unsigned n = host_thread_count(threads);
  for (unsigned t = 1; t < n; ++t) workers.emplace_back(worker);
  worker();  // this thread is one of them
  for (std::thread& w : workers) w.join();
}

}  // namespace raytracer
