#include <gtest/gtest.h>

#include "core/config.hpp"

TEST(Config, ParsesEveryProductName) {
  aclnn_cpu::Product p;
  for (const char *name : {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"}) {
    ASSERT_TRUE(aclnn_cpu::parse_product(name, &p)) << name;
    EXPECT_STREQ(aclnn_cpu::product_name(p), name);
  }
  EXPECT_FALSE(aclnn_cpu::parse_product("Ascend310B", &p));
}
