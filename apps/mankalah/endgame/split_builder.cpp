#include "apps/mankalah/endgame/split_builder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "framework/stopwatch.hpp"

namespace mankalah::endgame {

namespace {

bool several(const clf::ProcessGroup* group) { return group != nullptr && group->size() > 1; }

// Each rank's byte, on every rank.
std::vector<std::uint8_t> gather_bytes(const clf::ProcessGroup& group, std::uint8_t mine) {
  const auto ranks = static_cast<std::size_t>(group.size());
  std::vector<std::uint8_t> bytes(ranks, 0);
  bytes[static_cast<std::size_t>(group.rank())] = mine;
  std::vector<clf::WorkRange> one_each;
  for (std::size_t r = 0; r < ranks; ++r) one_each.push_back({r, r + 1});
  group.all_gather_ranges(bytes.data(), one_each);
  return bytes;
}

std::vector<std::size_t> pair_sizes(const std::vector<ClassPair>& pairs) {
  std::vector<std::size_t> sizes;
  for (const ClassPair& pair : pairs) sizes.push_back(pair.positions);
  return sizes;
}

// [0, count) less `owned` (disjoint runs): what a device did not build.
std::vector<clf::WorkRange> complement(std::vector<clf::WorkRange> owned, std::size_t count) {
  std::sort(owned.begin(), owned.end(),
            [](const clf::WorkRange& a, const clf::WorkRange& b) { return a.begin < b.begin; });
  std::vector<clf::WorkRange> rest;
  std::size_t next = 0;
  for (const clf::WorkRange& run : owned) {
    if (run.begin > next) rest.push_back({next, run.begin});
    next = std::max(next, run.end);
  }
  if (next < count) rest.push_back({next, count});
  return rest;
}

}  // namespace

SplitLevelBuilder::SplitLevelBuilder(const clf::DeviceSet& devices, const clf::ProcessGroup* group,
                                     int max_level)
    : devices_(devices), group_(group), builders_(devices.size()) {
  clf::for_each_device(devices, [&](std::size_t d, clf::Runtime& runtime) {
    builders_[d] = std::make_unique<GpuLevelBuilder>(runtime, max_level);
  });
}

int SplitLevelBuilder::rank_count() const { return several(group_) ? group_->size() : 1; }
int SplitLevelBuilder::rank() const { return several(group_) ? group_->rank() : 0; }

void SplitLevelBuilder::add_next(const cl_char* values) {
  std::vector<cl_char> received;
  if (several(group_)) {
    // Process 0 sends the level to the others (it only reads its own copy).
    const std::uint64_t count = kalah_endgame_level_size(levels());
    std::vector<clf::WorkRange> from_root(static_cast<std::size_t>(group_->size()),
                                          clf::WorkRange{count, count});
    from_root[0] = {0, count};
    if (!group_->is_root()) received.resize(count);
    auto* data = group_->is_root() ? reinterpret_cast<std::uint8_t*>(const_cast<cl_char*>(values))
                                   : reinterpret_cast<std::uint8_t*>(received.data());
    group_->all_gather_ranges(data, from_root);
    if (!group_->is_root()) values = received.data();
  }
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->add_next(values); });
}

SplitLevelBuilder::Shares SplitLevelBuilder::share_out(int level) const {
  std::vector<ClassPair> pairs = class_pairs(level);
  std::stable_sort(pairs.begin(), pairs.end(), [](const ClassPair& a, const ClassPair& b) {
    return a.positions > b.positions;
  });
  // Every process deals the same.
  const auto ranks = static_cast<std::size_t>(rank_count());
  const std::vector<std::size_t> rank_of =
      clf::deal_largest_first(pair_sizes(pairs), std::vector<double>(ranks, 1.0));
  Shares shares;
  shares.by_rank.resize(ranks);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    for (const clf::WorkRange& run : pairs[p].ranges) shares.by_rank[rank_of[p]].push_back(run);
    if (rank_of[p] == static_cast<std::size_t>(rank())) shares.mine.push_back(pairs[p]);
  }
  return shares;
}

LevelValues SplitLevelBuilder::new_level_values() const {
  return clf::pinned_vector<cl_char>(devices_.front());
}

void SplitLevelBuilder::build_next(LevelValues& values, int* passes) {
  const int n = levels();
  const Shares shares = share_out(n);
  // Left unset (LevelValues): every value comes from a device or a process.
  values.resize(kalah_endgame_level_size(n));
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->begin_level(); });
  // Each pair is read back as soon as it is built, while other devices still build theirs.
  std::vector<std::vector<clf::WorkRange>> built(devices_.size());  // each device's runs
  std::vector<int> device_passes(devices_.size(), 0);
  times_ =
      Times{std::vector<double>(devices_.size(), 0), std::vector<double>(devices_.size(), 0), 0};
  clf::for_each_chunk(devices_, shares.mine.size(), 1,
                      [&](std::size_t d, clf::Runtime&, clf::WorkRange next) {
                        const auto start = std::chrono::steady_clock::now();
                        const ClassPair& pair = shares.mine[next.begin];
                        const int made = builders_[d]->build_pair(pair);
                        device_passes[d] = std::max(device_passes[d], made);
                        const auto read_start = std::chrono::steady_clock::now();
                        for (const clf::WorkRange& run : pair.ranges) {
                          builders_[d]->read_values(run, values.data());
                          built[d].push_back(run);
                        }
                        times_.read_seconds[d] += clf::seconds_since(read_start);
                        times_.device_seconds[d] += clf::seconds_since(start);
                      });
  if (devices_.size() > 1 || rank_count() > 1) {
    const auto start = std::chrono::steady_clock::now();
    exchange(shares, built, values);
    times_.exchange_seconds = clf::seconds_since(start);
  }
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->finish_level(); });

  int most = *std::max_element(device_passes.begin(), device_passes.end());
  if (several(group_)) {
    const std::vector<std::uint8_t> by_rank =
        gather_bytes(*group_, static_cast<std::uint8_t>(most));
    most = *std::max_element(by_rank.begin(), by_rank.end());
  }
  if (passes != nullptr) *passes = most;
}

void SplitLevelBuilder::exchange(const Shares& shares,
                                 const std::vector<std::vector<clf::WorkRange>>& built,
                                 LevelValues& values) {
  if (several(group_)) {
    // One gather per k: the k-th run of every process (an empty run where it has fewer).
    std::size_t most_runs = 0;
    for (const auto& runs : shares.by_rank) most_runs = std::max(most_runs, runs.size());
    for (std::size_t k = 0; k < most_runs; ++k) {
      std::vector<clf::WorkRange> kth;
      for (const auto& runs : shares.by_rank) {
        kth.push_back(k < runs.size() ? runs[k] : clf::WorkRange{values.size(), values.size()});
      }
      group_->all_gather_ranges(reinterpret_cast<std::uint8_t*>(values.data()), kth);
    }
  }
  clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
    for (const clf::WorkRange& run : complement(built[d], values.size())) {
      builders_[d]->write_values(run, values.data());
    }
  });
}

}  // namespace mankalah::endgame
