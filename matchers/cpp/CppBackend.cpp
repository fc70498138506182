//===--- CppBackend.cpp - The C++ language backend ------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/cpp/CppBackend.h"

#include "core/NameWords.h"
#include "core/Workspace.h"
#include "matchers/cpp/CppMatcher.h"
#include "matchers/cpp/Review.h"
#include "matchers/cpp/Semantic.h"
#include "rewriters/Template.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace devport::cpp {

namespace {

const char *const Extensions[] = {".cpp", ".cc",  ".cxx", ".c++", ".cu", ".cuh", ".h",
                                  ".hh",  ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp"};

/// Whether an expression's text needs parentheses before `.f` or `->f`:
/// it starts with a prefix operator (`*p`, `&x`, `!b`) or holds a space
/// outside brackets (`a + b`, `c ? x : y`); `a.b(c)`, `p->q[1]`,
/// `static_cast<T>(x)` and `(*p)` do not.
bool needsParensBeforeMember(llvm::StringRef E) {
  E = E.trim();
  if (E.empty())
    return false;
  if (llvm::StringRef("*&!~-+").contains(E.front()))
    return true;
  int Depth = 0;
  for (char C : E) {
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
    else if (Depth == 0 && (C == ' ' || C == '\t' || C == '\n' || C == '?'))
      return true;
  }
  return false;
}

} // namespace

bool CppBackend::handlesPath(llvm::StringRef Path) const {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::any_of(Extensions, [&](const char *E) { return Ext.equals_insensitive(E); });
}

bool isCudaRoleName(llvm::StringRef Name) {
  // cuda.cpp, cuda_stream_test.cpp, register_cuda_ops.cpp, conv_cudnn.cpp,
  // cudaAwareMpiCheck, CUDAHooks.cpp, ProcessGroupNCCL.cpp: CUDA in the name
  // as a word (`_`-separated, or a lower-case run that a capital ends).
  static constexpr llvm::StringLiteral Words[] = {"cuda",   "cudnn",    "hip",  "nccl",
                                                  "cublas", "cusparse", "cufft"};
  return hasNameWord(Name, Words) || Name.contains("CUDA") || Name.contains("Cuda") ||
         Name.contains("NCCL") || Name.contains("Cudnn") || Name.contains("CuDNN");
}

bool hasCudaTwin(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext == ".cu" || Ext == ".cuh")
    return false;
  llvm::SmallString<256> Twin(Path.drop_back(Ext.size()));
  size_t Base = Twin.size();
  for (const char *E : {".cu", ".cuh"}) {
    Twin.resize(Base);
    Twin.append(E);
    if (llvm::sys::fs::is_regular_file(Twin))
      return true;
  }
  return false;
}

bool includesCudaOnlyHeaders(const LexedFile &L) {
  const std::vector<Conditional> &Cs = L.conditionals();
  const std::vector<Token> &T = L.tokens();
  // An include guard (`#ifndef X_H` then `#define X_H`, as the first
  // directives) wraps everything and conditions nothing.
  size_t First = 0;
  if (!Cs.empty()) {
    size_t H = Cs.front().Hash;
    size_t D = H + 3;
    bool Guard = D + 2 < T.size() && L.spelling(H + 1) == "ifndef" && T[D].Punct == '#' &&
                 L.spelling(D + 1) == "define" && L.spelling(D + 2) == L.spelling(H + 2);
    First = Guard ? 1 : 0;
  }
  for (ByteRange I : L.includes()) {
    llvm::StringRef Line = L.text().slice(I.Begin, I.End);
    size_t Open = Line.find_first_of("<\"");
    if (Open == llvm::StringRef::npos)
      continue;
    llvm::StringRef Header = Line.drop_front(Open + 1);
    if (!Header.startswith("c10/cuda/") && !Header.startswith("ATen/cuda/"))
      continue;
    bool Conditioned = false;
    for (size_t K = First; K < Cs.size() && !Conditioned; ++K)
      Conditioned = Cs[K].Branch.Begin < I.Begin && I.Begin < Cs[K].Branch.End;
    if (!Conditioned)
      return true;
  }
  return false;
}

