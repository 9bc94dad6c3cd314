#include "framework/process_group.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "framework/environment.hpp"
#include "framework/error.hpp"

#ifdef CLF_HAVE_MPI
#include <mpi.h>
#endif

namespace clf {

namespace {

// Set by Open MPI's and PMIx's launchers (mpirun, srun) in every process they start.
bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (!env_text(name).empty()) return true;
  }
  return false;
}

#ifdef CLF_HAVE_MPI
void check_mpi(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw Error(std::string(call) +
              " failed: " + std::string(text, static_cast<std::size_t>(length)));
}
#endif

}  // namespace

bool ProcessGroup::built_with_mpi() {
#ifdef CLF_HAVE_MPI
  return true;
#else
  return false;
#endif
}

ProcessGroup::ProcessGroup() {
#ifdef CLF_HAVE_MPI
  if (!launched_by_mpirun()) return;
  int provided = 0;
  // Only the thread that made the group calls MPI; devices' threads never do.
  check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  started_mpi_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  if (launched_by_mpirun() && !env_text("OMPI_COMM_WORLD_SIZE").empty() &&
      env_text("OMPI_COMM_WORLD_SIZE") != "1") {
    throw Error("started by mpirun with " + env_text("OMPI_COMM_WORLD_SIZE") +
                " processes, but this build has no MPI (install libopenmpi-dev and reconfigure): "
                "every process would do the whole run");
  }
#endif
}

ProcessGroup::~ProcessGroup() {
#ifdef CLF_HAVE_MPI
  if (started_mpi_) MPI_Finalize();
#endif
}

ProcessGroup& ProcessGroup::world() {
  static ProcessGroup group;
  return group;
}

std::string ProcessGroup::describe() const {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return "rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " on " + host;
}

void ProcessGroup::barrier() const {
#ifdef CLF_HAVE_MPI
  if (started_mpi_) check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
#endif
}

void ProcessGroup::all_gather_ranges(std::uint8_t* data,
                                     const std::vector<WorkRange>& ranges) const {
  if (ranges.size() != static_cast<std::size_t>(size_)) {
    throw Error("all_gather_ranges: " + std::to_string(ranges.size()) + " ranges for " +
                std::to_string(size_) + " ranks");
  }
#ifdef CLF_HAVE_MPI
  if (!started_mpi_) return;
  // MPI counts are ints: each rank's range goes out in broadcasts of at most 1 GiB.
  constexpr std::size_t max_message = std::size_t{1} << 30;
  for (int root = 0; root < size_; ++root) {
    const WorkRange& range = ranges[static_cast<std::size_t>(root)];
    for (std::size_t begin = range.begin; begin < range.end; begin += max_message) {
      const std::size_t bytes = std::min(max_message, range.end - begin);
      check_mpi(MPI_Bcast(data + begin, static_cast<int>(bytes), MPI_BYTE, root, MPI_COMM_WORLD),
                "MPI_Bcast");
    }
  }
#else
  (void)data;
#endif
}

std::uint64_t ProcessGroup::sum(std::uint64_t value) const {
#ifdef CLF_HAVE_MPI
  if (started_mpi_) {
    std::uint64_t total = 0;
    check_mpi(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
              "MPI_Allreduce");
    return total;
  }
#endif
  return value;
}

void ProcessGroup::abort(int exit_code) const {
#ifdef CLF_HAVE_MPI
  if (started_mpi_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#endif
  std::exit(exit_code);
}

std::vector<WorkRange> split_by_rank(std::size_t total, int ranks, std::size_t granularity) {
  if (ranks < 1) throw Error("split_by_rank: " + std::to_string(ranks) + " ranks");
  return split_range(total, std::vector<double>(static_cast<std::size_t>(ranks), 1.0), granularity);
}

}  // namespace clf
