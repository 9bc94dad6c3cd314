#include "apps/boids/flock_measures.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <thread>
#include <vector>

namespace boids {
namespace {

// Boids bucketed into cells at least `radius` wide, so that every pair within the radius lies
// in neighbouring cells (along each axis: the same cell or the next one either way). The
// positions are kept in cell order, so the neighbours of a cell are near each other in memory
// (in boid order every candidate would be a cache miss: 10x slower for a million boids).
class HostGrid {
 public:
  HostGrid(const State& state, const BoidsRules& rules, float radius) : rules_(rules) {
    const double width = 2.0 * rules.half_width;
    // Wider than the radius by a hair, as on the device: rounding must not hide a neighbour.
    // No more cells than about two per boid: wider cells only cost candidates.
    const double cap = 2.0 * static_cast<double>(state.size()) + 16.0;
    const double side_cap = std::floor(std::pow(cap, 1.0 / rules.dims));
    const double fit = std::floor(width / (radius * (1.0 + 1e-5)));
    const std::int64_t side = static_cast<std::int64_t>(std::max(1.0, std::min(fit, side_cap)));
    side_ = side;
    cells_per_unit_ = static_cast<double>(side) / width;
    std::size_t cells = 1;
    for (int d = 0; d < rules.dims; ++d) cells *= static_cast<std::size_t>(side);
    // Counting sort of the boids by cell.
    std::vector<std::size_t> cell_of(state.size());
    first_.assign(cells + 1, 0);
    for (std::size_t i = 0; i < state.size(); ++i) {
      cell_of[i] = cell_index(cell_coordinates(state.position[i]));
      ++first_[cell_of[i] + 1];
    }
    std::partial_sum(first_.begin(), first_.end(), first_.begin());
    sorted_.resize(state.size());
    std::vector<std::size_t> next(first_.begin(), first_.end() - 1);
    for (std::size_t i = 0; i < state.size(); ++i) sorted_[next[cell_of[i]]++] = state.position[i];
  }

  std::size_t size() const { return sorted_.size(); }
  // The position of the boid at index k of the cell order.
  const cl_float4& position(std::size_t k) const { return sorted_[k]; }

  // Calls visit(k) for the cell-order index k of every boid in the cells around the position's
  // cell (each cell once).
  template <typename Visit>
  void for_each_candidate(const cl_float4& position, Visit&& visit) const {
    const std::array<std::int64_t, 3> centre = cell_coordinates(position);
    std::int64_t around[3][3];  // per axis, the distinct cells around the centre
    int count[3] = {0, 0, 0};
    for (int d = 0; d < 3; ++d) {
      if (d >= rules_.dims) {
        around[d][count[d]++] = 0;
        continue;
      }
      for (std::int64_t delta = -1; delta <= 1; ++delta) {
        std::int64_t c = centre[d] + delta;
        if (rules_.wrap) {
          c = ((c % side_) + side_) % side_;
        } else if (c < 0 || c >= side_) {
          continue;
        }
        // A grid of one or two cells per axis meets the same cell twice: visit it once.
        if (std::find(around[d], around[d] + count[d], c) == around[d] + count[d]) {
          around[d][count[d]++] = c;
        }
      }
    }
    for (int z = 0; z < count[2]; ++z) {
      for (int y = 0; y < count[1]; ++y) {
        for (int x = 0; x < count[0]; ++x) {
          const std::size_t cell = cell_index({around[0][x], around[1][y], around[2][z]});
          for (std::size_t k = first_[cell]; k < first_[cell + 1]; ++k) visit(k);
        }
      }
    }
  }

 private:
  std::array<std::int64_t, 3> cell_coordinates(const cl_float4& p) const {
    const float coordinates[3] = {p.x, p.y, p.z};
    std::array<std::int64_t, 3> cell{0, 0, 0};
    for (int d = 0; d < rules_.dims; ++d) {
      const double c = std::floor((coordinates[d] + rules_.half_width) * cells_per_unit_);
      // A bounded box includes its upper wall; rounding may land a hair outside either way.
      cell[d] = std::clamp<std::int64_t>(static_cast<std::int64_t>(c), 0, side_ - 1);
    }
    return cell;
  }
  std::size_t cell_index(const std::array<std::int64_t, 3>& c) const {
    return static_cast<std::size_t>(c[0] + side_ * (c[1] + side_ * c[2]));
  }

  BoidsRules rules_;
  std::int64_t side_ = 1;
  double cells_per_unit_ = 1.0;
  std::vector<std::size_t> first_;  // boids of cell c: sorted_[first_[c] .. first_[c + 1])
  std::vector<cl_float4> sorted_;   // positions in cell order
};

// Union-find over boid indices, for the groups, safe to link from several threads at once: a root
// is attached under the lower root by compare-and-swap (retried if another thread attached it
// first), and paths are halved as they are walked. Parents only ever point lower, so the groups
// at the end are the same whatever order the links came in.
class Groups {
 public:
  explicit Groups(std::size_t n) : parent_(n) {
    for (std::size_t i = 0; i < n; ++i) parent_[i].store(i, std::memory_order_relaxed);
  }
  void link(std::size_t a, std::size_t b) {
    for (;;) {
      a = root(a);
      b = root(b);
      if (a == b) return;
      std::size_t higher = std::max(a, b);
      if (parent_[higher].compare_exchange_strong(higher, std::min(a, b))) return;
    }
  }
  // Call once every link is made.
  std::size_t count() const {
    std::size_t roots = 0;
    for (std::size_t i = 0; i < parent_.size(); ++i) roots += parent_[i].load() == i ? 1 : 0;
    return roots;
  }