bool isCudaRolePath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext == ".cu" || Ext == ".cuh")
    return true;
  if (isCudaRoleName(llvm::sys::path::stem(Path)))
    return true;
  for (auto It = llvm::sys::path::begin(llvm::sys::path::parent_path(Path)),
            End = llvm::sys::path::end(llvm::sys::path::parent_path(Path));
       It != End; ++It)
    if (*It == "cuda" || *It == "hip" || *It == "cudnn" || *It == "miopen")
      return true;
  return false;
}

namespace {

/// The compiled C++ rules: token patterns for every rule, and the matchers
/// of the rules that have one for files with a compile command.
class CppCompiled final : public CompiledRules {
public:
  std::unique_ptr<CppMatcher> Lexical;
  std::unique_ptr<SemanticMatchers> Semantic; ///< Null when off or no rule has a matcher.
  std::shared_ptr<const CompileCommands> Commands;
  std::vector<const Rule *> LexicalOnly;      ///< Rules the lexical engine runs even then.
  BackendOptions Opts;

  // Without the semantic engine, the lexical one's stronger prefilter.
  bool mayMatch(llvm::StringRef Text) const override { return Lexical->mayMatch(Text, !Semantic); }
  bool prefilterFile(llvm::StringRef Path, llvm::StringRef Text,
                     std::optional<bool> &MentionsDevport) const override {
    // A file of the CUDA role is listed as kept (`--show-kept`), whatever
    // its text holds.
    if (Lexical->hasRoles() && !Path.empty() && isCudaRole(Path))
      return true;
    return Lexical->mayMatch(Text, !Semantic, &MentionsDevport);
  }

  /// The lexical engine's regions: the file less the statements where no
  /// pattern can match (CppMatcher::gaps); none for a file that the
  /// semantic engine reads (it asks for the lexical context of any offset).
  std::optional<RegionText> regionText(llvm::StringRef Path, llvm::StringRef Text) const override {
    if (Semantic && (Path.empty() || Commands->commandFor(Path)))
      return std::nullopt;
    RegionText R;
    std::vector<ByteRange> Gaps = Lexical->gaps(Text, R.Marks.Comments);
    if (Gaps.empty())
      return std::nullopt;
    uint32_t From = 0;
    for (ByteRange G : Gaps) {
      R.Ranges.push_back({From, G.Begin});
      From = G.End;
    }
    R.Ranges.push_back({From, static_cast<uint32_t>(Text.size())});
    return R;
  }

