// Attribute values from the far end of the valid range (up to INT64_MAX where the shape rules allow it) on tiny
// tensors, through the public API: every requested gradient against the independent fp64 reference, and planning
// (GetWorkspaceSize) measured against a twin call with the same tensor shapes and ordinary attributes: no more
// planner steps (conv_bwd/plan_steps.hpp) and a workspace of the same order. 1-D, 2-D (4-value padding too) and
// 3-D, transposed, depthwise, calls where no term exists at all, every mask, FP32 and BF16.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "conformance_harness.hpp"
#include "conv_bwd/plan_steps.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

// 10^18, its half, and INT64_MAX, as the problem strings spell them.
#define P "1000000000000000000"
#define P_MINUS_1 "999999999999999999"
#define P_MINUS_2 "999999999999999998"
#define P_PLUS_100 "1000000000000000100"
#define THREE_P_MINUS_3 "2999999999999999997"
#define MAX "9223372036854775807"
#define HALF_MAX "4611686018427387903"
#define MAX_MINUS_10 "9223372036854775797"

// An extreme call and up to three calls with the same tensors and ordinary attributes.
struct Twins {
  const char *extreme;
  std::vector<const char *> ordinary;
  const char *what;
};

const Twins kTwins[] = {
    // The call of the report: one output row, so the stride on H takes part in nothing.
    {"mb2_ic3oc4_ih6iw6_oh1ow4_kh3kw3_sh" MAX "sw1", {"mb2_ic3oc4_ih6iw6_oh1ow4_kh3kw3_sh4sw1"}, "stride H INT64_MAX"},
    {"mb2_ic3oc4_ih6iw6_oh4ow1_kh3kw3_sh1sw" MAX, {"mb2_ic3oc4_ih6iw6_oh4ow1_kh3kw3_sh1sw4"}, "stride W INT64_MAX"},
    // Pads of 10^18 cancelled by the stride: only the middle position reads x.
    {"mb1_ic2oc3_iw6_kw3_sw" P "_pw" P,
     {"mb1_ic2oc3_iw6_kw3_sw2_pw1", "mb1_ic2oc3_iw6_kw3_sw3_pw2", "mb1_ic2oc3_iw6_kw3_sw2_pw2_dw2"},
     "1-D stride and pads 10^18"},
    // Pads cancelled by a dilation of 10^18: only the middle tap reads x.
    {"mb1_ic2oc3_iw6_kw3_dw" P "_pw" P,
     {"mb1_ic2oc3_iw6_kw3_pw1", "mb1_ic2oc3_iw6_kw3_pw2_dw2"},
     "1-D dilation and pads 10^18"},
    // Stride 10^18, dilation 10^18 − 1: position o meets tap k only where o + k = 3 (pairs on one line).
    {"mb1_ic2oc3_iw5_kw4_sw" P "_dw" P_MINUS_1 "_pw" THREE_P_MINUS_3,
     {"mb1_ic2oc3_iw5_kw4_pw1", "mb1_ic2oc3_iw5_kw4_sw2_pw3"},
     "1-D pairs on a line"},
    {"mb2_ic5oc7_ih5iw6_kh4kw3_sh" P "sw1_ph" THREE_P_MINUS_3 "pw1_dh" P_MINUS_1 "dw1",
     {"mb2_ic5oc7_ih5iw6_kh4kw3_ph1pw1", "mb2_ic5oc7_ih5iw6_kh4kw3_sh2sw1_ph3pw1"},
     "2-D pairs on a line"},
    // [top, bottom, left, right] padding: a top pad of 10^18 cancelled by the stride.
    {"mb1_ic2oc2_ih6iw6_kh3kw3_sh" P "sw1_ph" P ":0pw1",
     {"mb1_ic2oc2_ih6iw6_kh3kw3_sh3sw1_ph0pw1", "mb1_ic2oc2_ih6iw6_kh3kw3_sh2sw1_ph0pw1"},
     "2-D top pad 10^18"},
    // No (position, tap) pair reads x: gradInput and gradWeight are zeros.
    {"mb1_ic2oc3_ih1iw6_kh1kw3_sh1sw" HALF_MAX "_ph0pw" MAX_MINUS_10 ":0",
     {"mb1_ic2oc3_ih1iw6_kh1kw3_sw3"},
     "2-D no term, pad INT64_MAX - 10"},
    {"mb1_ic2oc3_iw6_kw3_sw" P_PLUS_100 "_pw" P, {"mb1_ic2oc3_iw6_kw3_sw3"}, "1-D no term"},
    // Transposed: one input position at stride INT64_MAX; dilation and pads of 10^18; huge outputPadding.
    {"mb1_ic2oc3_iw1_kw3_sw" MAX "_tr1", {"mb1_ic2oc3_iw1_kw3_tr1"}, "transposed 1-D stride INT64_MAX"},
    {"mb1_ic2oc3_iw4_kw3_dw" P "_pw" P "_tr1",
     {"mb1_ic2oc3_iw4_kw3_pw1_tr1", "mb1_ic2oc3_iw4_kw3_sw2_pw3_tr1_opw1"},
     "transposed 1-D dilation and pads"},
    {"mb1_ic2oc3_iw2_kw1_pw" P "_tr1_opw2000000000000000000",
     {"mb1_ic2oc3_iw2_kw1_tr1"},
     "transposed 1-D outputPadding 2e18, no term"},
    {"mb1_ic2oc3_ih1iw2_kh1kw1_sh1sw" P "_ph0pw" P ":0_tr1_oph0opw2",
     {"mb1_ic2oc3_ih1iw2_kh1kw1_sw2_tr1", "mb1_ic2oc3_ih1iw2_kh1kw1_sw3_ph0pw1:1_tr1_oph0opw1"},
     "transposed 2-D stride and left pad 10^18"},
    // 3-D: every dim extreme at once.
    {"mb1_ic2oc2_id1ih5iw5_kd3kh3kw3_sd" MAX "sh1sw" P "_pd1ph" P "pw" P "_dd1dh" P "dw1",
     {"mb1_ic2oc2_id1ih5iw5_kd3kh3kw3_sw2_pd1ph1pw1"},
     "3-D"},
    {"mb1_ic2oc2_id1ih3iw2_kd3kh1kw1_sd" MAX "sh1sw" P "_pd0ph0pw" P_MINUS_2 "_tr1_opd0oph0opw" P_MINUS_2,
     {"mb1_ic2oc2_id1ih3iw2_kd3kh1kw1_sw2_tr1"},
     "transposed 3-D outputPadding 10^18 - 2"},
    // Depthwise (the direct row algorithms): stride INT64_MAX on one row; stride 2 with the middle tap only.
    {"mb1_g4_ic4oc4_ih6iw6_oh1ow4_kh3kw3_sh" MAX "sw1", {"mb1_g4_ic4oc4_ih6iw6_oh1ow4_kh3kw3_sh4sw1"}, "depthwise"},
    {"mb1_g4_ic4oc8_iw8_kw3_sw2_pw" P "_dw" P, {"mb1_g4_ic4oc8_iw8_kw3_sw2_pw1"}, "depthwise strided"},
};

