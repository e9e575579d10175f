#include "tools/banca/flags.h"

#include "gtest/gtest.h"

namespace banca::cli {
namespace {

TEST(Flags, ParsesValuesPositionalsAndRejectsUnknown) {
  const char* argv[] = {"banca",       "serve", "--data-dir=/tmp/x",
                        "--grpc-port", "7071",  "extra",
                        "--json"};
  auto flags = Flags::Parse(7, const_cast<char**>(argv), 2,
                            {"data-dir", "grpc-port", "json"});
  ASSERT_TRUE(flags.ok()) << flags.status();
  EXPECT_EQ(flags->Get("data-dir", ""), "/tmp/x");
  EXPECT_EQ(*flags->GetInt("grpc-port", 0), 7071);
  EXPECT_TRUE(flags->GetBool("json"));
  EXPECT_EQ(flags->positional(), std::vector<std::string>{"extra"});
  const char* bad[] = {"banca", "serve", "--datadir=/tmp"};
  EXPECT_FALSE(Flags::Parse(3, const_cast<char**>(bad), 2, {"data-dir"}).ok());
  const char* notint[] = {"banca", "serve", "--grpc-port=abc"};
  auto f = Flags::Parse(3, const_cast<char**>(notint), 2, {"grpc-port"});
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->GetInt("grpc-port", 0).ok());
}

}  // namespace
}  // namespace banca::cli
