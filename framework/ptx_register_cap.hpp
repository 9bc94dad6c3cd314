// A register cap written into PTX text: the one cap NVIDIA's driver honours (it ignores
// -cl-nv-maxrregcount, and the CUDA JIT ignored CU_JIT_MAX_REGISTERS for the sort's kernels).
// Plain string work, without OpenCL, so that tools outside the framework (the CUDA
// sort-profile) cap the same way.
#pragma once

#include <string>

namespace clf {

// `ptx` with `.maxnreg registers` in front of every kernel entry's body.
std::string with_register_cap(const std::string& ptx, unsigned registers);

}  // namespace clf
