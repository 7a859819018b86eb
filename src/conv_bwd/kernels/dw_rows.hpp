// Row kernels of the depthwise algorithms (algo/depthwise.cpp): one image row against one kernel tap.
//   dot:  lanes[l] += Σ_{i < n, i ≡ l mod 16} a[i] · b[i·b_stride]   (16 fp32 lanes, whatever the ISA)
//   axpy: y[i·y_stride] += alpha · x[i], i < n, in ascending i
// The source is one template (dw_rows_impl.hpp) compiled once per ISA: the lanes and the order of every sum are
// the same on each; an ISA with FMA fuses the multiply-add (bits may differ between ISAs, never between runs).
#pragma once

#include <cstdint>

#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr int kDwLanes = 16;

struct DwRowKernels {
  void (*dot)(const float *a, const float *b, int64_t b_stride, int64_t n, float *lanes);
  void (*axpy)(float alpha, const float *x, int64_t n, float *y, int64_t y_stride);
  Isa isa;
  const char *name;
};

void dw_dot_f32__scalar(const float *a, const float *b, int64_t b_stride, int64_t n, float *lanes);
void dw_axpy_f32__scalar(float alpha, const float *x, int64_t n, float *y, int64_t y_stride);
void dw_dot_f32__avx2_fma(const float *a, const float *b, int64_t b_stride, int64_t n, float *lanes);
void dw_axpy_f32__avx2_fma(float alpha, const float *x, int64_t n, float *y, int64_t y_stride);
void dw_dot_f32__avx512f(const float *a, const float *b, int64_t b_stride, int64_t n, float *lanes);
void dw_axpy_f32__avx512f(float alpha, const float *x, int64_t n, float *y, int64_t y_stride);

const DwRowKernels &dw_row_kernels(Isa isa);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
