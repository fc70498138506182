//===--- BackendTableTest.cpp - Which backend module has which function ---===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/BackendTable.h"

#include "tests/support/Expected.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

TEST(BackendTable, ParsesAndTellsWhatIsLacking) {
  ASSERT_THAT_EXPECTED_VALUE(T, BackendTable::parse("backends.yaml",
                                                    "release: \"2.6\"\n"
                                                    "modules: [cuda, xpu, mps, cpu]\n"
                                                    "names:\n"
                                                    "  synchronize: [cuda, xpu, mps, cpu]\n"
                                                    "  memory_stats: [cuda, xpu]\n"
                                                    "  ipc_collect: [cuda]\n"));
  EXPECT_EQ("2.6", T.Release);
  EXPECT_TRUE(T.lacking("synchronize").empty());
  EXPECT_EQ((std::vector<std::string>{"mps", "cpu"}), T.lacking("memory_stats"));
  EXPECT_EQ((std::vector<std::string>{"xpu", "mps", "cpu"}), T.lacking("ipc_collect"));
  EXPECT_TRUE(T.lacking("not_in_the_table").empty());
}

TEST(BackendTable, ErrorsHaveTheirPlace) {
  auto T = BackendTable::parse("b.yaml", "release: \"2.6\"\nmodules: [cuda]\nnames:\n"
                                         "  synchronize: [cuda, mps]\n");
  ASSERT_FALSE(static_cast<bool>(T));
  std::string Msg = llvm::toString(T.takeError());
  EXPECT_NE(std::string::npos, Msg.find("b.yaml:4:")) << Msg;
  EXPECT_NE(std::string::npos, Msg.find("module 'mps' is not in 'modules'")) << Msg;
  auto U = BackendTable::parse("b.yaml", "modules: [cuda]\nnames: []\n");
  ASSERT_FALSE(static_cast<bool>(U));
  Msg = llvm::toString(U.takeError());
  EXPECT_NE(std::string::npos, Msg.find("expected a mapping for 'names'")) << Msg;
  EXPECT_NE(std::string::npos, Msg.find("missing 'release'")) << Msg;
}

TEST(BackendTable, NamesATemplateReaches) {
  auto None = [](llvm::StringRef) -> std::optional<std::string> { return std::nullopt; };
  EXPECT_EQ(std::vector<std::string>{"memory_stats"},
            deviceModuleNames("torch.get_device_module().memory_stats($DEV)", None));
  EXPECT_EQ(std::vector<std::string>{"empty_cache"},
            deviceModuleNames("torch.get_device_module(torch.device(\"cuda\", 0)).empty_cache()",
                              None));
  EXPECT_TRUE(deviceModuleNames("torch.get_device_module($D)", None).empty());
  EXPECT_TRUE(deviceModuleNames("torch.accelerator.synchronize()", None).empty());
  EXPECT_TRUE(deviceModuleNames("torch.get_device_module().$FN($$$A)", None).empty());
  auto Fn = [](llvm::StringRef N) -> std::optional<std::string> {
    if (N == "FN")
      return std::string("manual_seed");
    return std::nullopt;
  };
  EXPECT_EQ(std::vector<std::string>{"manual_seed"},
            deviceModuleNames("torch.get_device_module().$FN($$$A)", Fn));
}

} // namespace
} // namespace devport
