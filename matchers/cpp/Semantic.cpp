//===--- Semantic.cpp - The C++ semantic backend (Clang LibTooling) -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Clang's side of Semantic.h: the dynamic matcher parser, compilation
/// databases (read, inferred for headers, discovered upward) and one
/// -fsyntax-only front-end run per file with every matcher in one
/// MatchFinder pass. The only TU of devport that includes Clang's AST,
/// ASTMatchers and Tooling headers.
///
/// Nothing here changes process state: the file's text is an in-memory
/// overlay over a physical file system that has its own working directory
/// (the command's), so runSemantic() runs on several threads at once.
///
//===----------------------------------------------------------------------===//

#include "matchers/cpp/Semantic.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/Dynamic/Diagnostics.h"
#include "clang/ASTMatchers/Dynamic/Parser.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <mutex>
#include <tuple>

#ifndef CLANG_RESOURCE_DIR
#error "CLANG_RESOURCE_DIR comes from the clang_deps CMake target"
#endif

namespace devport::cpp {

using clang::ast_matchers::MatchFinder;
using clang::ast_matchers::internal::DynTypedMatcher;
namespace dynamic = clang::ast_matchers::dynamic;

namespace {

/// The id the top-level matcher is bound to: the match's root node. Not a
/// metavariable name (those have no '.').
constexpr llvm::StringLiteral RootId = "devport.root";

/// Path made absolute against Base (the process's working directory when
/// empty), with "." and ".." removed.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base = "") {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    if (Base.empty()) {
      llvm::sys::fs::make_absolute(P);
    } else {
      llvm::SmallString<256> B(Base);
      llvm::sys::fs::make_absolute(B);
      llvm::sys::path::append(B, P);
      P = B;
    }
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P.str());
}

/// "file:line:col" in the rule file of a position inside its matcher
/// expression (1-based Line and Col; 0: unknown). Exact for a plain scalar
/// and for a `|` block, whose Loc is its first character and whose lines keep
/// the block's indentation; a quoted scalar's Loc is its quote, so there the
/// column is one to the left (the rule model does not say which it was), and
/// a `>` block folds its lines into one, so only its first line maps.
std::string ruleFilePosition(const RulePattern &M, unsigned Line, unsigned Col) {
  RuleLoc L = M.Loc;
  if (L.Line == 0 || Line == 0 || Col == 0)
    return L.str();
  L.Line += Line - 1;
  L.Column += Col - 1;
  return L.str();
}

/// One line for a matcher that Clang's parser rejected: the position of the
/// first error and the messages of that error ("Candidate N: ..." for each
/// overload), without Clang's own "line:col: " prefixes.
std::string matcherError(const Rule &R, const dynamic::Diagnostics &Diag) {
  unsigned Line = 0, Col = 0;
  if (!Diag.errors().empty() && !Diag.errors().front().Messages.empty()) {
    const dynamic::SourceRange &Range = Diag.errors().front().Messages.front().Range;
    Line = Range.Start.Line;
    Col = Range.Start.Column;
  }
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  std::string Full = Diag.toString();
  llvm::StringRef(Full).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Msg;
  for (llvm::StringRef Text : Lines) {
    // Drop "L:C: ".
    llvm::StringRef Rest = Text;
    unsigned Ignored;
    if (!Rest.consumeInteger(10, Ignored) && Rest.consume_front(":") &&
        !Rest.consumeInteger(10, Ignored) && Rest.consume_front(": "))
      Text = Rest;
    if (!Msg.empty())
      Msg += "; ";
    Msg += Text.str();
  }
  if (Msg.empty())
    Msg = "not a matcher expression";
  return ruleFilePosition(R.Matcher, Line, Col) + ": invalid matcher: " + Msg;
}

} // namespace

//===----------------------------------------------------------------------===//
// SemanticMatchers
//===----------------------------------------------------------------------===//

struct SemanticMatchers::Impl {
  std::vector<const Rule *> Rules;
  /// Matchers[I] is Rules[I]'s, its root bound to RootId.
  std::vector<DynTypedMatcher> Matchers;
};