// Families of calls whose only change is the size of extreme values: their plans must be the same. Each "{}" of the
// pattern is one value, "{-1}" that value minus one, "{3x-3}" three times it minus three.
struct Scaled {
  const char *pattern;
  std::vector<int64_t> values;
};

const Scaled kScaled[] = {
    {"mb2_ic3oc4_ih6iw6_oh1ow4_kh3kw3_sh{}sw1", {4, 1000000, 2147483647, int64_t{1} << 40, INT64_MAX}},
    {"mb1_ic2oc3_iw6_kw3_sw{}_pw{}", {1000, 1000000, int64_t{1} << 40, 1000000000000000000}},
    {"mb1_ic2oc3_iw6_kw3_dw{}_pw{}", {1000, 1000000, int64_t{1} << 40, 1000000000000000000}},
    {"mb1_ic2oc3_iw5_kw4_sw{}_dw{-1}_pw{3x-3}", {1000, 1000000, int64_t{1} << 40, 1000000000000000000}},
    {"mb1_ic2oc2_id1ih5iw5_kd3kh3kw3_sd{}sh1sw{}_pd1ph{}pw{}_dd1dh{}dw1", {1000, 1000000, 1000000000000000000}},
};

std::string scaled(const char *pattern, int64_t v) {
  std::string s = pattern;
  __extension__ typedef __int128 Wide;  // 3·v − 3 of a large v is computed only where the pattern has it
  const std::pair<const char *, Wide> fields[] = {{"{}", v}, {"{-1}", Wide{v} - 1}, {"{3x-3}", 3 * Wide{v} - 3}};
  for (const auto &f : fields) {
    for (size_t at = s.find(f.first); at != std::string::npos; at = s.find(f.first)) {
      s.replace(at, std::string(f.first).size(), std::to_string(static_cast<int64_t>(f.second)));
    }
  }
  return s;
}

