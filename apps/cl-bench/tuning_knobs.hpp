// The tuning lab's knobs: named settings (CLF_SORT_*, CLF_SCAN_*, CLF_MATMUL_TILING) turned
// into the primitives' config structs, on top of the tuning table's row for the device.
// cl-bench reads them from its environment, sort-probe from each configuration it is given;
// the primitives themselves never read them (apps/cl-bench/README.md lists them).
#pragma once

#include <functional>
#include <string>

#include "framework/device.hpp"
#include "framework/primitives/tuning.hpp"

namespace bench {

// A knob's value by name, "" when unset.
using KnobLookup = std::function<std::string(const char* name)>;

// Knobs from the process environment.
KnobLookup environment_knobs();

// The tuning table's config for `device`, with the knobs that are set applied; throws
// clf::Error for a value that is not understood or a config its check() rejects.
clf::primitives::SortConfig sort_config(const clf::DeviceInfo& device, const KnobLookup& knobs);
clf::primitives::ScanConfig scan_config(const clf::DeviceInfo& device, const KnobLookup& knobs);
clf::primitives::MatmulConfig matmul_config(const clf::DeviceInfo& device, const KnobLookup& knobs);

}  // namespace bench