  MatchResults match(const ParsedFile &P) const override {
    const auto &C = static_cast<const CppParsedFile &>(P);
    const LexedFile &L = C.lexed();
    MatchResults Out;
    for (ByteRange R : L.comments()) {
      Out.Comments.push_back(R);
      llvm::StringRef T = L.text().slice(R.Begin, R.End);
      if (T.contains("devport:"))
        Out.Directives.push_back({R, T});
    }
    std::vector<std::string> Roles;
    if (!C.path().empty() && isCudaRole(C.path()))
      Roles.push_back("cuda");
    // The semantic engine, where the file has a compile command and compiles.
    std::optional<SemanticResult> S;
    if (Semantic && !C.path().empty() && Roles.empty())
      if (auto Cmd = Commands->commandFor(C.path())) {
        S = runSemantic(*Semantic, *Cmd, C.path(), L.text());
        if (!S->Compiled) {
          Out.Notes.push_back(Note::plain(
              "the lexical engine found it: the file did not compile with its compile command (" +
              S->Error + ")"));
          S.reset();
        }
      }
    // The lexical engine: every rule; in the same pass, the lexical context
    // of each semantic match. Where the semantic engine ran, it keeps of
    // the rules with a matcher only what Clang's AST does not have: the
    // `#define` bodies and the branches the compile skipped (`#ifdef
    // _WIN32`, `#ifdef USE_CUDA`).
    std::vector<uint32_t> SemanticAt;
    std::vector<std::shared_ptr<CppContext>> Contexts;
    if (S)
      for (const SemanticMatch &SM : S->Matches)
        if (!SM.InDefinition)
          SemanticAt.push_back(SM.Range.Begin);
    Out.Matches = Lexical->match(L, Roles, nullptr, SemanticAt, S ? &Contexts : nullptr);
    // The host half of a CUDA kernel file (intra_node_comm.cpp beside
    // intra_node_comm.cu), and a file that includes c10/cuda or ATen/cuda
    // headers unconditionally, are CUDA by design too; asked only of a file
    // with a finding, since the first costs a look at the directory.
    if (Roles.empty() && Lexical->hasRoles() && !C.path().empty() &&
        llvm::any_of(Out.Matches, [](const Match &M) { return M.R->Kind == RuleKind::Finding; }) &&
        (includesCudaOnlyHeaders(L) || hasCudaTwin(C.path()))) {
      Roles.push_back("cuda");
      S.reset();
      Out.Notes.clear();
      Out.Matches = Lexical->match(L, Roles);
    }
    if (S)
      llvm::erase_if(Out.Matches, [&](const Match &M) {
        return !llvm::is_contained(LexicalOnly, M.R) &&
               !(M.Context && static_cast<const CppContext &>(*M.Context).InDirective) &&
               llvm::none_of(S->Skipped, [&](ByteRange R) { return R.contains(M.Range); });
      });
    for (Match &M : Out.Matches)
      M.Engine = "lexical";
    if (S)
      addSemantic(*S, Contexts, Out.Matches);
    dropShadowed(Out.Matches);
    return Out;
  }

private:
  /// A finding inside another rule's finding is shadowed by it: the more
  /// specific pattern (`d == kCUDA` over `kCUDA`, a precondition over
  /// `is_cuda()`) says what it is.
  static void dropShadowed(std::vector<Match> &Ms) {
    std::vector<bool> Drop(Ms.size(), false);
    for (size_t I = 0; I < Ms.size(); ++I) {
      if (Ms[I].R->Kind != RuleKind::Finding)
        continue;
      for (size_t J = 0; J < Ms.size() && !Drop[I]; ++J)
        if (J != I && Ms[J].R->Kind == RuleKind::Finding && Ms[J].R != Ms[I].R &&
            Ms[J].Range.contains(Ms[I].Range) && Ms[J].Range != Ms[I].Range)
          Drop[I] = true;
    }
    size_t K = 0;
    for (size_t I = 0; I < Ms.size(); ++I)
      if (!Drop[I]) {
        if (K != I) // never a self-move: it would empty the bindings
          Ms[K] = std::move(Ms[I]);
        ++K;
      }
    Ms.resize(K);
  }

  bool isCudaRole(llvm::StringRef Path) const {
    return isCudaRolePath(Path) || Opts.inCudaRoleGlobs(Path);
  }

  /// Adds S's matches to Out, each with the lexical context at its start.
  static void addSemantic(const SemanticResult &S,
                          llvm::ArrayRef<std::shared_ptr<CppContext>> Contexts,
                          std::vector<Match> &Out) {
    size_t Next = 0; // the next of Contexts
    for (const SemanticMatch &SM : S.Matches) {
      if (SM.InDefinition)
        continue; // the lexical engine has it, in the `#define`
      Match M;
      M.R = SM.R;
      M.Range = SM.Range;
      M.Bindings = SM.Bindings;
      M.Engine = "semantic";
      std::shared_ptr<CppContext> Ctx = Contexts[Next++];
      Ctx->InMacro = SM.InMacro;
      M.Context = std::move(Ctx);
      Out.push_back(std::move(M));
    }
    std::stable_sort(Out.begin(), Out.end(), [](const Match &A, const Match &B) {
      return A.Range.Begin < B.Range.Begin;
    });
  }
};

/// Whether the template calls the accelerator API of ATen/DeviceAccelerator.h.
bool needsAcceleratorHeader(llvm::StringRef T) {
  return T.contains("getAccelerator") || T.contains("isAccelerator") ||
         T.contains("at::accelerator::");
}

} // namespace

