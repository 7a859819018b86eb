#include "conv_bwd/algo/shifted_geometry.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

std::string stride_text(const Canonical &c) {
  return std::to_string(c.stride[0]) + "x" + std::to_string(c.stride[1]) + "x" + std::to_string(c.stride[2]);
}

std::string phase_refusal(const Canonical &c, bool sharing) {
  if (unit_stride(c)) return "";
  const ShiftedGeometry geo(c);
  if (!geo.tabled) {
    return "stride " + stride_text(c) + ": more than " + std::to_string(kMaxPhaseCoordinates) +
           " stride phases along a dim hold taps";
  }
  if (sharing && c.kernel_numel() < 2 * geo.phases) {
    return "stride " + stride_text(c) + ": " + std::to_string(c.kernel_numel()) + " taps over " +
           std::to_string(geo.phases) + " stride phases (fewer than 2 per phase: no x value to share)";
  }
  return "";
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
