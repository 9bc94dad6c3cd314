#include "apps/mankalah/endgame/split_builder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace mankalah::endgame {

namespace {

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
                                     int max_level, std::size_t granularity)
    : devices_(devices),
      group_(group),
      granularity_(granularity),
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

std::vector<cl_char> SplitLevelBuilder::build_next(int* passes) {
  const std::uint64_t count = kalah_endgame_level_size(levels());
  const int ranks = several(group_) ? group_->size() : 1;
  const int rank = several(group_) ? group_->rank() : 0;
  const std::vector<clf::WorkRange> by_rank = clf::split_by_rank(count, ranks, granularity_);
  const clf::WorkRange mine = by_rank[static_cast<std::size_t>(rank)];
  std::vector<clf::WorkRange> parts = balancer_.split(mine.size(), granularity_);
  for (clf::WorkRange& part : parts) part = {part.begin + mine.begin, part.end + mine.begin};
  const bool shared = parts.size() > 1 || ranks > 1;

  std::vector<cl_char> values(count, 0);  // the level as every device started it
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->begin_level(); });
  std::vector<double> seconds(parts.size(), 0);
  std::vector<bool> part_changed(parts.size(), false);
  int made = 0;
  bool changed_anywhere = false;
  do {
    clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
      const auto start = std::chrono::steady_clock::now();
      const bool changed = builders_[d]->pass(parts[d]);
      if (shared && changed) builders_[d]->read_values(parts[d], values.data());
      part_changed[d] = changed;
      seconds[d] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
    ++made;
    const bool changed_here =
        std::find(part_changed.begin(), part_changed.end(), true) != part_changed.end();
    std::vector<clf::WorkRange> remote;  // the other ranks' parts that changed, now in `values`
    changed_anywhere = changed_here;
    if (ranks > 1) {
      const std::vector<bool> rank_changed = gather_flags(*group_, changed_here);
      std::vector<clf::WorkRange> gathered = by_rank;
      for (int r = 0; r < ranks; ++r) {
        const auto i = static_cast<std::size_t>(r);
        if (!rank_changed[i]) gathered[i] = {by_rank[i].end, by_rank[i].end};
        if (rank_changed[i]) changed_anywhere = true;
        if (rank_changed[i] && r != rank) remote.push_back(by_rank[i]);
      }
      if (changed_anywhere)
        group_->all_gather_ranges(reinterpret_cast<std::uint8_t*>(values.data()), gathered);
    }
    if (changed_anywhere && shared) exchange(parts, part_changed, remote, values);
  } while (changed_anywhere);
  if (passes != nullptr) *passes = made;

  if (!shared) builders_.front()->read_values({0, count}, values.data());
  clf::for_each_device(devices_,
                       [&](std::size_t d, clf::Runtime&) { builders_[d]->finish_level(); });
  for (std::size_t d = 0; d < parts.size(); ++d) {
    balancer_.record(d, parts[d].size() * static_cast<std::size_t>(made), seconds[d]);
  }
  return values;
}

void SplitLevelBuilder::exchange(const std::vector<clf::WorkRange>& parts,
                                 const std::vector<bool>& part_changed,
                                 const std::vector<clf::WorkRange>& remote,
                                 const std::vector<cl_char>& values) {
  clf::for_each_device(devices_, [&](std::size_t d, clf::Runtime&) {
    for (std::size_t p = 0; p < parts.size(); ++p) {
      if (p != d && part_changed[p]) builders_[d]->write_values(parts[p], values.data());
    }
    for (const clf::WorkRange& range : remote) builders_[d]->write_values(range, values.data());
  });
}

}  // namespace mankalah::endgame