llvm::Expected<std::unique_ptr<CompiledRules>>
CppBackend::compile(const RuleSet &Rules, const BackendOptions &Opts) const {
  std::vector<const Rule *> Mine;
  std::string Errors;
  auto AddError = [&](const std::string &E) { Errors += (Errors.empty() ? "" : "\n") + E; };
  for (const auto &R : Rules.rules()) {
    if (R->Language != "cpp")
      continue;
    Mine.push_back(R.get());
    for (const RuleFix &F : R->Fixes)
      for (const std::string &V : metavariablesIn(F.Template))
        if (isReservedMetavariable(V))
          AddError(F.Loc.str() + ": $" + V +
                   " is a Python expression; C++ templates cannot use it");
  }
  auto C = std::make_unique<CppCompiled>();
  C->Opts = Opts;
  auto L = CppMatcher::compile(Mine);
  if (!L)
    AddError(llvm::toString(L.takeError()));
  else
    C->Lexical = std::move(*L);
  std::vector<const Rule *> WithMatcher;
  for (const Rule *R : Mine) {
    if (R->Matcher.Text.empty() || R->Kind == RuleKind::Keep)
      C->LexicalOnly.push_back(R);
    else
      WithMatcher.push_back(R);
  }
  // A matcher that Clang cannot parse is an error even when semantic mode is
  // off: the rule file is broken.
  if (!WithMatcher.empty()) {
    auto S = SemanticMatchers::compile(WithMatcher);
    if (!S)
      AddError(llvm::toString(S.takeError()));
    else if (Opts.Semantic)
      C->Semantic = std::move(*S);
  }
  if (C->Semantic) {
    if (!Opts.CompileCommandsDir.empty()) {
      auto D = CompileCommands::fromDirectory(Opts.CompileCommandsDir);
      if (!D)
        AddError(llvm::toString(D.takeError()));
      else
        C->Commands = *D;
    } else {
      C->Commands = CompileCommands::discover();
    }
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Errors.c_str());
  return std::move(C);
}

std::unique_ptr<ParsedFile> CppBackend::parse(llvm::StringRef Text, const ParsedFile *,
                                              llvm::ArrayRef<Edit>) const {
  return std::make_unique<CppParsedFile>("", Text);
}

std::unique_ptr<ParsedFile> CppBackend::parseFile(llvm::StringRef Path, llvm::StringRef Text,
                                                  const ParsedFile *, llvm::ArrayRef<Edit>) const {
  return std::make_unique<CppParsedFile>(Path.str(), Text);
}

std::unique_ptr<ParsedFile> CppBackend::parseRegions(llvm::StringRef Path, llvm::StringRef Text,
                                                     const RegionText &R) const {
  assert(R.Text.empty() && "C++ regions are ranges of the file's own text");
  std::vector<ByteRange> Gaps;
  for (size_t K = 0; K + 1 < R.Ranges.size(); ++K)
    Gaps.push_back({R.Ranges[K].End, R.Ranges[K + 1].Begin});
  return std::make_unique<CppParsedFile>(Path.str(), Text, Gaps, R.Marks.Comments);
}

void CppBackend::reviewFixes(const ParsedFile &P, std::vector<Diagnostic> &Findings,
                             std::vector<Diagnostic> &Kept, const BackendOptions &) const {
  reviewFindings(static_cast<const CppParsedFile &>(P).lexed(), Findings, Kept);
}