SemanticMatchers::SemanticMatchers() : I(std::make_unique<Impl>()) {}
SemanticMatchers::~SemanticMatchers() = default;

llvm::ArrayRef<const Rule *> SemanticMatchers::rules() const { return I->Rules; }

llvm::Expected<std::unique_ptr<SemanticMatchers>>
SemanticMatchers::compile(llvm::ArrayRef<const Rule *> Rules) {
  std::unique_ptr<SemanticMatchers> M(new SemanticMatchers());
  std::string Errors;
  auto addError = [&](const std::string &E) {
    if (!Errors.empty())
      Errors += "\n";
    Errors += E;
  };
  for (const Rule *R : Rules) {
    if (!R || R->Matcher.Text.empty())
      continue;
    dynamic::Diagnostics Diag;
    llvm::StringRef Code = R->Matcher.Text;
    llvm::Optional<DynTypedMatcher> Parsed = dynamic::Parser::parseMatcherExpression(Code, &Diag);
    if (!Parsed) {
      addError(matcherError(*R, Diag));
      continue;
    }
    llvm::Optional<DynTypedMatcher> Bound = Parsed->tryBind(RootId);
    // MatchFinder runs top-level matchers of some node kinds only (not, for
    // example, QualType's): try it here rather than lose matches silently.
    MatchFinder Probe;
    if (!Bound || !Probe.addDynamicMatcher(*Bound, nullptr)) {
      addError(R->Matcher.Loc.str() + ": invalid matcher: a " +
               Parsed->getSupportedKind().asStringRef().str() +
               " matcher cannot be the top-level matcher of a rule (it cannot bind its node)");
      continue;
    }
    // A type or a nested-name-specifier without its location has no place in
    // the file: it could never be reported.
    clang::ASTNodeKind Kind = Parsed->getSupportedKind();
    for (clang::ASTNodeKind NoPlace :
         {clang::ASTNodeKind::getFromNodeKind<clang::QualType>(),
          clang::ASTNodeKind::getFromNodeKind<clang::Type>(),
          clang::ASTNodeKind::getFromNodeKind<clang::NestedNameSpecifier>()})
      if (NoPlace.isBaseOf(Kind) || NoPlace.isSame(Kind)) {
        addError(R->Matcher.Loc.str() + ": invalid matcher: a " + Kind.asStringRef().str() +
                 " has no source range; match its location instead (typeLoc(loc(...)), "
                 "nestedNameSpecifierLoc(...))");
        Bound.reset();
        break;
      }
    if (!Bound)
      continue;
    M->I->Rules.push_back(R);
    M->I->Matchers.push_back(std::move(*Bound));
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Errors);
  return std::move(M);
}

//===----------------------------------------------------------------------===//
// CompileCommands
//===----------------------------------------------------------------------===//

namespace {

/// File (a compile_commands.json) as clangd reads it: response files
/// expanded, commands inferred for files it does not list, target and
/// driver mode inferred from the compiler's name. Null and Err on failure.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(llvm::StringRef File,
                                                                  std::string &Err) {
  std::unique_ptr<clang::tooling::CompilationDatabase> DB =
      clang::tooling::JSONCompilationDatabase::loadFromFile(
          File, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB)
    return nullptr;
  return clang::tooling::inferTargetAndDriverMode(clang::tooling::inferMissingCompileCommands(
      clang::tooling::expandResponseFiles(std::move(DB), llvm::vfs::getRealFileSystem())));
}

} // namespace

struct CompileCommands::Impl {
  /// fromDirectory(): the database. Null for discover().
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed;

  /// discover(): the database in each directory looked at (in it or in its
  /// build/; null: none), and the nearest one for each file's directory.
  /// Also serialises the databases' lookups.
  mutable std::mutex Mu;
  mutable llvm::StringMap<std::shared_ptr<clang::tooling::CompilationDatabase>> InDir;
  mutable llvm::StringMap<std::shared_ptr<clang::tooling::CompilationDatabase>> Nearest;

