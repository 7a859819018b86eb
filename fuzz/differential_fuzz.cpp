// Differential libFuzzer target: decodes its input into a SMALL VALID convolution-backward call
// (1-D/2-D/3-D, groups, strides, pads incl. asymmetric 2-D ones, dilation, transposed with outputPadding, every
// outputMask, outputs passed or not, FP32/FP16/BF16 and the 8-bit combinations the 950 accepts, cubeMathType,
// emulated product, HF32 rounding, FP8 overflow, strided/permuted/offset views, empty tensors, NaN/Inf inputs)
// and runs it through the public API several times:
//   A  the fast plan, ISA cap I, 1 thread      B  the same on 2 threads: must be bitwise identical to A
//   C  the fast plan, another ISA cap          R  ACLNN_CPU_ALGO=reference (fp64 sums, rounded once)
// Each run starts from poisoned outputs and is checked by the conformance harness (tests/conformance_harness.hpp):
// every requested element against the independent fp64 reference of tests/conformance_reference.hpp within the
// documented tolerance ((terms+1)·2⁻²⁴·Σ|terms| plus the output rounding chain), no element left unwritten, nothing
// written outside the views or to masked-off outputs, inputs unmodified. A and C are also compared with R directly
// (the same tolerance, R's value as the expected one). Any failure prints the case and aborts, so libFuzzer keeps
// the input as a crash-* file; `differential_fuzz crash-xxx` replays it.
//
// The settings no public setter reaches (ISA cap, algorithm list, HF32 rounding, FP8 overflow) are applied the
// way a user sets them: ACLNN_CPU_* variables, re-read in-process by aclnn_cpu::load_settings_from_env().
//
// Input encoding (read from the front; bytes past the end read as 0), see fuzz/make_differential_corpus.sh:
//   0 shape:    rank = 1 + b%3; bit2 transposed; bits3-4 mb {1,2,3,0}; bit5 asymmetric 2-D pads
//   1 groups:   kGroups[b%8]; bit3 one channel per group on the input side (depthwise); bit4 extreme attributes
//               (the dims' 3 bytes then seed decode_extreme_dim: values from the whole valid range, up to INT64_MAX)
//   2, 3        channels per group of the input side / of the gradOutput side: kChannels[b%16]
//   4 mask:     bits0-2 outputMask; bits3-5 leave that output out (NULL) when its mask bit is 0
//   5 dtypes:   mode b%8: 0-2 all FP32/FP16/BF16; 3-5 mixed (3 each input its own, 4 one for the inputs, 5 FP32
//               inputs; outputs their own; all from 2-bit fields of two more bytes read after byte 10, which
//               shift what follows by 2); 6-7 an 8-bit combination (b>>3)%4, forcing Ascend950
//   6 precision: cubeMathType b%4; product kProducts[(b>>2)%5]; bit5 HF32 rne; bit6 FP8 overflow NaN
//   7 run:      ISA cap of A/B kIsas[b%3]; algorithms kAlgos[(b>>2)%4]; bit4 threads of R; bit5 threads of C
//   8 data:     bit0 integers (else uniform random); bits1-2 integer range - 1; bits3-4 number of specials
//   9, 10       data seed (little endian)
//   11..19      per spatial dim D, H, W (a call of rank r uses the last r): 3 bytes each
//               k: kernel 1 + b%4 (3-D: 1 + b%2), stride kSteps[(b>>2)%4], dilation kSteps[(b>>4)%4]
//               p: pad begin (b&15) % (span+2), pad end (b>>4) % (span+2) when asymmetric
//               s: extra size kExtra[b%16] (3-D: b%4); outputPadding (b>>4) % max(stride, dilation)
//   20..25      layout of gradOutput, input, weight, gradInput, gradWeight, gradBias: bit0 strided view;
//               bit1 gaps (inner step 2); bits2-4 storage offset; bits5-7 dim permutation
//   26..        specials: slot byte (%3: gradOutput, input, weight), element byte, value byte (kSpecials[b%6])
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "conformance_harness.hpp"
#include "conv_bwd/descriptor.hpp"
#include "core/config.hpp"

