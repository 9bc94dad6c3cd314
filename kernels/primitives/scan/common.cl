// Helpers shared by the scan and compaction kernels. The host builds every program with:
//   T        element type: int, uint or float
//   AS_T     reinterpret a uint as T: as_int, as_uint or as_float
//   WG_SIZE  work-group size (a power of two), SCAN_ROW its row width for wg_exclusive_scan
//            (WG_SIZE = SCAN_ROW * SCAN_ROWS with SCAN_ROWS <= SCAN_ROW)
//   ITEMS    elements per work-item in the tiled kernels: 4, 8, 16 or 32
// Indices are uint: the host refuses more than 2^31 - 1 elements.

#define SCAN_CONCAT_(a, b) a##b
#define SCAN_CONCAT(a, b) SCAN_CONCAT_(a, b)
#define T4 SCAN_CONCAT(T, 4)
#define T8 SCAN_CONCAT(T, 8)

#ifdef WG_SIZE
#define SCAN_ROWS (WG_SIZE / SCAN_ROW)
#endif
#ifdef ITEMS
#define TILE (WG_SIZE * ITEMS)
// The striped layout (below) gives each work-item CHUNKS runs of 4 values; TQ holds one value
// per run, so the work-group scans all of them with one wg_exclusive_scan. TQ exists where
// CHUNKS is a vector width (ITEMS 4, 8, 16, 32: what the kernels that use it are built with);
// the look-back kernel takes any multiple of 4 and does without it.
#if ITEMS % 4 != 0 || ITEMS < 4
#error "ITEMS must be a positive multiple of 4"
#endif
#define CHUNKS (ITEMS / 4)
#if ITEMS == 4
#define TQ T
#define TQ_STORE(value, array) ((array)[0] = (value))
#define TQ_LOAD(array) ((array)[0])
#elif ITEMS == 8 || ITEMS == 16 || ITEMS == 32  // the width is pasted into type names
#define TQ_WIDTH_8 2
#define TQ_WIDTH_16 4
#define TQ_WIDTH_32 8
#define TQ_WIDTH SCAN_CONCAT(TQ_WIDTH_, ITEMS)
#define TQ SCAN_CONCAT(T, TQ_WIDTH)
#define TQ_STORE(value, array) SCAN_CONCAT(vstore, TQ_WIDTH)(value, 0, array)
#define TQ_LOAD(array) SCAN_CONCAT(vload, TQ_WIDTH)(0, array)
#endif
#endif

// Blelloch's work-efficient exclusive scan of 2 * get_local_size(0) values in local memory
// (up-sweep, clear the root, down-sweep), as in GPU Gems 3 ch. 39 and Gruber's ScanBlocks.
// Returns the sum of all values to every work-item. Starts and ends with a barrier.
inline T local_blelloch_exclusive(local T* values) {
  const uint lid = get_local_id(0);
  const uint count = 2 * get_local_size(0);
  uint offset = 1;
  for (uint d = count >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) values[offset * (2 * lid + 2) - 1] += values[offset * (2 * lid + 1) - 1];
    offset <<= 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const T total = values[count - 1];
  barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read the root before it is cleared
  if (lid == 0) values[count - 1] = 0;
  for (uint d = 1; d < count; d <<= 1) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      const uint left = offset * (2 * lid + 1) - 1;
      const uint right = offset * (2 * lid + 2) - 1;
      const T t = values[left];
      values[left] = values[right];
      values[right] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return total;
}

#ifdef WG_SIZE
// Exclusive scan of one value per work-item across the work-group, with two barriers: each
// work-item sums the values before it in its row of SCAN_ROW (broadcast reads), the rows' totals
// go to local memory, and each work-item adds the totals of the rows before its own. `scratch`
// holds WG_SIZE + SCAN_ROWS values. *total gets the sum over the work-group (the same in every
// work-item, floats included). Callers put a barrier before reusing `scratch`. Defined by a macro
// for each type that needs it (compaction scans uint counts over T elements); the loops have
// constant bounds, so compilers unroll them.
#define DEFINE_WG_EXCLUSIVE_SCAN(name, type)                              \
  inline type name(type value, local type* scratch, type* total) {        \
    const uint lid = get_local_id(0);                                     \
    const uint row = lid / SCAN_ROW;                                      \
    const uint col = lid % SCAN_ROW;                                      \
    scratch[lid] = value;                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                         \
    const local type* row_values = scratch + row * SCAN_ROW;              \
    type row_prefix = 0;                                                  \
    for (uint k = 0; k < SCAN_ROW; ++k) {                                 \
      const type v = row_values[k];                                       \
      row_prefix += k < col ? v : (type)0;                                \
    }                                                                     \
    if (col == SCAN_ROW - 1) scratch[WG_SIZE + row] = row_prefix + value; \
    barrier(CLK_LOCAL_MEM_FENCE);                                         \
    type before = 0;                                                      \
    type all = 0;                                                         \
    for (uint r = 0; r < SCAN_ROWS; ++r) {                                \
      const type v = scratch[WG_SIZE + r];                                \
      before += r < row ? v : (type)0;                                    \
      all += v;                                                           \
    }                                                                     \
    *total = all;                                                         \
    return before + row_prefix;                                           \
  }

DEFINE_WG_EXCLUSIVE_SCAN(wg_exclusive_scan, T)
#if defined(ITEMS) && defined(TQ)
#if CHUNKS > 1
DEFINE_WG_EXCLUSIVE_SCAN(wg_exclusive_scan_chunks, TQ)
#else
#define wg_exclusive_scan_chunks wg_exclusive_scan
#endif
#endif
#endif