 private:
  std::size_t root(std::size_t i) {
    for (;;) {
      std::size_t parent = parent_[i].load();
      if (parent == i) return i;
      const std::size_t grandparent = parent_[parent].load();
      if (grandparent != parent) parent_[i].compare_exchange_weak(parent, grandparent);
      i = grandparent;
    }
  }
  std::vector<std::atomic<std::size_t>> parent_;
};

// The neighbour pass runs in this many pieces of the cell order, on as many threads as there are
// cores: the pieces' sums are added in piece order, so the figures do not depend on the threads.
constexpr std::size_t kPieces = 64;

struct NeighbourSums {
  std::size_t neighbour_pairs = 0;  // ordered pairs
  std::size_t with_neighbour = 0;
  double nearest_sum = 0.0;
};

// Calls body(piece) for pieces 0..kPieces-1 on the machine's cores (on this thread alone for a
// small flock, where starting threads would cost more than the pass).
template <typename Body>
void for_each_piece(std::size_t boids, Body&& body) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t piece = next++; piece < kPieces; piece = next++) body(piece);
  };
  constexpr std::size_t kBoidsPerThread = 16384;
  const std::size_t threads =
      std::min({static_cast<std::size_t>(std::max(1u, std::thread::hardware_concurrency())),
                kPieces, std::max<std::size_t>(1, boids / kBoidsPerThread)});
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace

float interaction_radius(const BoidsRules& rules) {
  return std::max({rules.cohesion_radius, rules.separation_radius, rules.alignment_radius});
}

FlockMeasures measure_flock(const State& state, const BoidsRules& rules, float radius) {
  FlockMeasures measures;
  const std::size_t n = state.size();
  if (n == 0) return measures;
  // Sums in boid order, in double: the same state always gives the same bits.
  double heading[3] = {0.0, 0.0, 0.0};
  double speed_sum = 0.0;
  for (const cl_float4& v : state.velocity) {
    const double speed = std::sqrt(static_cast<double>(v.x) * v.x + static_cast<double>(v.y) * v.y +
                                   static_cast<double>(v.z) * v.z);
    speed_sum += speed;
    if (speed > 0.0) {
      heading[0] += v.x / speed;
      heading[1] += v.y / speed;
      heading[2] += v.z / speed;
    }
  }
  measures.polarisation =
      std::sqrt(heading[0] * heading[0] + heading[1] * heading[1] + heading[2] * heading[2]) / n;
  measures.mean_speed = speed_sum / n;

  Groups groups(n);
  std::vector<NeighbourSums> pieces(kPieces);
  if (radius > 0.0f) {
    const HostGrid grid(state, rules, radius);
    const double radius2 = static_cast<double>(radius) * radius;
    // Boids by their cell-order index: a fixed order for a given state, so the sums repeat.
    for_each_piece(n, [&](std::size_t piece) {
      NeighbourSums sums;  // here, not in `pieces`: threads would share its cache lines
      for (std::size_t i = piece * n / kPieces; i < (piece + 1) * n / kPieces; ++i) {
        double nearest2 = std::numeric_limits<double>::infinity();
        const cl_float4& position = grid.position(i);
        grid.for_each_candidate(position, [&](std::size_t j) {
          if (j == i) return;
          const cl_float4 d = boids_offset(position, grid.position(j), rules);
          const double d2 = static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y +
                            static_cast<double>(d.z) * d.z;
          if (d2 >= radius2) return;
          ++sums.neighbour_pairs;
          nearest2 = std::min(nearest2, d2);
          if (j < i) groups.link(i, j);
        });
        if (nearest2 < radius2) {
          ++sums.with_neighbour;
          sums.nearest_sum += std::sqrt(nearest2);
        }
      }
      pieces[piece] = sums;
    });
  }
  std::size_t neighbour_pairs = 0;
  std::size_t with_neighbour = 0;
  double nearest_sum = 0.0;
  for (const NeighbourSums& sums : pieces) {
    neighbour_pairs += sums.neighbour_pairs;
    with_neighbour += sums.with_neighbour;
    nearest_sum += sums.nearest_sum;
  }
  measures.mean_neighbours = static_cast<double>(neighbour_pairs) / n;
  measures.mean_nearest_distance =
      with_neighbour > 0 ? nearest_sum / with_neighbour : std::numeric_limits<double>::quiet_NaN();
  measures.isolated_fraction = static_cast<double>(n - with_neighbour) / n;
  measures.groups = groups.count();
  return measures;
}

}  // namespace boids