  /// The database in Dir or Dir/build, or null (Mu held).
  std::shared_ptr<clang::tooling::CompilationDatabase> inDir(llvm::StringRef Dir) const {
    auto It = InDir.find(Dir);
    if (It != InDir.end())
      return It->second;
    std::shared_ptr<clang::tooling::CompilationDatabase> DB;
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> File(Dir);
      llvm::sys::path::append(File, Sub, "compile_commands.json");
      if (!llvm::sys::fs::exists(File))
        continue;
      std::string Err;
      DB = loadDatabase(File, Err); // an unreadable one is no database
      if (DB)
        break;
    }
    InDir[Dir] = DB;
    return DB;
  }

  /// The nearest database upward from Dir (Mu held).
  clang::tooling::CompilationDatabase *nearest(llvm::StringRef Dir) const {
    auto It = Nearest.find(Dir);
    if (It != Nearest.end())
      return It->second.get();
    std::shared_ptr<clang::tooling::CompilationDatabase> Found;
    for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D))
      if ((Found = inDir(D)))
        break;
    Nearest[Dir] = Found;
    return Found.get();
  }
};

CompileCommands::CompileCommands() : I(std::make_unique<Impl>()) {}
CompileCommands::~CompileCommands() = default;

llvm::Expected<std::shared_ptr<const CompileCommands>>
CompileCommands::fromDirectory(llvm::StringRef Dir) {
  llvm::SmallString<256> File(absolutePath(Dir));
  llvm::sys::path::append(File, "compile_commands.json");
  if (!llvm::sys::fs::exists(File))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: no such file",
                                   File.c_str());
  std::string Err;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB = loadDatabase(File, Err);
  if (!DB)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", File.c_str(),
                                   Err.c_str());
  std::shared_ptr<CompileCommands> C(new CompileCommands());
  C->I->Fixed = std::move(DB);
  return std::shared_ptr<const CompileCommands>(std::move(C));
}

std::shared_ptr<const CompileCommands> CompileCommands::discover() {
  return std::shared_ptr<const CompileCommands>(new CompileCommands());
}

std::optional<CompileCommand> CompileCommands::commandFor(llvm::StringRef Path) const {
  std::string Abs = absolutePath(Path);
  std::lock_guard<std::mutex> Lock(I->Mu);
  clang::tooling::CompilationDatabase *DB =
      I->Fixed ? I->Fixed.get() : I->nearest(llvm::sys::path::parent_path(Abs));
  if (!DB)
    return std::nullopt;
  std::vector<clang::tooling::CompileCommand> Cmds = DB->getCompileCommands(Abs);
  if (Cmds.empty())
    return std::nullopt;
  CompileCommand C;
  C.Directory = std::move(Cmds.front().Directory);
  C.Arguments = std::move(Cmds.front().CommandLine);
  C.Filename = std::move(Cmds.front().Filename);
  C.Inferred = !Cmds.front().Heuristic.empty();
  return C;
}

//===----------------------------------------------------------------------===//
// runSemantic
//===----------------------------------------------------------------------===//

namespace {

/// Keeps the first error ("path:line:col: message"; the main file under the
/// path runSemantic was given, a header's path absolute) and prints nothing.
class FirstError : public clang::DiagnosticConsumer {
public:
  FirstError(std::string MainPath, std::string Directory)
      : MainPath(std::move(MainPath)), Directory(std::move(Directory)) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info); // counts errors
    if (Level < clang::DiagnosticsEngine::Error || !Message.empty())
      return;
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      clang::PresumedLoc P = SM.getPresumedLoc(Info.getLocation(), /*UseLineDirectives=*/false);
      if (P.isValid()) {
        bool Main = SM.getFileID(SM.getExpansionLoc(Info.getLocation())) == SM.getMainFileID();
        Message = (Main ? MainPath : absolutePath(P.getFilename(), Directory)) + ":" +
                  std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn()) + ": " +
                  std::string(Text.str());
        return;
      }
    }
    Message = MainPath + ": " + std::string(Text.str());
  }

  std::string Message;

private:
  std::string MainPath;
  std::string Directory; ///< What relative header paths are relative to.
};

