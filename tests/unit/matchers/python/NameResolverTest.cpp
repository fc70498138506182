//===--- NameResolverTest.cpp - Imports to qualified names ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/NameResolver.h"

#include "tests/support/Annotations.h"

#include <gtest/gtest.h>

namespace devport::python {
namespace {

/// Parses Code and returns where a new import would go.
uint32_t insertionPoint(llvm::StringRef Code) {
  Parser P;
  TreePtr T = P.parse(Code);
  NameResolver R(ts_tree_root_node(T.get()), Code);
  return R.importInsertionOffset();
}

TEST(NameResolver, ImportInsertionPoint) {
  for (const char *Case : {
           "^import os\n",
           "\"\"\"Docstring.\"\"\"\n^import os\n",
           "#!/usr/bin/env python\n# comment\n^import os\n",
           "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n^x = 1\n",
           "# c\r\n^x = 1\r\n",
           // The docstring after a shebang or licence header is still the docstring.
           "#!/usr/bin/env python\n# Copyright\n\"\"\"Doc.\"\"\"\n^import os\n",
           "# -*- coding: utf-8 -*-\n'Doc.'\nfrom __future__ import annotations\n^import os\n",
           // A second string statement is code, not a docstring.
           "\"\"\"Doc.\"\"\"\n^\"not a docstring\"\n",
           "\xEF\xBB\xBF^import os\n",
           "^x = 1\n\"\"\"not a docstring\"\"\"\n",
       }) {
    test::Annotations A(Case);
    EXPECT_EQ(A.point(), insertionPoint(A.code())) << Case;
  }
}

TEST(NameResolver, BindingsPerScope) {
  test::Annotations A(R"py(
import torch.cuda as tc
from torch import cuda as c, xpu
def f():
    from torch.cuda import synchronize as s
    $use^s()
$top^tc.x
)py");
  Parser P;
  TreePtr T = P.parse(A.code());
  TSNode Root = ts_tree_root_node(T.get());
  NameResolver R(Root, A.code());
  std::vector<Scope> Module{{Root.id, false}};
  ASSERT_TRUE(R.lookup("tc", Module));
  EXPECT_EQ("torch.cuda", R.lookup("tc", Module)->Target);
  EXPECT_EQ("torch.cuda", R.lookup("c", Module)->Target);
  EXPECT_EQ("torch.xpu", R.lookup("xpu", Module)->Target);
  EXPECT_EQ(nullptr, R.lookup("s", Module));
  EXPECT_EQ(nullptr, R.lookup("torch", Module));
  EXPECT_EQ(4u, R.size());

  TSNode Top = ts_node_named_descendant_for_byte_range(Root, A.point("top"), A.point("top") + 2);
  auto Q = R.qualifiedName(ts_node_parent(Top), Module);
  ASSERT_TRUE(Q.has_value());
  EXPECT_EQ("torch.cuda.x", *Q);
}

TEST(NameResolver, AModuleNameWithASyntaxErrorNamesNoModule) {
  std::string Code = "from  torch.=testing import onlyCUDA\nimport torch.=cuda as tc\n"
                     "from torch.cuda import synchronize\n";
  Parser P;
  TreePtr T = P.parse(Code);
  TSNode Root = ts_tree_root_node(T.get());
  NameResolver R(Root, Code);
  std::vector<Scope> Module{{Root.id, false}};
  const Binding *Only = R.lookup("onlyCUDA", Module), *Tc = R.lookup("tc", Module);
  EXPECT_TRUE(!Only || Only->Target != "torch.testing.onlyCUDA");
  EXPECT_TRUE(!Tc || Tc->Target != "torch.cuda");
  ASSERT_TRUE(R.lookup("synchronize", Module));
  EXPECT_EQ("torch.cuda.synchronize", R.lookup("synchronize", Module)->Target);
}

} // namespace
} // namespace devport::python
