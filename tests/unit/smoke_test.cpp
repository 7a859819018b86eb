#include <gtest/gtest.h>

#include "core/config.hpp"
#include "core/isa.hpp"

TEST(Config, ParsesEveryProductName) {
  aclnn_cpu::Product p;
  for (const char *name : {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"}) {
    ASSERT_TRUE(aclnn_cpu::parse_product(name, &p)) << name;
    EXPECT_STREQ(aclnn_cpu::product_name(p), name);
  }
  EXPECT_FALSE(aclnn_cpu::parse_product("Ascend310B", &p));
}

// ACLNN_CPU_MAX_ISA's names, and its rule: a cap at or below the CPU's level is the plan's, one above it on the same
// architecture's chain gives the CPU's best, one of the other architecture gives scalar (none of its kernels exist).
TEST(Config, IsaCapsFollowTheirArchitecturesChain) {
  using aclnn_cpu::Isa;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kAvx512Bf16, Isa::kNeon}) {
    Isa parsed;
    ASSERT_TRUE(aclnn_cpu::parse_isa(aclnn_cpu::isa_name(isa), &parsed)) << aclnn_cpu::isa_name(isa);
    EXPECT_EQ(parsed, isa);
  }
  Isa parsed;
  EXPECT_FALSE(aclnn_cpu::parse_isa("asimd", &parsed));
  EXPECT_FALSE(aclnn_cpu::parse_isa("avx512f", &parsed));
  using aclnn_cpu::capped_isa;
  EXPECT_EQ(capped_isa(Isa::kAvx512Bf16, Isa::kAvx2), Isa::kAvx2);
  EXPECT_EQ(capped_isa(Isa::kAvx2, Isa::kAvx512Bf16), Isa::kAvx2);
  EXPECT_EQ(capped_isa(Isa::kAvx512, Isa::kScalar), Isa::kScalar);
  EXPECT_EQ(capped_isa(Isa::kScalar, Isa::kAvx512), Isa::kScalar);
  EXPECT_EQ(capped_isa(Isa::kAvx512, Isa::kNeon), Isa::kScalar);
  EXPECT_EQ(capped_isa(Isa::kNeon, Isa::kNeon), Isa::kNeon);
  EXPECT_EQ(capped_isa(Isa::kNeon, Isa::kAvx2), Isa::kScalar);
  EXPECT_EQ(capped_isa(Isa::kNeon, Isa::kScalar), Isa::kScalar);
  EXPECT_EQ(capped_isa(Isa::kScalar, Isa::kNeon), Isa::kScalar);
  EXPECT_TRUE(aclnn_cpu::isa_includes(Isa::kAvx512Bf16, Isa::kAvx2));
  EXPECT_FALSE(aclnn_cpu::isa_includes(Isa::kAvx2, Isa::kAvx512));
  EXPECT_FALSE(aclnn_cpu::isa_includes(Isa::kNeon, Isa::kAvx2));
  EXPECT_FALSE(aclnn_cpu::isa_includes(Isa::kAvx512Bf16, Isa::kNeon));
  EXPECT_TRUE(aclnn_cpu::isa_includes(Isa::kNeon, Isa::kScalar));
  // The default cap is the best level of the build's architecture: what the CPU has.
  EXPECT_EQ(capped_isa(aclnn_cpu::cpu_isa(), aclnn_cpu::kBestIsa), aclnn_cpu::cpu_isa());
}