/// The byte range in the main file of the token range [B, E], and whether
/// it comes from a macro body. Ends spelled in the same macro argument are
/// followed to where the argument is written; anything else in a macro
/// becomes the outermost expansion's range in the file. Nullopt when that is
/// not in the main file.
std::optional<std::pair<ByteRange, bool>>
mainFileRange(clang::SourceRange R, const clang::SourceManager &SM, const clang::LangOptions &LO) {
  clang::SourceLocation B = R.getBegin(), E = R.getEnd();
  if (B.isInvalid() || E.isInvalid())
    return std::nullopt;
  bool InMacro = false;
  bool EndIsToken = true;
  while (B.isMacroID() || E.isMacroID()) {
    if (B.isMacroID() && E.isMacroID() && SM.isMacroArgExpansion(B) && SM.isMacroArgExpansion(E)) {
      const clang::SrcMgr::ExpansionInfo &BE = SM.getSLocEntry(SM.getFileID(B)).getExpansion();
      const clang::SrcMgr::ExpansionInfo &EE = SM.getSLocEntry(SM.getFileID(E)).getExpansion();
      if (BE.getExpansionLocStart() == EE.getExpansionLocStart()) {
        B = SM.getImmediateSpellingLoc(B);
        E = SM.getImmediateSpellingLoc(E);
        continue;
      }
    }
    InMacro = true;
    B = SM.getExpansionRange(B).getBegin();
    clang::CharSourceRange ER = SM.getExpansionRange(E);
    E = ER.getEnd();
    EndIsToken = ER.isTokenRange();
    break;
  }
  clang::FileID Main = SM.getMainFileID();
  if (SM.getFileID(B) != Main || SM.getFileID(E) != Main)
    return std::nullopt;
  if (EndIsToken) {
    clang::SourceLocation After = clang::Lexer::getLocForEndOfToken(E, 0, SM, LO);
    if (After.isValid())
      E = After;
  }
  unsigned Begin = SM.getFileOffset(B), End = SM.getFileOffset(E);
  if (End < Begin)
    return std::nullopt;
  return std::make_pair(ByteRange{Begin, End}, InMacro);
}

/// What the callbacks of one run share.
struct Collector {
  const SemanticMatchers::Impl *M = nullptr;
  std::vector<SemanticMatch> Matches;
  /// The `#define`s of the main file, from the macro's name to the end of
  /// its body.
  std::vector<ByteRange> Definitions;

  /// Whether Loc is written in one of Definitions.
  bool inDefinition(clang::SourceLocation Loc, const clang::SourceManager &SM) const {
    clang::SourceLocation S = SM.getSpellingLoc(Loc);
    if (!SM.isWrittenInMainFile(S))
      return false;
    unsigned At = SM.getFileOffset(S);
    return llvm::any_of(Definitions, [&](ByteRange R) { return R.Begin <= At && At < R.End; });
  }
};

/// Records the matches of rule Index.
class RuleCallback : public MatchFinder::MatchCallback {
public:
  RuleCallback(Collector &C, size_t Index) : C(C), Index(Index) {}

  void run(const MatchFinder::MatchResult &Result) override {
    const clang::SourceManager &SM = *Result.SourceManager;
    const clang::LangOptions &LO = Result.Context->getLangOpts();
    const auto &Nodes = Result.Nodes.getMap();
    auto Root = Nodes.find(std::string(RootId));
    if (Root == Nodes.end())
      return;
    clang::SourceRange RootRange = Root->second.getSourceRange();
    if (RootRange.isInvalid() || !SM.isInMainFile(SM.getExpansionLoc(RootRange.getBegin())))
      return;
    auto Range = mainFileRange(RootRange, SM, LO);
    if (!Range)
      return;
    SemanticMatch SM_;
    SM_.R = C.M->Rules[Index];
    SM_.Range = Range->first;
    SM_.InMacro = Range->second;
    SM_.InDefinition = SM_.InMacro && (C.inDefinition(RootRange.getBegin(), SM) ||
                                       C.inDefinition(RootRange.getEnd(), SM));
    for (const auto &[Name, Node] : Nodes) {
      if (Name == RootId)
        continue;
      // `opt->is_cuda()` through an overloaded `->` (std::optional's): the
      // object is the operator call, whose range ends with the arrow; the
      // operand is what a template writes `$X->` after.
      clang::SourceRange NodeRange = Node.getSourceRange();
      if (const auto *Op = Node.get<clang::CXXOperatorCallExpr>())
        if (Op->getOperator() == clang::OO_Arrow && Op->getNumArgs() > 0)
          NodeRange = Op->getArg(0)->getSourceRange();
      // A binding outside the main file (a declaration in a header) has no
      // range in the text: it is left out.
      if (auto B = mainFileRange(NodeRange, SM, LO)) {
        SM_.Bindings.push_back(BoundVar{Name, B->first});
        SM_.InMacro |= B->second;
      }
    }
    C.Matches.push_back(std::move(SM_));
  }

private:
  Collector &C;
  size_t Index;
};