#ifdef ITEMS
// Loads ITEMS consecutive values starting at `first`: vector loads when the whole run lies
// below n (`first` is a multiple of 4, buffers start aligned), else guarded loads with zeros.
inline void load_items(const global T* in, uint first, uint n, T* items) {
  if (first + ITEMS <= n) {
    const global T4* vectors = (const global T4*)(in + first);
#pragma unroll
    for (uint k = 0; k < ITEMS / 4; ++k) {
      const T4 v = vectors[k];
      items[4 * k + 0] = v.s0;
      items[4 * k + 1] = v.s1;
      items[4 * k + 2] = v.s2;
      items[4 * k + 3] = v.s3;
    }
  } else {
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k) items[k] = first + k < n ? in[first + k] : (T)0;
  }
}

// Stores ITEMS consecutive values starting at `first`, those below n only.
inline void store_items(global T* out, uint first, uint n, const T* items) {
  if (first + ITEMS <= n) {
    global T4* vectors = (global T4*)(out + first);
#pragma unroll
    for (uint k = 0; k < ITEMS / 4; ++k) {
      vectors[k] = (T4)(items[4 * k], items[4 * k + 1], items[4 * k + 2], items[4 * k + 3]);
    }
  } else {
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k) {
      if (first + k < n) out[first + k] = items[k];
    }
  }
}

// Sum of the work-item's items.
inline T sum_items(const T* items) {
  T sum = 0;
#pragma unroll
  for (uint k = 0; k < ITEMS; ++k) sum += items[k];
  return sum;
}

// Replaces the items by their scan offset by `prefix`: inclusive (items[k] += everything before)
// or exclusive (items[k] = everything before it).
inline void scan_items(T* items, T prefix, uint inclusive) {
  T running = prefix;
#pragma unroll
  for (uint k = 0; k < ITEMS; ++k) {
    const T x = items[k];
    const T next = running + x;
    items[k] = inclusive ? next : running;
    running = next;
  }
}
#endif

#ifdef ITEMS
// The striped tile layout of the scan kernels. A tile is CHUNKS rows of WG_SIZE runs of 4 values
// (T4); work-item l owns run l of every row, so each row is read and written as one contiguous,
// fully coalesced sweep (a warp touches 512 consecutive bytes), where giving each work-item ITEMS
// consecutive values would make every warp access touch only part of each 32-byte sector.

// The 4 values from in[first], zero at or beyond n; one vector load when all are in range
// (`first` is a multiple of 4, buffers start aligned).
inline T4 load_run(const global T* in, uint first, uint n) {
  if (first + 4 <= n) return *(const global T4*)(in + first);
  T4 v = (T4)(0);
  if (first + 0 < n) v.s0 = in[first + 0];
  if (first + 1 < n) v.s1 = in[first + 1];
  if (first + 2 < n) v.s2 = in[first + 2];
  return v;  // first + 3 < n would have taken the vector load
}

inline void store_run(global T* out, uint first, uint n, T4 v) {
  if (first + 4 <= n) {
    *(global T4*)(out + first) = v;
    return;
  }
  if (first + 0 < n) out[first + 0] = v.s0;
  if (first + 1 < n) out[first + 1] = v.s1;
  if (first + 2 < n) out[first + 2] = v.s2;
}

// Where the work-item's run `row` starts in a tile starting at `tile_first`.
inline uint run_first(uint tile_first, uint row) {
  return tile_first + 4 * (row * WG_SIZE + get_local_id(0));
}

// Loads the work-item's runs of the tile at `tile_first`.
inline void load_runs(const global T* in, uint tile_first, uint n, T4* runs) {
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) runs[row] = load_run(in, run_first(tile_first, row), n);
}

inline void store_runs(global T* out, uint tile_first, uint n, const T4* runs) {
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) store_run(out, run_first(tile_first, row), n, runs[row]);
}

inline T sum_run(T4 v) { return (v.s0 + v.s1) + (v.s2 + v.s3); }

// Sum of the work-item's runs.
inline T sum_runs(const T4* runs) {
  T sum = 0;
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) sum += sum_run(runs[row]);
  return sum;
}

#ifdef TQ
// Scans the tile's run sums across the work-group (`scratch` as for wg_exclusive_scan_chunks,
// WG_SIZE + SCAN_ROWS values of TQ): offsets[row] gets the sum of everything in the tile before
// the work-item's run `row`. Returns the tile's sum (the same in every work-item). Callers put a
// barrier before reusing `scratch`.
inline T scan_run_sums(const T4* runs, local TQ* scratch, T* offsets) {
  T sums[CHUNKS];
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) sums[row] = sum_run(runs[row]);
  TQ row_totals;
  const TQ before = wg_exclusive_scan_chunks(TQ_LOAD(sums), scratch, &row_totals);
  T totals[CHUNKS];
  TQ_STORE(before, offsets);
  TQ_STORE(row_totals, totals);
  T rows_before = 0;
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) {
    offsets[row] += rows_before;
    rows_before += totals[row];
  }
  return rows_before;
}
#endif

// The scan of a run of four starting from `start`: inclusive (each value plus everything before
// it) or exclusive (everything before it).
inline T4 scan_run(T4 v, T start, uint inclusive) {
  const T s1 = start + v.s0;
  const T s2 = s1 + v.s1;
  const T s3 = s2 + v.s2;
  return inclusive ? (T4)(s1, s2, s3, s3 + v.s3) : (T4)(start, s1, s2, s3);
}

// Replaces each run by its scan starting from `prefix` + offsets[row].
inline void scan_runs(T4* runs, const T* offsets, T prefix, uint inclusive) {
#pragma unroll
  for (uint row = 0; row < CHUNKS; ++row) {
    runs[row] = scan_run(runs[row], prefix + offsets[row], inclusive);
  }
}
#endif
