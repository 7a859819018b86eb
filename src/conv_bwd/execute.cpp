// Execution of a validated problem: the empty path's zero fills, or staging plus one algorithm per requested
// output. Outputs whose mask bit is false are never touched.
#include "conv_bwd/execute.hpp"

#include <cstdint>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/algo/grad_bias.hpp"
#include "conv_bwd/algo/grad_input.hpp"
#include "conv_bwd/algo/grad_weight.hpp"
#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/algo/staging.hpp"
#include "conv_bwd/algo/zero_fill.hpp"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/tensor_io.hpp"
#include "core/error.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr const char *kApi = "aclnnConvolutionBackward";

int internal_failure(const Problem &problem, const std::string &why) {
  return inner_error(ACLNN_ERR_INNER_NULLPTR, kApi, why + " (problem " + describe(problem) + ")");
}

bool has_elements(const TensorArg &t) {
  for (int64_t s : t.shape) {
    if (s <= 0) return false;
  }
  return true;
}

// SPEC §2.5: zeros for gradWeight and gradBias when requested and non-empty; gradInput is not written.
int run_empty_path(const Problem &p) {
  const TensorArg *outputs[2] = {&p.grad_weight, &p.grad_bias};
  for (int i = 0; i < 2; ++i) {
    if (!p.mask[i + 1]) continue;
    const TensorArg &t = *outputs[i];
    if (!t.present) return internal_failure(p, "a requested empty-path output is missing");
    if (has_elements(t) && (t.data == nullptr || !is_supported_dtype(t.dtype))) {
      return internal_failure(p, "an empty-path output has no data or an unsupported dtype");
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (p.mask[i + 1] && has_elements(*outputs[i])) zero_fill(*outputs[i]);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

uint64_t workspace_size(const Problem &problem) { return staging_layout(problem).bytes; }

int execute(const Problem &p, void *workspace, uint64_t workspace_bytes) {
  if (p.empty_path) return run_empty_path(p);
  Canonical c;
  std::string why;
  if (!make_canonical(p, &c, &why)) return internal_failure(p, "inconsistent problem: " + why);
  const StagingLayout layout = staging_layout(p);
  if (layout.bytes > 0 && (workspace == nullptr || workspace_bytes < layout.bytes)) {
    return internal_failure(p, "workspace of " + std::to_string(workspace_bytes) + " bytes at " +
                                   (workspace ? "a buffer" : "NULL") + " is smaller than the " +
                                   std::to_string(layout.bytes) + " bytes asked for");
  }
  if (reinterpret_cast<uintptr_t>(workspace) % alignof(float) != 0) {
    return internal_failure(p, "the workspace is not aligned to " + std::to_string(alignof(float)) + " bytes");
  }
  unsigned char *base = static_cast<unsigned char *>(workspace);
  float *go = layout.grad_output ? reinterpret_cast<float *>(base + layout.grad_output_at) : nullptr;
  float *in = layout.input ? reinterpret_cast<float *>(base + layout.input_at) : nullptr;
  float *w = layout.weight ? reinterpret_cast<float *>(base + layout.weight_at) : nullptr;

  const Rounding rounding(p);
  // gradBias reads the caller's gradOutput directly: do it before any output is written, in case an output
  // shares memory with gradOutput (in-place callers). The other outputs read only the staged copies.
  if (p.mask[2]) grad_bias(c.grad_output, rounding, p.grad_bias);
  if (go != nullptr) stage_operand(lift(p.grad_output), rounding, go);
  if (in != nullptr) stage_operand(lift(p.input), rounding, in);
  if (w != nullptr) stage_operand(lift(p.weight), rounding, w);

  if (p.mask[0]) grad_input(c, go, w, rounding, lift(p.grad_input));
  if (p.mask[1]) {
    // Canonical roles: x is input unless transposed (then gradOutput); dy is the other one.
    const float *x = c.transposed ? go : in;
    const float *dy = c.transposed ? in : go;
    grad_weight(c, x, dy, rounding, lift(p.grad_weight));
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