/// Runs the finder over the main file's top-level declarations once the
/// file parsed without errors.
class MatchConsumer : public clang::ASTConsumer {
public:
  explicit MatchConsumer(MatchFinder &Finder) : Finder(Finder) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override {
    for (clang::Decl *D : DG) {
      const clang::SourceManager &SM = D->getASTContext().getSourceManager();
      if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        TopLevel.push_back(D);
    }
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return; // the caller falls back to the lexical backend
    // Matching only what the main file declares skips the headers' AST
    // (matches outside the main file are dropped anyway).
    Ctx.setTraversalScope(TopLevel);
    Finder.matchAST(Ctx);
  }

private:
  MatchFinder &Finder;
  std::vector<clang::Decl *> TopLevel;
};

/// Records what the preprocessor keeps from the AST in the main file: the
/// ranges it skips and the macro definitions.
class MainFileRanges : public clang::PPCallbacks {
public:
  MainFileRanges(const clang::SourceManager &SM, std::vector<ByteRange> &Skipped,
                 std::vector<ByteRange> &Definitions)
      : SM(SM), Skipped(Skipped), Definitions(Definitions) {}

  void SourceRangeSkipped(clang::SourceRange R, clang::SourceLocation) override {
    add(R.getBegin(), R.getEnd(), Skipped);
  }
  void MacroDefined(const clang::Token &Name, const clang::MacroDirective *MD) override {
    if (const clang::MacroInfo *MI = MD->getMacroInfo())
      add(Name.getLocation(), MI->getDefinitionEndLoc(), Definitions);
  }

private:
  /// Adds [B, E] (E's token included) to Out when both are in the main file.
  void add(clang::SourceLocation B, clang::SourceLocation E, std::vector<ByteRange> &Out) {
    if (!SM.isWrittenInMainFile(B) || !SM.isWrittenInMainFile(E))
      return;
    unsigned Begin = SM.getFileOffset(B), End = SM.getFileOffset(E) + 1;
    if (Begin < End)
      Out.push_back({Begin, End});
  }

  const clang::SourceManager &SM;
  std::vector<ByteRange> &Skipped, &Definitions;
};

class MatchAction : public clang::ASTFrontendAction {
public:
  MatchAction(MatchFinder &Finder, std::vector<ByteRange> &Skipped,
              std::vector<ByteRange> &Definitions)
      : Finder(Finder), Skipped(Skipped), Definitions(Definitions) {}
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<MainFileRanges>(CI.getSourceManager(), Skipped, Definitions));
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<MatchConsumer>(Finder);
  }

private:
  MatchFinder &Finder;
  std::vector<ByteRange> &Skipped, &Definitions;
};

