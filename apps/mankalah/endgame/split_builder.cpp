#include "apps/mankalah/endgame/split_builder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace mankalah::endgame {

namespace {

// A device's timing teaches the balancer only when its share is this large: on smaller ones the
// time is mostly launches, and a device given a share too small would stay unmeasured.
constexpr std::size_t kMeasuredPositions = std::size_t{1} << 20;

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
    : devices_(devices), group_(group), builders_(devices.size()), balancer_(devices.size()) {
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
  const std::vector<ClassPair> pairs = class_pairs(level);
  // The processes get equal shares (every process deals the same); each process's devices get
  // shares by their measured speeds.
  const auto ranks = static_cast<std::size_t>(rank_count());
  const std::vector<std::size_t> rank_of =
      clf::deal_largest_first(pair_sizes(pairs), std::vector<double>(ranks, 1.0));
  Shares shares;
  shares.by_rank.resize(ranks);
  std::vector<ClassPair> mine;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    for (const clf::WorkRange& run : pairs[p].ranges) shares.by_rank[rank_of[p]].push_back(run);
    if (rank_of[p] == static_cast<std::size_t>(rank())) mine.push_back(pairs[p]);
  }
  const std::vector<std::size_t> device_of = balancer_.deal(pair_sizes(mine));
  shares.by_device.resize(devices_.size());
  for (std::size_t p = 0; p < mine.size(); ++p) shares.by_device[device_of[p]].push_back(mine[p]);
  return shares;
}

std::vector<cl_char> SplitLevelBuilder::build_next(int* passes) {
  const int n = levels();
  const std::uint64_t count = kalah_endgame_level_size(n);
  const Shares shares = share_out(n);
  std::vector<int> device_passes(devices_.size(), 0);
  std::vector<double> seconds(devices_.size(), 0);
  clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
    const auto start = std::chrono::steady_clock::now();
    builders_[d]->begin_level();
    device_passes[d] = builders_[d]->build_pairs(shares.by_device[d]);
    seconds[d] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  std::vector<cl_char> values(count, 0);
  if (devices_.size() == 1 && rank_count() == 1) {
    builders_.front()->read_values({0, count}, values.data());
  } else {
    exchange(shares, values);
  }
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->finish_level(); });

  for (std::size_t d = 0; d < devices_.size(); ++d) {
    std::size_t positions = 0;
    for (const ClassPair& pair : shares.by_device[d]) positions += pair.positions;
    if (positions >= kMeasuredPositions) balancer_.record(d, positions, seconds[d]);
  }
  int most = *std::max_element(device_passes.begin(), device_passes.end());
  if (several(group_)) {
    const std::vector<std::uint8_t> by_rank =
        gather_bytes(*group_, static_cast<std::uint8_t>(most));
    most = *std::max_element(by_rank.begin(), by_rank.end());
  }
  if (passes != nullptr) *passes = most;
  return values;
}

void SplitLevelBuilder::exchange(const Shares& shares, std::vector<cl_char>& values) {
  std::vector<std::vector<clf::WorkRange>> built(devices_.size());  // each device's runs
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    for (const ClassPair& pair : shares.by_device[d]) {
      built[d].insert(built[d].end(), pair.ranges.begin(), pair.ranges.end());
    }
  }
  clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
    for (const clf::WorkRange& run : built[d]) builders_[d]->read_values(run, values.data());
  });
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
