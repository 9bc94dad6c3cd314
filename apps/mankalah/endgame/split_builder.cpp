#include "apps/mankalah/endgame/split_builder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace mankalah::endgame {

namespace {

// A part's timing teaches the balancer only when it is this large: on smaller parts the time
// is mostly launches and copies, and a device given a share too small would stay unmeasured.
constexpr std::size_t kMeasuredPositions = std::size_t{1} << 20;

// Rounds of a pass at most (see Split::rounds).
constexpr std::size_t kMostRounds = 16;

bool several(const clf::ProcessGroup* group) { return group != nullptr && group->size() > 1; }

// Which ranks' flags are set, on every rank (a byte per rank, gathered).
std::vector<bool> gather_flags(const clf::ProcessGroup& group, bool mine) {
  const auto ranks = static_cast<std::size_t>(group.size());
  std::vector<std::uint8_t> flags(ranks, 0);
  flags[static_cast<std::size_t>(group.rank())] = mine ? 1 : 0;
  std::vector<clf::WorkRange> one_each;
  for (std::size_t r = 0; r < ranks; ++r) one_each.push_back({r, r + 1});
  group.all_gather_ranges(flags.data(), one_each);
  return std::vector<bool>(flags.begin(), flags.end());
}

}  // namespace

SplitLevelBuilder::SplitLevelBuilder(const clf::DeviceSet& devices, const clf::ProcessGroup* group,
                                     int max_level, std::size_t granularity,
                                     std::size_t round_positions)
    : devices_(devices),
      group_(group),
      granularity_(granularity),
      round_positions_(std::max<std::size_t>(round_positions, 1)),
      builders_(devices.size()),
      balancer_(devices.size()) {
  clf::for_each_device(devices, [&](std::size_t d, clf::Runtime& runtime) {
    builders_[d] = std::make_unique<GpuLevelBuilder>(runtime, max_level);
  });
}

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

SplitLevelBuilder::Split SplitLevelBuilder::split_level(std::uint64_t count) const {
  Split split;
  split.ranks = several(group_) ? group_->size() : 1;
  split.rank = several(group_) ? group_->rank() : 0;
  split.by_rank = clf::split_by_rank(count, split.ranks, granularity_);
  const clf::WorkRange mine = split.by_rank[static_cast<std::size_t>(split.rank)];
  split.parts = balancer_.split(mine.size(), granularity_);
  for (clf::WorkRange& part : split.parts) part = {part.begin + mine.begin, part.end + mine.begin};
  split.shared = split.parts.size() > 1 || split.ranks > 1;
  if (split.parts.size() > 1) {
    std::size_t largest = 0;
    for (const clf::WorkRange& part : split.parts) largest = std::max(largest, part.size());
    split.rounds = std::clamp<std::size_t>(largest / round_positions_, 1, kMostRounds);
  }
  return split;
}

std::vector<cl_char> SplitLevelBuilder::build_next(int* passes) {
  const std::uint64_t count = kalah_endgame_level_size(levels());
  const Split split = split_level(count);
  std::vector<cl_char> values(count, 0);  // the level as every device started it
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->begin_level(); });
  std::vector<double> seconds(split.parts.size(), 0);
  int made = 0;
  bool changed_anywhere = false;
  do {
    bool changed_here = false;
    for (std::size_t round = 0; round < split.rounds; ++round) {
      if (run_round(split, round, values, seconds)) changed_here = true;
    }
    ++made;
    changed_anywhere = changed_here;
    if (split.ranks > 1) {
      std::vector<clf::WorkRange> remote;  // the other ranks' parts that changed
      changed_anywhere = gather_ranks(split, changed_here, values, &remote);
      clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
        for (const clf::WorkRange& range : remote) builders_[d]->write_values(range, values.data());
      });
    }
  } while (changed_anywhere);
  if (passes != nullptr) *passes = made;

  if (!split.shared) builders_.front()->read_values({0, count}, values.data());
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->finish_level(); });
  for (std::size_t d = 0; d < split.parts.size(); ++d) {
    if (split.parts[d].size() < kMeasuredPositions) continue;
    balancer_.record(d, split.parts[d].size() * static_cast<std::size_t>(made), seconds[d]);
  }
  return values;
}

bool SplitLevelBuilder::run_round(const Split& split, std::size_t round,
                                  std::vector<cl_char>& values, std::vector<double>& seconds) {
  const std::size_t devices = split.parts.size();
  std::vector<clf::WorkRange> slices(devices);
  for (std::size_t d = 0; d < devices; ++d) {
    const clf::WorkRange part = split.parts[d];
    slices[d] = {part.begin + part.size() * round / split.rounds,
                 part.begin + part.size() * (round + 1) / split.rounds};
  }
  std::vector<PartChanges> changes(devices);
  clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
    const auto start = std::chrono::steady_clock::now();
    if (split.shared) {
      builders_[d]->pass_and_read_changes(slices[d], values.data(), &changes[d]);
    } else {
      changes[d].any = builders_[d]->pass(slices[d]);
    }
    seconds[d] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  if (devices > 1) {
    clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
      for (std::size_t p = 0; p < devices; ++p) {
        if (p != d) builders_[d]->write_changes(slices[p], changes[p], values.data());
      }
    });
  }
  return std::any_of(changes.begin(), changes.end(),
                     [](const PartChanges& part) { return part.any; });
}

bool SplitLevelBuilder::gather_ranks(const Split& split, bool changed_here,
                                     std::vector<cl_char>& values,
                                     std::vector<clf::WorkRange>* remote) const {
  const std::vector<bool> rank_changed = gather_flags(*group_, changed_here);
  bool changed_anywhere = false;
  std::vector<clf::WorkRange> gathered = split.by_rank;  // empty for the ranks that changed none
  for (int r = 0; r < split.ranks; ++r) {
    const auto i = static_cast<std::size_t>(r);
    if (!rank_changed[i]) gathered[i] = {split.by_rank[i].end, split.by_rank[i].end};
    if (rank_changed[i]) changed_anywhere = true;
    if (rank_changed[i] && r != split.rank) remote->push_back(split.by_rank[i]);
  }
  if (changed_anywhere) {
    group_->all_gather_ranges(reinterpret_cast<std::uint8_t*>(values.data()), gathered);
  }
  return changed_anywhere;
}

}  // namespace mankalah::endgame
