//===--- BackendTable.cpp - Which backend module has which function -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/BackendTable.h"

#include "core/Metavariable.h"
#include "core/YamlReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace devport {

static const llvm::StringRef TableKeys[] = {"release", "modules", "names"};

/// `names:`, a mapping from each name to the modules that have it (listed
/// after `modules:`).
static void parseNames(YamlReader &Y, llvm::yaml::Node *V, BackendTable &T) {
  auto *Names = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(V); // null: a broken value
  if (!Names) {
    Y.addError(Y.loc(V), "expected a mapping for 'names'");
    return;
  }
  for (llvm::yaml::KeyValueNode &KV : *Names) {
    auto Name = Y.scalar(KV.getKey(), "a name");
    if (!Name)
      continue;
    std::vector<std::string> Have;
    for (auto &[M, L] : Y.scalarList(KV.getValue(), *Name)) {
      if (!llvm::is_contained(T.Modules, M))
        Y.addError(L, "module '" + M + "' is not in 'modules'");
      Have.push_back(M);
    }
    T.Names[*Name] = std::move(Have);
  }
}

llvm::Expected<BackendTable> BackendTable::parse(llvm::StringRef FileName, llvm::StringRef Yaml) {
  YamlReader Y(FileName, Yaml);
  BackendTable T;
  llvm::yaml::MappingNode *Top = Y.topMapping("backend table");
  if (Top) {
    bool HaveNames = false;
    // The parser streams: each value is read inside its key's callback.
    Y.forEachKey(*Top, TableKeys, "the backend table",
                 [&](const std::string &Key, llvm::yaml::Node *V, RuleLoc) {
                   if (Key == "release") {
                     if (auto S = Y.scalar(V, Key))
                       T.Release = *S;
                   } else if (Key == "modules") {
                     for (auto &[M, L] : Y.scalarList(V, Key))
                       T.Modules.push_back(M);
                   } else {
                     HaveNames = true;
                     parseNames(Y, V, T);
                   }
                 });
    if (!HaveNames)
      Y.addError(Y.loc(Top), "missing 'names'");
    if (T.Release.empty())
      Y.addError(Y.loc(Top), "missing 'release'");
    Y.expectSingleDocument("backend table");
  }
  if (!Y.errors().empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Y.errors().c_str());
  return T;
}

std::vector<std::string> BackendTable::lacking(llvm::StringRef Name) const {
  std::vector<std::string> Out;
  auto It = Names.find(Name.str());
  if (It == Names.end())
    return Out;
  for (const std::string &M : Modules)
    if (M != "cuda" && !llvm::is_contained(It->second, M))
      Out.push_back(M);
  return Out;
}

/// Where torch.get_device_module() returns a module, for notes.
static std::string hostOf(llvm::StringRef Module) {
  if (Module == "cpu")
    return "a CPU-only build";
  if (Module == "mps")
    return "a Mac";
  if (Module == "xpu")
    return "an Intel GPU";
  return Module.upper();
}

std::string BackendTable::portabilityNote(llvm::StringRef Name) const {
  std::vector<std::string> Lacking = lacking(Name);
  if (Lacking.empty())
    return "";
  std::string Modules, Hosts;
  for (size_t I = 0; I < Lacking.size(); ++I) {
    const char *Sep = I == 0 ? "" : I + 1 == Lacking.size() ? " and " : ", ";
    Modules += Sep + ("torch." + Lacking[I]);
    Hosts += Sep + hostOf(Lacking[I]);
  }
  bool One = Lacking.size() == 1;
  return "unsafe off CUDA: " + Modules + (One ? " has" : " have") + " no `" + Name.str() +
         "` (PyTorch " + Release + "), and torch.get_device_module() returns " +
         (One ? "it" : "them") + " on " + Hosts;
}

std::vector<std::string>
deviceModuleNames(llvm::StringRef Template,
                  llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Bound) {
  std::vector<std::string> Out;
  static constexpr llvm::StringLiteral Call = "get_device_module(";
  for (size_t At = Template.find(Call); At != llvm::StringRef::npos;
       At = Template.find(Call, At + Call.size())) {
    // Ex) get_device_module($DEV).memory_stats: past the balanced call.
    size_t I = At + Call.size();
    for (unsigned Depth = 1; I < Template.size() && Depth > 0; ++I)
      Depth += Template[I] == '(' ? 1 : Template[I] == ')' ? -1 : 0;
    if (I >= Template.size() || Template[I] != '.')
      continue;
    llvm::StringRef Rest = Template.drop_front(I + 1);
    std::string Name;
    if (Rest.startswith("$")) {
      MetavarToken M = metavariableAt(Rest, 0);
      if (M.Kind != MetavarToken::Metavar)
        continue;
      std::optional<std::string> V = Bound(M.Name);
      if (!V)
        continue;
      Name = *V;
    } else {
      Name = Rest.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; }).str();
    }
    if (!Name.empty() && !llvm::is_contained(Out, Name))
      Out.push_back(Name);
  }
  return Out;
}

std::vector<std::string> BackendTable::portabilityNotes(
    llvm::StringRef Template,
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Bound) const {
  std::vector<std::string> Out;
  for (const std::string &Name : deviceModuleNames(Template, Bound)) {
    std::string Why = portabilityNote(Name);
    if (!Why.empty())
      Out.push_back(std::move(Why));
  }
  return Out;
}

} // namespace devport
