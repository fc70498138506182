//===--- Statistics.cpp - Findings counted per rule -----------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Statistics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

namespace devport {

RuleStatistics &Statistics::row(const std::string &Id) {
  auto [It, New] = ByRule.try_emplace(Id);
  if (New) {
    It->second.Rule = Id;
    if (const Rule *R = Rules ? Rules->find(Id) : nullptr)
      It->second.Category = R->Category;
  }
  return It->second;
}

void Statistics::add(const FileReport &R) {
  for (const Diagnostic &D : R.Findings) {
    RuleStatistics &S = row(D.RuleId);
    ++S.Findings;
    Applicability A = D.Fixes.empty() ? Applicability::DisplayOnly : D.Fixes.front().App;
    if (A == Applicability::Safe)
      ++S.Safe;
    else if (A == Applicability::Unsafe)
      ++S.Unsafe;
    else
      ++S.ReportOnly;
  }
  for (const Diagnostic &K : R.Kept) {
    ++row(K.RuleId).Kept;
    for (const KeptFinding &F : K.Keeps)
      ++row(F.RuleId).Kept;
  }
}

std::vector<RuleStatistics> Statistics::rows() const {
  std::vector<RuleStatistics> Rows;
  for (const auto &[Id, S] : ByRule)
    Rows.push_back(S);
  std::stable_sort(Rows.begin(), Rows.end(), [](const RuleStatistics &A, const RuleStatistics &B) {
    if (A.Findings != B.Findings)
      return A.Findings > B.Findings;
    return A.Kept > B.Kept; // ties keep the id order of the map
  });
  return Rows;
}

void Statistics::renderText(llvm::raw_ostream &OS) const {
  std::vector<RuleStatistics> Rows = rows();
  RuleStatistics Total;
  Total.Rule = "total";
  size_t RuleW = Total.Rule.size(), CatW = std::string("category").size();
  for (const RuleStatistics &S : Rows) {
    RuleW = std::max(RuleW, S.Rule.size());
    CatW = std::max(CatW, S.Category.size());
    Total.Findings += S.Findings;
    Total.Safe += S.Safe;
    Total.Unsafe += S.Unsafe;
    Total.ReportOnly += S.ReportOnly;
    Total.Kept += S.Kept;
  }
  auto Line = [&](llvm::StringRef Rule, llvm::StringRef Cat, llvm::StringRef Findings,
                  llvm::StringRef Safe, llvm::StringRef Unsafe, llvm::StringRef ReportOnly,
                  llvm::StringRef Kept) {
    std::string L;
    llvm::raw_string_ostream S(L);
    S << llvm::left_justify(Rule, RuleW) << "  " << llvm::left_justify(Cat, CatW) << "  "
      << llvm::right_justify(Findings, 8) << "  " << llvm::right_justify(Safe, 4) << "  "
      << llvm::right_justify(Unsafe, 6) << "  " << llvm::right_justify(ReportOnly, 11) << "  "
      << llvm::right_justify(Kept, 4);
    S.flush();
    OS << llvm::StringRef(L).rtrim() << "\n";
  };
  auto Num = [](size_t N) { return std::to_string(N); };
  auto Row = [&](const RuleStatistics &S) {
    Line(S.Rule, S.Category, Num(S.Findings), Num(S.Safe), Num(S.Unsafe), Num(S.ReportOnly),
         Num(S.Kept));
  };
  Line("rule", "category", "findings", "safe", "unsafe", "report-only", "kept");
  for (const RuleStatistics &S : Rows)
    Row(S);
  Row(Total);
}

llvm::json::Array Statistics::toJSON() const {
  llvm::json::Array A;
  for (const RuleStatistics &S : rows())
    A.push_back(llvm::json::Object{{"rule", S.Rule},
                                   {"category", S.Category},
                                   {"findings", static_cast<int64_t>(S.Findings)},
                                   {"fixable_safe", static_cast<int64_t>(S.Safe)},
                                   {"fixable_unsafe", static_cast<int64_t>(S.Unsafe)},
                                   {"report_only", static_cast<int64_t>(S.ReportOnly)},
                                   {"kept", static_cast<int64_t>(S.Kept)}});
  return A;
}

} // namespace devport
