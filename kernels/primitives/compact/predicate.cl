// The compaction's predicate (clf::primitives::Predicate<T>): a comparison with a value, chosen
// at run time. T is a build option.
#ifndef KERNELS_PRIMITIVES_COMPACT_PREDICATE_CL
#define KERNELS_PRIMITIVES_COMPACT_PREDICATE_CL

// The comparisons the host can ask for, in the order of clf::primitives::Comparison.
#define COMPARE_NONZERO 0
#define COMPARE_EQUAL 1
#define COMPARE_NOT_EQUAL 2
#define COMPARE_LESS 3
#define COMPARE_LESS_EQUAL 4
#define COMPARE_GREATER 5
#define COMPARE_GREATER_EQUAL 6

inline uint is_selected(T x, uint comparison, T value) {
  switch (comparison) {
    case COMPARE_NONZERO:
      return x != (T)0;
    case COMPARE_EQUAL:
      return x == value;
    case COMPARE_NOT_EQUAL:
      return x != value;
    case COMPARE_LESS:
      return x < value;
    case COMPARE_LESS_EQUAL:
      return x <= value;
    case COMPARE_GREATER:
      return x > value;
    default:
      return x >= value;
  }
}

#endif  // KERNELS_PRIMITIVES_COMPACT_PREDICATE_CL