// What planning cost: the planner's steps and the workspace GetWorkspaceSize asked for.
struct PlanCost {
  int64_t steps = 0;
  uint64_t workspace = 0;
};

class ConformanceExtremeAttributes : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = aclnn_cpu::settings();
    const aclError init = aclInit(nullptr);
    ASSERT_TRUE(init == ACL_SUCCESS || init == ACL_ERROR_REPEAT_INITIALIZE) << init;
    initialised_ = init == ACL_SUCCESS;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    aclnn_cpu::conv_bwd::set_plan_step_counting(true);
  }
  void TearDown() override {
    aclnn_cpu::conv_bwd::set_plan_step_counting(false);
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    if (initialised_) {
      EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
    aclnn_cpu::set_product(saved_.product);
  }

  // GetWorkspaceSize alone (counted), then the launch its executor is for.
  PlanCost plan_cost(const ConvCase &c) {
    CaseTensors tensors(c);
    PlanCost cost;
    aclOpExecutor *executor = nullptr;
    int status;
    {
      ApiCall call(c, tensors);
      const int64_t before = aclnn_cpu::conv_bwd::plan_steps();
      status = call.get_workspace_size(&cost.workspace, &executor);
      cost.steps = aclnn_cpu::conv_bwd::plan_steps() - before;
    }
    EXPECT_EQ(status, ACLNN_SUCCESS) << case_text(c) << ": " << recent_api_error();
    if (status != ACLNN_SUCCESS) return cost;
    void *workspace = nullptr;
    if (cost.workspace > 0) {
      EXPECT_EQ(aclrtMalloc(&workspace, cost.workspace, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    EXPECT_EQ(aclnnConvolutionBackward(workspace, cost.workspace, executor, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    if (workspace != nullptr) aclrtFree(workspace);
    return cost;
  }

  aclnn_cpu::Settings saved_;
  bool initialised_ = false;
  aclrtStream stream_ = nullptr;
};

TEST_F(ConformanceExtremeAttributes, GradientsAgreeWithTheReference) {
  for (const Twins &t : kTwins) {
    for (const char *mask : {"_mask111", "_mask100", "_mask010", "_mask001", "_mask110", "_mask011"}) {
      for (const char *dtype : {"_dtf32", "_dtbf16"}) {
        const std::string text = std::string(t.extreme) + dtype + mask;
        EXPECT_TRUE(check_case(parse_case(text, Data::kRandom, 31), Path::kApi, stream_)) << t.what << ": " << text;
      }
    }
    EXPECT_TRUE(check_case(parse_case(std::string(t.extreme) + "_dtf32", Data::kIntegers, 32), Path::kApi, stream_))
        << t.what;
  }
}

// The twins have the same tensors. The extreme call's reduced problem may take other algorithms than any twin (one
// output position at stride 1 here, stride 2 there), whose planning differs by some table entries and chunk choices
// and whose scratch differs by the GEMMs' fixed panels: it must plan in steps and a workspace of the same order as
// the most any twin takes (three times and 16 steps, twice and 64 KiB). PlanTheSameWhateverTheValue checks exactly
// that nothing grows with the values.
TEST_F(ConformanceExtremeAttributes, PlanAsCheaplyAsTheirOrdinaryTwins) {
  for (const Twins &t : kTwins) {
    const ConvCase extreme = parse_case(t.extreme);
    const PlanCost e = plan_cost(extreme);
    PlanCost most;
    for (const char *text : t.ordinary) {
      const ConvCase ordinary = parse_case(text);
      CaseTensors a(extreme), b(ordinary);
      for (int s = 0; s < kSlots; ++s) ASSERT_EQ(a.t[s].shape(), b.t[s].shape()) << t.what << ": " << text;
      const PlanCost o = plan_cost(ordinary);
      most.steps = std::max(most.steps, o.steps);
      most.workspace = std::max(most.workspace, o.workspace);
    }
    EXPECT_LE(e.steps, 3 * most.steps + 16) << t.what << ": " << t.extreme;
    EXPECT_LE(e.workspace, 2 * most.workspace + 65536) << t.what << ": " << t.extreme;
    std::printf("[ extreme  ] %-44s steps %3lld (twins at most %3lld), workspace %7llu (%7llu) bytes\n", t.what,
                static_cast<long long>(e.steps), static_cast<long long>(most.steps),
                static_cast<unsigned long long>(e.workspace), static_cast<unsigned long long>(most.workspace));
  }
}

// Planning does not grow with the attribute values at all: calls that differ only in the size of a large stride,
// dilation or pad plan with the same steps into the same workspace, up to INT64_MAX.
TEST_F(ConformanceExtremeAttributes, PlanTheSameWhateverTheValue) {
  for (const Scaled &f : kScaled) {
    std::vector<std::string> calls;
    for (int64_t v : f.values) calls.push_back(scaled(f.pattern, v));
    const PlanCost first = plan_cost(parse_case(calls[0]));
    for (const std::string &call : calls) {
      const PlanCost c = plan_cost(parse_case(call));
      EXPECT_EQ(c.steps, first.steps) << call << " vs " << calls[0];
      EXPECT_EQ(c.workspace, first.workspace) << call << " vs " << calls[0];
    }
  }
}

// The one valid call planning refuses: sizes that multiply beyond 2^59 along one dim (the operands views of one element
// each, by zero strides), with a stride and a dilation that pair each position with one tap (o + k constant) — the
// reduced relation would index 2^61 elements. GetWorkspaceSize says so with 161002 and creates no executor.
TEST_F(ConformanceExtremeAttributes, AReachBeyondTwoToTheSixtyIsRefused) {
  const int64_t k = int64_t{1} << 20, x = k + 1, s = int64_t{1} << 41, pad = (k - 1) * s - k;
  const int64_t y = k - 1;  // (x + 2·pad − (s − 1)(k − 1) − 1) / s + 1
  float one[1] = {1.0f};
  std::vector<float> grad_weight(static_cast<size_t>(k));
  const int64_t zero[3] = {0, 0, 0}, storage = 1, gw_strides[3] = {k, k, 1};
  const int64_t go_shape[3] = {1, 1, y}, in_shape[3] = {1, 1, x}, w_shape[3] = {1, 1, k};
  aclTensor *go = aclCreateTensor(go_shape, 3, ACL_FLOAT, zero, 0, ACL_FORMAT_NCL, &storage, 1, one);
  aclTensor *in = aclCreateTensor(in_shape, 3, ACL_FLOAT, zero, 0, ACL_FORMAT_NCL, &storage, 1, one);
  aclTensor *w = aclCreateTensor(w_shape, 3, ACL_FLOAT, zero, 0, ACL_FORMAT_NCL, &storage, 1, one);
  aclTensor *gw = aclCreateTensor(w_shape, 3, ACL_FLOAT, gw_strides, 0, ACL_FORMAT_NCL, &k, 1, grad_weight.data());
  const int64_t stride = s, padding = pad, dilation = s - 1, output_padding = 0;
  aclIntArray *st = aclCreateIntArray(&stride, 1), *pa = aclCreateIntArray(&padding, 1),
              *di = aclCreateIntArray(&dilation, 1), *op = aclCreateIntArray(&output_padding, 1);
  const bool mask[3] = {false, true, false};
  aclBoolArray *m = aclCreateBoolArray(mask, 3);
  uint64_t bytes = 0;
  aclOpExecutor *executor = nullptr;
  EXPECT_EQ(aclnnConvolutionBackwardGetWorkspaceSize(go, in, w, nullptr, st, pa, di, false, op, 1, m, 0, nullptr, gw,
                                                     nullptr, &bytes, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(executor, nullptr);
  const std::string message = recent_api_error();
  EXPECT_NE(message.find("along L"), std::string::npos) << message;
  EXPECT_NE(message.find("2^60"), std::string::npos) << message;
  for (aclTensor *t : {go, in, w, gw}) aclDestroyTensor(t);
  for (aclIntArray *a : {st, pa, di, op}) aclDestroyIntArray(a);
  aclDestroyBoolArray(m);
}

}  // namespace
}  // namespace conformance