/// Command's arguments for a -fsyntax-only run on AbsPath: the input
/// replaced by AbsPath, outputs and dependency files dropped, warnings off
/// (a -Werror must not fail the parse), no diagnostic statistics on stderr,
/// and our resource directory.
std::vector<std::string> syntaxOnlyArguments(const CompileCommand &Command, llvm::StringRef Path,
                                             llvm::StringRef Directory,
                                             const std::string &AbsPath) {
  std::vector<std::string> Args = Command.Arguments;
  if (Args.empty())
    Args.push_back("clang++");
  std::string AbsFilename =
      Command.Filename.empty() ? std::string() : absolutePath(Command.Filename, Directory);
  bool Replaced = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A.empty() || A[0] == '-')
      continue;
    std::string AbsA = absolutePath(A, Directory);
    if (A == Path || AbsA == AbsPath || (!AbsFilename.empty() && AbsA == AbsFilename)) {
      Args[I] = AbsPath;
      Replaced = true;
    }
  }
  if (!Replaced)
    Args.push_back(AbsPath);

  namespace tooling = clang::tooling;
  tooling::ArgumentsAdjuster Adjust = tooling::combineAdjusters(
      tooling::getClangSyntaxOnlyAdjuster(),
      tooling::combineAdjusters(tooling::getClangStripOutputAdjuster(),
                                tooling::getClangStripDependencyFileAdjuster()));
  std::vector<std::string> Extra = {"-resource-dir=" CLANG_RESOURCE_DIR, "-w",
                                    "-fno-caret-diagnostics"};
  llvm::StringRef Ext = llvm::sys::path::extension(AbsPath);
  if (Ext == ".cu" || Ext == ".cuh")
    Extra.push_back("--cuda-host-only"); // one job; CUDA's own headers are still needed
  Adjust = tooling::combineAdjusters(
      Adjust, tooling::getInsertArgumentAdjuster(Extra, tooling::ArgumentInsertPosition::END));
  return Adjust(Args, AbsPath);
}

} // namespace

SemanticResult runSemantic(const SemanticMatchers &M, const CompileCommand &Command,
                           llvm::StringRef Path, llvm::StringRef Text) {
  SemanticResult Result;
  std::string AbsPath = absolutePath(Path);
  std::string Directory =
      Command.Directory.empty() ? absolutePath(".") : absolutePath(Command.Directory);

  // The file system: the disk, with its own working directory (no chdir), and
  // Text as the file at AbsPath over it.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem().release()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem());
  FS->pushOverlay(Memory);
  Memory->addFile(AbsPath, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, AbsPath));
  if (std::error_code EC = FS->setCurrentWorkingDirectory(Directory)) {
    Result.Error = Path.str() + ": cannot use the compile command's directory " + Directory + ": " +
                   EC.message();
    return Result;
  }
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions(), FS));

  const SemanticMatchers::Impl &MI = M.impl();
  Collector C;
  C.M = &MI;
  std::vector<std::unique_ptr<RuleCallback>> Callbacks;
  MatchFinder Finder;
  for (size_t I = 0; I < MI.Matchers.size(); ++I) {
    Callbacks.push_back(std::make_unique<RuleCallback>(C, I));
    Finder.addDynamicMatcher(MI.Matchers[I], Callbacks.back().get());
  }

  FirstError Diags(Path.str(), Directory);
  clang::tooling::ToolInvocation Invocation(
      syntaxOnlyArguments(Command, Path, Directory, AbsPath),
      std::make_unique<MatchAction>(Finder, Result.Skipped, C.Definitions), Files.get());
  Invocation.setDiagnosticConsumer(&Diags);
  bool Ran = Invocation.run();

  if (Diags.getNumErrors() > 0 || !Ran) {
    Result.Error =
        Diags.Message.empty() ? Path.str() + ": clang could not parse the file" : Diags.Message;
    return Result;
  }
  Result.Compiled = true;

  std::vector<SemanticMatch> &Out = C.Matches;
  auto Key = [](const SemanticMatch &X) {
    return std::make_tuple(X.Range.Begin, X.Range.End, llvm::StringRef(X.R->Id));
  };
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const SemanticMatch &A, const SemanticMatch &B) { return Key(A) < Key(B); });
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [&](const SemanticMatch &A, const SemanticMatch &B) {
                          return A.R == B.R && A.Range.Begin == B.Range.Begin &&
                                 A.Range.End == B.Range.End;
                        }),
            Out.end());
  Result.Matches = std::move(Out);
  return Result;
}

} // namespace devport::cpp
