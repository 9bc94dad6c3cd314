// The processes of one run. Started by mpirun (and built with MPI), they are the MPI ranks of
// MPI_COMM_WORLD; otherwise this process alone, with the same interface, so a tool's code is
// the same for one process and for many. MPI starts only when a launcher started this process:
// a plain run never pays for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "framework/work_split.hpp"

namespace clf {

class ProcessGroup {
 public:
  // The group of this run; starts MPI on first use when launched by mpirun.
  static ProcessGroup& world();
  // Whether this build can run as several processes (MPI was found at configure time).
  static bool built_with_mpi();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  // "rank 1 of 4 on host-a", for messages.
  std::string describe() const;

  void barrier() const;
  // Every rank has filled its range of `data` (ranges[r] for rank r, in bytes; the ranges of all
  // ranks are the same everywhere); afterwards every rank has every range. Any size.
  void all_gather_ranges(std::uint8_t* data, const std::vector<WorkRange>& ranges) const;
  // The sum of `value` over the ranks, on every rank.
  std::uint64_t sum(std::uint64_t value) const;
  // Ends every process of the run (after a failure on one rank the others would wait forever);
  // a plain exit when alone.
  [[noreturn]] void abort(int exit_code) const;

  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

 private:
  ProcessGroup();
  ~ProcessGroup();

  int rank_ = 0;
  int size_ = 1;
  bool started_mpi_ = false;
};

// The part of [0, total) that each rank takes: contiguous and as equal as `granularity` allows.
std::vector<WorkRange> split_by_rank(std::size_t total, int ranks, std::size_t granularity = 1);

}  // namespace clf