namespace {

using aclnn_cpu::Product;
using conformance::CaseTensors;
using conformance::ConvCase;
using conformance::Data;
using conformance::Layout;
using conformance::Slot;

constexpr int64_t kMaxMacs = 20000;  // keeps execs/s high and the fp64 reference cheap

constexpr int64_t kGroups[8] = {1, 1, 1, 2, 2, 3, 4, 1};
constexpr int64_t kChannels[16] = {1, 1, 2, 2, 3, 3, 4, 5, 7, 8, 9, 16, 17, 1, 2, 33};
constexpr int64_t kSteps[4] = {1, 1, 2, 3};
constexpr int64_t kExtra[16] = {0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 7, 9, 12, 15, 31, 0};
constexpr int64_t kBatch[4] = {1, 2, 3, 0};
constexpr Product kProducts[5] = {Product::kAscend910B, Product::kAscend910_93, Product::kAscend950,
                                  Product::kAscend910, Product::kAscend310P};
constexpr aclDataType kFloats[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const char *const kIsas[3] = {"avx512", "avx2", "scalar"};
// auto; the GEMMs where the direct row algorithms would run; each output's second GEMM; the col2im GEMM and the
// transposed forward GEMM alone for gradInput.
const char *const kAlgos[4] = {"auto", "-direct_data,-depthwise_weight",
                               "-direct_data,-depthwise_weight,-gemm_backward_data,-gemm_weight_shifted",
                               "-direct_data,-gemm_flipped_forward"};
// No value near FLT_MAX: an fp32 product or sum that overflows (-3e38 · 4 → -Inf, then + Inf → NaN) is what the
// cube computes, but not the fp64 reference's answer, and the tolerance model assumes no overflow. The finite values
// keep integer data exact (the harness then wants exact results): exact in FP16 and HF32, and sums of their products
// (1000 · 1000, 1000.5²) stay far below 2^24 (1e4 · 1e4 did not: fp32 sums then round, legitimately).
const double kSpecials[6] = {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             0.0,
                             1000.0,
                             -1000.5};

aclrtStream g_stream = nullptr;

class Reader {
 public:
  Reader(const uint8_t *data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

 private:
  const uint8_t *data_;
  size_t size_;
  size_t pos_ = 0;
};

// What changes between the runs of one case (everything else is the case itself).
struct RunSettings {
  const char *isa = "avx512";
  const char *algo = "auto";
  int threads = 1;
};

// A decoded case and the settings of its four runs.
struct Trial {
  ConvCase c;
  RunSettings a, b, other_isa, reference;
};

bool is_legacy(Product p) { return p == Product::kAscend910 || p == Product::kAscend310P; }

__extension__ typedef __int128 Wide;

// splitmix64 over the dim's bytes: the 64-bit values the extreme mode draws.
struct Draw {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  Wide below(Wide n) {
    return n <= 1 ? 0 : static_cast<Wide>(next() % static_cast<uint64_t>(std::min<Wide>(n, INT64_MAX)));
  }
};

constexpr int64_t kScales[8] = {
    2, 1000, 2147483647, int64_t{1} << 40, 1000000000000000000, int64_t{1} << 62, INT64_MAX / 2, INT64_MAX};

// One dim with attributes from the far end of the valid range on a tiny tensor: a stride, a dilation (with pads that
// cancel it), a stride with pads, or a stride and a dilation a step apart (pairs on one line), at one of kScales;
// pads and outputPadding solved for a small gradOutput. False when the draw leaves int64 or the size budget (the
// caller then decodes the dim as usual).
bool decode_extreme_dim(uint8_t kb, uint8_t pb, uint8_t sb, int i, bool asymmetric, ConvCase &c) {
  aclnn_cpu::conv_bwd::ConvDesc &d = c.desc;
  Draw r{(static_cast<uint64_t>(kb) << 16 | static_cast<uint64_t>(pb) << 8 | sb) * 0x2545f4914f6cdd1dULL + i};
  const int64_t k = 1 + kb % (d.spatial_rank == 3 ? 2 : 3), e = kScales[(kb >> 2) % 8];
  Wide s = 1 + r.below(3), dil = 1 + r.below(2);
  switch ((kb >> 5) % 4) {
    case 0:
    case 2:
      s = e;
      break;
    case 1:
      dil = e;
      break;
    default:
      s = e;
      dil = std::max<Wide>(1, e - 1 - r.below(3));
  }
  if (k == 1) dil = 1;
  const Wide reach = dil * (k - 1), x_target = 1 + sb % 8, y_target = 1 + (sb >> 3) % 4;
  Wide pads = 0, op = 0, x = 0, y = 0;
  if (!d.transposed) {
    // X + pads − reach − 1 ∈ [(Y − 1)·s, Y·s): Y output positions.
    x = x_target;
    pads = std::max<Wide>(0, (y_target - 1) * s + r.below(s) + reach + 1 - x);
  } else {
    // X = (Y − 1)·s − pads + reach + op + 1 for the input's Y; 3-D needs op < s, an 8-bit input op = 0.
    y = y_target;
    const Wide base = (y - 1) * s + reach + 1 - x_target;
    const bool op_free = !conformance::is_8bit(d.dtype[conformance::kInput]);
    op = base < 0 ? -base : (op_free ? r.below(2) : 0);
    if (!asymmetric && (base + op) % 2 != 0) ++op;
    if ((op > 0 && !op_free) || (d.spatial_rank == 3 && op >= s)) return false;
    pads = base + op;
  }
  const Wide pad_begin = asymmetric ? r.below(pads + 1) : pads / 2, pad_end = pads - pad_begin;
  if (!asymmetric && pads % 2 != 0) {  // symmetric pads: one more position may result
    if (d.transposed) return false;
    pads += 1;
  }
  if (d.transposed) {
    x = (y - 1) * s - pads + reach + op + 1;
  } else {
    y = (x + pads - reach - 1) / s + 1;
  }
  const Wide pb_v = asymmetric ? pad_begin : pads / 2, pe_v = asymmetric ? pad_end : pads / 2;
  if (x < 1 || y < 1 || y > 8 || x > 16 || s > INT64_MAX || dil > INT64_MAX || reach > INT64_MAX ||
      x + pb_v + pe_v > INT64_MAX || op > INT64_MAX || (y - 1) * s > INT64_MAX) {
    return false;
  }
  d.kernel[i] = k;
  d.stride[i] = static_cast<int64_t>(s);
  d.dilation[i] = static_cast<int64_t>(dil);
  d.pad_begin[i] = static_cast<int64_t>(pb_v);
  d.pad_end[i] = static_cast<int64_t>(pe_v);
  d.output_padding[i] = static_cast<int64_t>(op);
  d.in[i] = static_cast<int64_t>(d.transposed ? y : x);
  return true;
}

void decode_dims(Reader &in, ConvCase &c, bool asymmetric, bool extreme) {
  aclnn_cpu::conv_bwd::ConvDesc &d = c.desc;
  const int first = 3 - d.spatial_rank;
  for (int i = 0; i < 3; ++i) {
    const uint8_t kb = in.byte(), pb = in.byte(), sb = in.byte();
    if (i < first) continue;
    if (extreme && decode_extreme_dim(kb, pb, sb, i, asymmetric, c)) continue;
    d.kernel[i] = 1 + kb % (d.spatial_rank == 3 ? 2 : 4);
    d.stride[i] = kSteps[(kb >> 2) % 4];
    d.dilation[i] = kSteps[(kb >> 4) % 4];
    const int64_t span = d.dilation[i] * (d.kernel[i] - 1) + 1;
    d.pad_begin[i] = (pb & 15) % (span + 2);
    d.pad_end[i] = asymmetric ? (pb >> 4) % (span + 2) : d.pad_begin[i];
    const int64_t extra = d.spatial_rank == 3 ? sb % 4 : kExtra[sb % 16];
    if (!d.transposed) {
      d.in[i] = std::max<int64_t>(1, span - d.pad_begin[i] - d.pad_end[i]) + extra;
    } else {
      // An 8-bit input takes no outputPadding (docs/contract.md §2.3 V3).
      if (!conformance::is_8bit(d.dtype[conformance::kInput])) {
        d.output_padding[i] = (sb >> 4) % std::max(d.stride[i], d.dilation[i]);
      }
      d.in[i] = 1 + extra;
      while ((d.in[i] - 1) * d.stride[i] - d.pad_begin[i] - d.pad_end[i] + span + d.output_padding[i] < 1) ++d.in[i];
    }
  }
}

// The 8-bit combinations docs/contract.md §2.3 V3 lets through on the 950.
void decode_8bit(int recipe, ConvCase &c) {
  aclnn_cpu::conv_bwd::ConvDesc &d = c.desc;
  d.product = Product::kAscend950;
  const aclDataType t = recipe == 2 ? ACL_FLOAT8_E4M3FN : ACL_HIFLOAT8;
  for (aclDataType &x : d.dtype) x = t;
  d.present[conformance::kGradBias] = false;
  d.mask[2] = false;
  if (recipe == 0) {  // transposed, gradInput and gradWeight (FLOAT), outputPadding 0
    d.transposed = true;
    d.groups = 1;
    d.dtype[conformance::kGradWeight] = ACL_FLOAT;
    d.present[conformance::kGradInput] = d.present[conformance::kGradWeight] = true;
    d.mask[0] = true;
  } else if (recipe == 1) {  // gradWeight only (FLOAT), groups 1
    d.transposed = false;
    d.groups = 1;
    d.dtype[conformance::kGradWeight] = ACL_FLOAT;
    d.present[conformance::kGradInput] = false;
    d.present[conformance::kGradWeight] = true;
    d.mask[0] = false;
    d.mask[1] = true;
  } else {  // gradInput only
    d.present[conformance::kGradWeight] = false;
    d.present[conformance::kGradInput] = true;
    d.mask[0] = true;
    d.mask[1] = false;
  }
}

void decode_dtypes(uint8_t b, Reader &in, ConvCase &c) {
  aclnn_cpu::conv_bwd::ConvDesc &d = c.desc;
  const int mode = b % 8;
  if (mode <= 2) {
    for (aclDataType &x : d.dtype) x = kFloats[mode];
    return;
  }
  if (mode >= 6) return;  // decode_8bit, after the geometry
  const uint8_t r = in.byte(), s = in.byte();
  for (int slot = 0; slot < 3; ++slot) {
    d.dtype[slot] = mode == 3 ? kFloats[(r >> (2 * slot)) % 3] : mode == 4 ? kFloats[r % 3] : ACL_FLOAT;
  }
  for (int slot = 3; slot < 6; ++slot) d.dtype[slot] = kFloats[(s >> (2 * (slot - 3))) % 3];
  if (d.product == Product::kAscend950) {  // 950: each gradient in its source's dtype
    d.dtype[conformance::kGradInput] = d.dtype[conformance::kInput];
    d.dtype[conformance::kGradWeight] = d.dtype[conformance::kWeight];
    d.dtype[conformance::kGradBias] = d.dtype[conformance::kGradOutput];
  }
}

// Legacy products accept neither BF16, 3-D, empty tensors nor an FP32 cube: steer towards what they run.
void fit_legacy(ConvCase &c) {
  aclnn_cpu::conv_bwd::ConvDesc &d = c.desc;
  if (!is_legacy(d.product)) return;
  if (d.spatial_rank == 3 || d.mb == 0) {
    d.product = Product::kAscend910B;
    return;
  }
  for (aclDataType &x : d.dtype) {
    if (x == ACL_BF16) x = ACL_FLOAT16;
  }
  if (d.cube_math_type == 0 || d.cube_math_type == 3) d.cube_math_type = d.cube_math_type == 0 ? 1 : 2;
}

Layout decode_layout(uint8_t b, int rank) {
  Layout l;
  if ((b & 1) == 0) return l;
  l.inner_step = 1 + ((b >> 1) & 1);
  l.offset = (b >> 2) & 7;
  l.order.resize(rank);
  std::iota(l.order.begin(), l.order.end(), 0);
  uint32_t code = b >> 5;
  for (int i = rank - 1; i > 0; --i) {
    std::swap(l.order[i], l.order[code % (i + 1)]);
    code = code * 5 + 3;
  }
  return l;
}

int64_t product_of(const int64_t (&v)[3]) { return v[0] * v[1] * v[2]; }

// Decodes the case and the run settings; false when the input describes a problem outside the budget.
bool decode(const uint8_t *data, size_t size, Trial *trial) {
  Reader in(data, size);
  ConvCase &c = trial->c;
  aclnn_cpu::conv_bwd::ConvDesc &d = c.desc;
  const uint8_t shape = in.byte(), groups = in.byte(), cx = in.byte(), cy = in.byte(), mask = in.byte(),
                dtypes = in.byte(), precision = in.byte(), run = in.byte(), data_kind = in.byte();
  const uint8_t seed_lo = in.byte(), seed_hi = in.byte();
  d.spatial_rank = 1 + shape % 3;
  d.transposed = (shape >> 2) & 1;
  d.mb = kBatch[(shape >> 3) & 3];
  d.groups = kGroups[groups % 8];
  const int64_t cx_g = (groups >> 3) & 1 ? 1 : kChannels[cx % 16];
  const int64_t cy_g = kChannels[cy % 16];
  for (int m = 0; m < 3; ++m) {
    d.mask[m] = (mask >> m) & 1;
    d.present[conformance::kGradInput + m] = d.mask[m] || ((mask >> (3 + m)) & 1) == 0;
  }
  d.cube_math_type = precision % 4;
  d.product = kProducts[(precision >> 2) % 5];
  c.hf32_rounding = (precision >> 5) & 1 ? aclnn_cpu::Hf32Rounding::kNearestEven : aclnn_cpu::Hf32Rounding::kTiesAway;
  c.fp8_overflow = (precision >> 6) & 1 ? aclnn_cpu::Fp8Overflow::kNan : aclnn_cpu::Fp8Overflow::kSaturate;
  decode_dtypes(dtypes, in, c);
  if (dtypes % 8 >= 6) decode_8bit((dtypes >> 3) % 4, c);
  fit_legacy(c);
  decode_dims(in, c, (shape >> 5) & 1 && d.spatial_rank == 2, (groups >> 4) & 1);
  d.ic = d.groups * (d.transposed ? cy_g : cx_g);
  d.oc = d.groups * (d.transposed ? cx_g : cy_g);
  for (int i = 3 - d.spatial_rank; i < 3; ++i) d.out[i] = aclnn_cpu::conv_bwd::implied_out_size(d, i);
  const int64_t macs = std::max<int64_t>(d.mb, 1) * d.groups * cx_g * cy_g * product_of(d.kernel) *
                       std::max(product_of(d.in), product_of(d.out));
  if (macs > kMaxMacs) return false;

  c.data = data_kind & 1 ? Data::kIntegers : Data::kRandom;
  c.int_range = 1 + ((data_kind >> 1) & 3);
  c.seed = seed_lo | (static_cast<uint64_t>(seed_hi) << 8);
  for (int s = 0; s < conformance::kSlots; ++s) {
    c.layout[s] = decode_layout(in.byte(), s == conformance::kGradBias ? 1 : d.spatial_rank + 2);
  }
  const int specials = (data_kind >> 3) & 3;
  for (int i = 0; i < specials; ++i) {
    const Slot slot = static_cast<Slot>(in.byte() % 3);
    const int64_t index = in.byte();
    c.specials.push_back({slot, index, kSpecials[in.byte() % 6]});
  }

  const int isa = run % 3;
  trial->a = {kIsas[isa], kAlgos[(run >> 2) % 4], 1};
  trial->b = trial->a;
  trial->b.threads = 2;
  trial->other_isa = {kIsas[(isa + 1 + ((run >> 6) & 1)) % 3], trial->a.algo, 1 + ((run >> 5) & 1)};
  trial->reference = {kIsas[isa], "reference", 1 + ((run >> 4) & 1)};
  return true;
}

std::string describe(const Trial &trial) {
  const ConvCase &c = trial.c;
  std::ostringstream os;
  os << conformance::case_text(c) << "\n  int_range " << c.int_range << ", hf32 "
     << (c.hf32_rounding == aclnn_cpu::Hf32Rounding::kNearestEven ? "rne" : "away") << ", fp8 overflow "
     << (c.fp8_overflow == aclnn_cpu::Fp8Overflow::kNan ? "nan" : "saturate") << "\n  layouts:";
  for (int s = 0; s < conformance::kSlots; ++s) {
    const Layout &l = c.layout[s];
    os << ' ' << conformance::kSlotName[s] << "{order";
    for (int o : l.order) os << ' ' << o;
    os << ", step " << l.inner_step << ", offset " << l.offset << '}';
  }
  for (const ConvCase::Special &sp : c.specials) {
    os << "\n  special " << conformance::kSlotName[sp.slot] << "[" << sp.index << "] = " << sp.value;
  }
  os << "\n  runs: A isa " << trial.a.isa << " algo " << trial.a.algo << " threads 1; B threads 2; C isa "
     << trial.other_isa.isa << " threads " << trial.other_isa.threads << "; R reference threads "
     << trial.reference.threads;
  return os.str();
}

[[noreturn]] void fail(const Trial &trial, const std::string &what) {
  std::fprintf(stderr, "\ndifferential_fuzz: MISMATCH: %s\n  case: %s\n", what.c_str(), describe(trial).c_str());
  std::fflush(stderr);
  std::abort();
}

void apply(const Trial &trial, const RunSettings &r) {
  const ConvCase &c = trial.c;
  setenv("ACLNN_CPU_SOC", aclnn_cpu::product_name(c.desc.product), 1);
  setenv("ACLNN_CPU_STRICT", "0", 1);
  setenv("ACLNN_CPU_NUM_THREADS", std::to_string(r.threads).c_str(), 1);
  setenv("ACLNN_CPU_MAX_ISA", r.isa, 1);
  setenv("ACLNN_CPU_ALGO", r.algo, 1);
  setenv("ACLNN_CPU_HF32_ROUNDING", c.hf32_rounding == aclnn_cpu::Hf32Rounding::kNearestEven ? "rne" : "away", 1);
  setenv("ACLNN_CPU_FP8_OVERFLOW", c.fp8_overflow == aclnn_cpu::Fp8Overflow::kNan ? "nan" : "saturate", 1);
  std::string error;
  if (!aclnn_cpu::load_settings_from_env(&error)) fail(trial, "settings rejected: " + error);
}

// Whether GetWorkspaceSize accepts the case (the decoder aims at valid calls; the rest are skipped).
bool accepted(const Trial &trial) {
  apply(trial, trial.a);
  CaseTensors tensors(trial.c);
  uint64_t bytes = 0;
  aclOpExecutor *executor = nullptr;
  conformance::ApiCall call(trial.c, tensors);
  if (call.get_workspace_size(&bytes, &executor) != ACLNN_SUCCESS) return false;
  aclDestroyAclOpExecutor(executor);
  return true;
}

// One checked run from poisoned outputs; the tensors keep its results.
CaseTensors checked_run(const Trial &trial, const RunSettings &r, const char *name) {
  apply(trial, r);
  CaseTensors tensors(trial.c);
  const ::testing::AssertionResult ok = conformance::check_case(trial.c, tensors, conformance::Path::kApi, g_stream);
  if (!ok) {
    fail(trial, std::string("run ") + name + " (isa " + r.isa + ", algo " + r.algo + ", threads " +
                    std::to_string(r.threads) + ") against the fp64 reference: " + ok.message());
  }
  return tensors;
}

bool requested(const ConvCase &c, const CaseTensors &t, int s) {
  return c.desc.present[s] && c.desc.mask[s - conformance::kGradInput] && t.t[s].numel() > 0 && !t.empty_inputs();
}

void expect_identical(const Trial &trial, const CaseTensors &x, const CaseTensors &y, const char *what) {
  for (int s = conformance::kGradInput; s < conformance::kSlots; ++s) {
    if (trial.c.desc.present[s] && x.t[s].bytes() != y.t[s].bytes()) {
      fail(trial, std::string(conformance::kSlotName[s]) + " differs bitwise between " + what);
    }
  }
}

// `fast` against the library's reference run: R's value is the expected one, the tolerance that of the test
// reference (its term counts and magnitudes).
void expect_near_reference(const Trial &trial, const CaseTensors &fast, const CaseTensors &ref, const char *name) {
  const ConvCase &c = trial.c;
  const conformance::RefSetup setup = conformance::ref_setup(c);
  const conformance::Dense5 go = ref.dense(conformance::kGradOutput), x = ref.dense(conformance::kInput),
                            w = ref.dense(conformance::kWeight);
  for (int s = conformance::kGradInput; s < conformance::kSlots; ++s) {
    if (!requested(c, ref, s)) continue;
    conformance::RefSums sums = s == conformance::kGradInput    ? conformance::ref_grad_input(setup, go, x, w)
                                : s == conformance::kGradWeight ? conformance::ref_grad_weight(setup, go, x, w)
                                                                : conformance::ref_grad_bias(go);
    for (int64_t i = 0; i < ref.t[s].numel(); ++i) sums.sum[i] = ref.t[s].get(i);
    const ::testing::AssertionResult ok = conformance::check_output(c, static_cast<Slot>(s), fast.t[s], sums, false);
    if (!ok) fail(trial, std::string("run ") + name + " against the reference algorithms (R): " + ok.message());
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const bool trace = std::getenv("DIFFERENTIAL_FUZZ_TRACE") != nullptr;  // shows what each input became
  Trial trial;
  const bool in_budget = decode(data, size, &trial);
  const bool valid = in_budget && accepted(trial);
  if (trace) {
    std::fprintf(stderr, "differential_fuzz: %s: %s\n",
                 !in_budget ? "over budget"
                 : valid    ? "runs"
                            : "rejected",
                 describe(trial).c_str());
    if (in_budget && !valid) std::fprintf(stderr, "  %s\n", conformance::recent_api_error().c_str());
  }
  if (!valid) return 0;
  const CaseTensors a = checked_run(trial, trial.a, "A");
  const CaseTensors b = checked_run(trial, trial.b, "B");
  expect_identical(trial, a, b, "1 and 2 threads (runs A and B)");
  const CaseTensors other = checked_run(trial, trial.other_isa, "C");
  const CaseTensors ref = checked_run(trial, trial.reference, "R");
  expect_near_reference(trial, a, ref, "A");
  expect_near_reference(trial, other, ref, "C");
  return 0;
}