BuiltFix CppBackend::buildFix(const ParsedFile &P, const MatchResults &Found, const Match &M,
                              const FixRequest &Req) const {
  const auto &C = static_cast<const CppParsedFile &>(P);
  llvm::StringRef Text = C.text();
  BuiltFix Out;
  const RuleFix &RF = *Req.Fix;
  CppContext Default;
  const CppContext &Ctx =
      M.Context ? static_cast<const CppContext &>(*M.Context) : Default;
  llvm::StringRef What = Text.slice(Req.Target.Begin, Req.Target.End);
  if (Ctx.Unresolved) {
    Out.Notes.push_back(Note::plain(
        "no fix: `" + What.str() +
        "` is not qualified and no `using namespace` or enclosing namespace in this file says "
        "which it is"));
    return Out;
  }
  if (Ctx.InMacro) {
    Out.Notes.push_back(Note::plain("no fix: it comes from a macro expansion"));
    return Out;
  }
  if (Ctx.InDefaultArgument) {
    Out.Notes.push_back(
        Note::plain("no fix: a default argument: every call that leaves it out gets CUDA, and the "
                    "function's callers see the new default (a change of its signature)"));
    return Out;
  }
  bool Call = llvm::StringRef(RF.Template).contains('(');
  if (Call && Ctx.InConstant) {
    Out.Notes.push_back(Note::plain("no fix: a constant expression (constexpr, case label, "
                                    "template argument) cannot call a function"));
    return Out;
  }
  // A constant in a table's entry would become a call that runs whenever
  // the table is built and gives that entry the build's accelerator,
  // whichever key it is looked up by (c10's device-string table: "cuda"
  // would parse as XPU on an XPU build). A call replaced by a call runs as
  // before.
  if (Call && Ctx.InTable && !Ctx.InDirective && !What.contains('(')) {
    Out.Notes.push_back(Note::plain(
        "no fix: in a table's entry the call would give that entry the build's accelerator, "
        "whichever key it is looked up by"));
    return Out;
  }
  // In a macro's definition a constant may be a constant expression at some
  // use (`KERNEL(c10::DeviceType::CUDA, ...)` gives a template argument).
  if (Call && Ctx.InDirective && !What.contains('(')) {
    Out.Notes.push_back(Note::plain(
        "no fix: in a macro's definition; where the macro is used the value may have to be a "
        "constant (a template argument, a case label), which a call is not"));
    return Out;
  }
  if (Call && !Ctx.InFunction && !Ctx.InDirective) {
    Out.Notes.push_back(Note::plain("no fix: at namespace or class scope it would run during "
                                    "static initialization, before a backend may be loaded"));
    return Out;
  }
  // `$X.f()` where the code reached X through a pointer (`p->is_cuda()`)
  // keeps the arrow.
  std::string Template = RF.Template;
  for (const BoundVar &B : M.Bindings) {
    llvm::StringRef After = Text.substr(B.Range.End).ltrim(" \t");
    if (!After.startswith("->"))
      continue;
    std::string Dot = "$" + B.Name + ".", Arrow = "$" + B.Name + "->";
    for (size_t At = Template.find(Dot); At != std::string::npos;
         At = Template.find(Dot, At + Arrow.size()))
      Template.replace(At, Dot.size(), Arrow);
  }
  // `$X.f()` where X bound `*p` (the semantic engine's object of `(*p).f()`,
  // its parentheses left out) or `a + b`: parenthesized, or `.` would bind
  // tighter than the operator.
  std::string Replacement = expandTemplate(Template, [&](llvm::StringRef Name) {
    std::optional<std::string> Bound = M.boundText(Text, Name);
    if (Bound && needsParensBeforeMember(*Bound)) {
      std::string Use = "$" + Name.str();
      for (llvm::StringRef Member : {".", "->"})
        if (Template.find(Use + Member.str()) != std::string::npos)
          return std::optional<std::string>("(" + *Bound + ")");
    }
    return Bound;
  });
  Fix X;
  X.App = RF.App;
  X.Title = RF.Title.empty() ? "replace with `" + Replacement + "`" : RF.Title;
  X.Edits.push_back(Edit::replacement(Req.Target, Replacement));
  for (ByteRange Cm : Found.Comments)
    if (Req.Target.Begin < Cm.End && Cm.Begin < Req.Target.End) {
      if (X.App == Applicability::Safe)
        X.App = Applicability::Unsafe;
      Out.Notes.push_back(Note::plain("the fix would remove a comment: it is unsafe"));
      break;
    }
  if (Ctx.InDirective) {
    if (X.App == Applicability::Safe)
      X.App = Applicability::Unsafe;
    Out.Notes.push_back(Note::plain("in a macro definition: every use of the macro changes"));
  }
  if (needsAcceleratorHeader(Replacement)) {
    const LexedFile &L = C.lexed();
    bool Has = llvm::any_of(L.includes(), [&](ByteRange R) {
      return Text.slice(R.Begin, R.End).contains("ATen/DeviceAccelerator.h");
    });
    if (!Has) {
      // After the last #include that no #if branch holds; else at the top.
      uint32_t At = 0;
      for (ByteRange R : L.includes()) {
        bool InBranch = llvm::any_of(L.conditionals(), [&](const cpp::Conditional &K) {
          return K.Branch.Begin < R.Begin && R.Begin < K.Branch.End;
        });
        if (!InBranch)
          At = R.End;
      }
      std::string Line = "#include <ATen/DeviceAccelerator.h>";
      if (At > 0) {
        if (At < Text.size())
          ++At; // past the newline
        else
          Line = "\n" + Line;
      }
      Line += "\n";
      X.Edits.insert(X.Edits.begin(), Edit::insertion(At, Line, EditRole::AddImport));
    }
  }
  if (!RF.Note.empty())
    Out.Notes.push_back(Note::plain(RF.Note));
  Out.Result = std::move(X);
  return Out;
}

} // namespace devport::cpp
