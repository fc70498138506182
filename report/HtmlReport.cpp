//===--- HtmlReport.cpp - The migration report: one self-contained page --===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/HtmlReport.h"

#include "report/Render.h"
#include "rewriters/AtomicWrite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace devport {

std::string htmlEscape(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

namespace {

enum class Work { Safe, Unsafe, Manual };

Work workOf(const Diagnostic &D) {
  if (D.Fixes.empty() || D.Fixes.front().App == Applicability::DisplayOnly)
    return Work::Manual;
  return D.Fixes.front().App == Applicability::Safe ? Work::Safe : Work::Unsafe;
}

void count(WorkTally &T, Work W) {
  switch (W) {
  case Work::Safe:
    ++T.Safe;
    break;
  case Work::Unsafe:
    ++T.Unsafe;
    break;
  case Work::Manual:
    ++T.Manual;
    break;
  }
}

/// The directory that Roots have in common, whole components only; "" for
/// the current directory. A root that is a file stands for its directory.
std::string commonDirectory(llvm::ArrayRef<std::string> Roots) {
  std::vector<std::string> Common;
  bool First = true;
  for (const std::string &Root : Roots) {
    std::string Dir = baselinePath(Root);
    if (llvm::sys::fs::is_regular_file(Root))
      Dir = baselinePath(llvm::sys::path::parent_path(Dir, llvm::sys::path::Style::posix));
    std::vector<std::string> Parts;
    if (Dir != ".")
      for (auto It = llvm::sys::path::begin(Dir, llvm::sys::path::Style::posix),
                E = llvm::sys::path::end(Dir);
           It != E; ++It)
        if (*It != ".")
          Parts.push_back(It->str());
    if (First) {
      Common = std::move(Parts);
      First = false;
      continue;
    }
    size_t N = 0;
    while (N < Common.size() && N < Parts.size() && Common[N] == Parts[N])
      ++N;
    Common.resize(N);
  }
  llvm::SmallString<256> Out;
  for (const std::string &P : Common)
    llvm::sys::path::append(Out, llvm::sys::path::Style::posix, P);
  return Out.str().str();
}

} // namespace

MigrationReport::MigrationReport(std::vector<std::string> Roots,
                                 std::function<std::string(llvm::StringRef)> CategoryOf)
    : Roots(std::move(Roots)), CategoryOf(std::move(CategoryOf)),
      Base(commonDirectory(this->Roots)) {}

std::string MigrationReport::shown(llvm::StringRef Path) const {
  std::string P = baselinePath(Path);
  if (Base.empty())
    return P;
  llvm::StringRef S = P;
  if (Base == "/" && S.startswith("/"))
    return S.drop_front().str();
  if (S.startswith(Base) && S.size() > Base.size() && S[Base.size()] == '/')
    return S.drop_front(Base.size() + 1).str();
  return P;
}

std::string MigrationReport::directoryOf(llvm::StringRef Path) const {
  std::string S = shown(Path);
  llvm::StringRef Dir = llvm::sys::path::parent_path(S, llvm::sys::path::Style::posix);
  return Dir.empty() ? "." : Dir.str();
}

void MigrationReport::add(const FileReport &R, const std::vector<bool> *Known) {
  WorkTally &Dir = ByDirectory[directoryOf(R.Path)];
  ++Dir.Files;
  ++Total.Files;
  if (!R.File)
    return;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Diagnostic &D = R.Findings[I];
    Work W = workOf(D);
    bool IsNew = Known && !(*Known)[I];
    for (WorkTally *T : {&Total, &Dir, &ByCategory[CategoryOf(D.RuleId)], &ByRule[D.RuleId]}) {
      count(*T, W);
      if (Known)
        ++(IsNew ? T->New : T->Then);
    }
    if (W == Work::Manual) {
      LineColumn At = R.File->lineColumn(D.Range.Begin);
      Manual.push_back({shown(R.Path), At.Line, At.Column, D.RuleId, D.Message, IsNew});
    }
  }
  for (const Diagnostic &K : R.Kept)
    for (WorkTally *T : {&Total, &Dir, &ByCategory[CategoryOf(K.RuleId)], &ByRule[K.RuleId]})
      ++T->Kept;
}

void MigrationReport::addFixed(const Baseline::Entry &E) {
  for (WorkTally *T : {&Total, &ByDirectory[directoryOf(E.Path)], &ByCategory[CategoryOf(E.Rule)],
                       &ByRule[E.Rule]}) {
    ++T->Then;
    ++T->Fixed;
  }
}

//===----------------------------------------------------------------------===//
// The page
//===----------------------------------------------------------------------===//

namespace {

const char *const Style = R"css(
:root{--safe:#2f9e5b;--unsafe:#e3a21a;--manual:#d64550;--kept:#a3adb8;--ink:#1d2733;--mute:#5f6b7a;
--line:#e3e7ec;--bg:#f5f7fa;--card:#fff;--accent:#2f5d9e}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:28px 28px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:18px;margin:0 0 12px}
.sub{color:var(--mute);margin:0}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin-top:18px}
.lead{font-size:16px;margin:14px 0 0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(138px,1fr));gap:12px;background:none;border:0;padding:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;border-top:4px solid var(--accent)}
.card .n{font-size:28px;font-weight:650;font-variant-numeric:tabular-nums}.card .l{font-weight:600}
.card .h{color:var(--mute);font-size:12.5px}.card.safe{border-top-color:var(--safe)}
.card.unsafe{border-top-color:var(--unsafe)}.card.manual{border-top-color:var(--manual)}.card.kept{border-top-color:var(--kept)}
.legend{display:flex;gap:16px;flex-wrap:wrap;color:var(--mute);font-size:12.5px;margin:6px 0 0}
.legend i{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.s-safe{fill:var(--safe);background:var(--safe)}.s-unsafe{fill:var(--unsafe);background:var(--unsafe)}
.s-manual{fill:var(--manual);background:var(--manual)}.s-kept{fill:var(--kept);background:var(--kept)}
svg text{font-size:12.5px;fill:var(--ink)}svg .lab{fill:var(--ink)}svg .cnt{fill:var(--mute)}
svg .then{stroke:var(--ink);stroke-width:2}
.scroll{max-height:560px;overflow:auto;border:1px solid var(--line);border-radius:8px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{position:sticky;top:0;background:#eef1f5;font-weight:600;white-space:nowrap;user-select:none}
th[data-key]{cursor:pointer}th[data-key]:hover{background:#e2e7ee}
th[aria-sort=descending]::after{content:" \25BE"}th[aria-sort=ascending]::after{content:" \25B4"}
td.num,th.num{text-align:right}tbody tr:hover{background:#f8fafc}
td.bar{min-width:150px;white-space:nowrap}.mini{display:inline-block;height:9px;border-radius:2px;background:var(--manual);margin-right:6px;vertical-align:0}
.new{display:inline-block;font-size:11px;font-weight:700;color:#fff;background:var(--accent);border-radius:3px;padding:0 5px}
.up{color:var(--manual)}.down{color:var(--safe)}
details{border-top:1px solid var(--line);padding:6px 0}details:first-of-type{border-top:0}
summary{cursor:pointer}pre.doc{white-space:pre-wrap;background:#f8fafc;border:1px solid var(--line);border-radius:6px;padding:10px 12px}
footer{color:var(--mute);font-size:12.5px;margin-top:18px}
ul.errors{margin:0;padding-left:18px}
details.grp{padding:7px 0}details.grp summary{line-height:1.6}
ul.locs{margin:6px 0 4px;padding-left:22px;columns:2 420px;column-gap:28px}
ul.locs li{break-inside:avoid;color:var(--mute)}ul.locs code{color:var(--ink)}b.nl{color:var(--accent)}
)css";

// Click a header to sort by it (numbers start high, text low; again to flip);
// the order goes into the address (#sort=TABLE.KEY.DIR) and is restored from
// it. A link to a rule's page opens it.
const char *const Script = R"js(
(function(){
function val(c,num){var v=c.getAttribute('data-v');if(v===null)v=c.textContent;return num?parseFloat(v)||0:v.toLowerCase();}
function sortBy(th,dir){var t=th.closest('table'),b=t.tBodies[0],i=Array.prototype.indexOf.call(th.parentNode.children,th),num=th.hasAttribute('data-num');
var rows=Array.prototype.slice.call(b.rows).map(function(r,k){return [val(r.cells[i],num),k,r];});
rows.sort(function(x,y){var c=x[0]<y[0]?-1:x[0]>y[0]?1:0;if(dir==='desc')c=-c;return c||x[1]-y[1];});
rows.forEach(function(r){b.appendChild(r[2]);});
th.parentNode.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',dir==='asc'?'ascending':'descending');
try{history.replaceState(null,'','#sort='+t.id+'.'+th.getAttribute('data-key')+'.'+dir);}catch(e){}}
document.querySelectorAll('table.sortable th[data-key]').forEach(function(th){
th.tabIndex=0;function go(){var s=th.getAttribute('aria-sort');
sortBy(th,s==='descending'?'asc':s==='ascending'?'desc':th.hasAttribute('data-num')?'desc':'asc');}
th.addEventListener('click',go);th.addEventListener('keydown',function(e){if(e.key==='Enter')go();});});
var m=/^#sort=([\w-]+)\.([\w-]+)\.(asc|desc)$/.exec(location.hash);
if(m){var th=document.querySelector('#'+m[1]+' th[data-key="'+m[2]+'"]');
if(th)for(var k=0;k<3&&th.getAttribute('aria-sort')!==(m[3]==='asc'?'ascending':'descending');k++)th.click();}
function openRule(h){var d=h&&document.getElementById(h.slice(1));if(d&&d.tagName==='DETAILS')d.open=true;}
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[href^="#rule-"]');if(a)openRule(a.getAttribute('href'));});
openRule(location.hash);
})();
)js";

/// Escaped text with `backquoted` spans as <code>.
std::string withCode(llvm::StringRef S) {
  std::string Out;
  bool In = false;
  while (!S.empty()) {
    size_t Tick = S.find('`');
    if (Tick == llvm::StringRef::npos || (!In && S.find('`', Tick + 1) == llvm::StringRef::npos)) {
      Out += htmlEscape(S);
      break;
    }
    Out += htmlEscape(S.take_front(Tick));
    Out += In ? "</code>" : "<code>";
    In = !In;
    S = S.drop_front(Tick + 1);
  }
  if (In)
    Out += "</code>";
  return Out;
}

/// 12,345
std::string num(size_t N) {
  std::string S = std::to_string(N), Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (I && (S.size() - I) % 3 == 0)
      Out += ',';
    Out += S[I];
  }
  return Out;
}

std::string percent(size_t Part, size_t Whole) {
  if (!Whole)
    return "0%";
  unsigned P = static_cast<unsigned>((Part * 1000 + Whole / 2) / Whole); // tenths
  if (P >= 100)
    return std::to_string((P + 5) / 10) + "%";
  return std::to_string(P / 10) + "." + std::to_string(P % 10) + "%";
}

std::string fixedWidth(double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.1f", V);
  return S;
}

class Page {
public:
  Page(const MigrationReport &M, const HtmlOptions &O, const RuleSet *Rules,
       const BackendTable *Backends)
      : M(M), O(O), Rules(Rules), Backends(Backends), Trend(!O.BaselineName.empty()) {
    // A page for each rule with something to do (keep rules: nothing to do).
    for (const auto &[Id, T] : M.byRule())
      if ((T.findings() || T.Then) && Rules && Rules->find(Id))
        Pages.push_back(Id);
  }

  std::string render() {
    H += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"" +
         htmlEscape(O.Generator) + "\">\n<title>" + htmlEscape(O.Title) + "</title>\n<style>" +
         Style + "</style>\n</head>\n<body>\n<main>\n";
    header();
    cards();
    families();
    directories();
    rules();
    manual();
    errors();
    rulePages();
    H += "<footer>Generated by " + htmlEscape(O.Generator) +
         ". A finding's fix is <b>safe</b> when the code keeps its behaviour on CUDA and runs on "
         "every other backend (<code>devport fix</code> applies it), <b>unsafe</b> when it may "
         "change behaviour (<code>devport fix --unsafe-fixes</code>, after review); findings "
         "without a fix need a human. Code that must stay CUDA is kept, not counted as work. "
         "Rule families are the rules' categories.</footer>\n</main>\n<script>" +
         std::string(Script) + "</script>\n</body>\n</html>\n";
    return std::move(H);
  }

private:
  /// The rule id, linked to its page under --docs-url, else to the one
  /// embedded at the end (when there is one).
  std::string ruleLink(llvm::StringRef Id) const {
    std::string Code = "<code>" + htmlEscape(Id) + "</code>";
    if (!O.DocsUrl.empty())
      return "<a href=\"" + htmlEscape(O.DocsUrl + Id.str() + ".md") + "\">" + Code + "</a>";
    if (std::binary_search(Pages.begin(), Pages.end(), Id.str()))
      return "<a href=\"#rule-" + htmlEscape(Id) + "\">" + Code + "</a>";
    return Code;
  }

  void header() {
    const WorkTally &T = M.total();
    H += "<header>\n<h1>" + htmlEscape(O.Title) + "</h1>\n<p class=\"sub\">";
    std::string Where = M.base().empty() ? "." : M.base();
    H += "Scanned <code>" + htmlEscape(Where) + "</code>";
    if (!O.Target.empty())
      H += " &middot; fixes target " + htmlEscape(O.Target);
    if (Trend)
      H += " &middot; compared with <code>" + htmlEscape(O.BaselineName) + "</code>";
    H += "</p>\n";
    H += "<p class=\"lead\">";
    if (T.findings() == 0) {
      H += "No hardcoded device references left in " + num(T.Files) + " files.";
    } else {
      H += "<b>" + num(T.findings()) + "</b> hardcoded device references to port in <b>" +
           num(T.Files) + "</b> files";
      if (T.Kept)
        H += " (and " + num(T.Kept) + " kept as CUDA)";
      H += ". <code>devport fix</code> resolves <b>" + num(T.Safe) + "</b> (" +
           percent(T.Safe, T.findings()) + ") on its own; <b>" + num(T.Unsafe) +
           "</b> more have a fix to review, and <b>" + num(T.Manual) + "</b> need a human.";
    }
    if (Trend) {
      H += " Since the baseline: <b>" + num(T.Then) + "</b> &rarr; <b>" + num(T.findings()) +
           "</b>, <span class=\"down\">" + num(T.Fixed) + " fixed</span>, <span class=\"up\">" +
           num(T.New) + " new</span>.";
    }
    H += "</p>\n</header>\n";
  }

  void card(const char *Class, const std::string &N, const char *Label, const std::string &Help) {
    H += std::string("<div class=\"card ") + Class + "\"><div class=\"n\">" + N +
         "</div><div class=\"l\">" + Label + "</div><div class=\"h\">" + Help + "</div></div>\n";
  }

  void cards() {
    const WorkTally &T = M.total();
    H += "<section class=\"cards\" id=\"summary\">\n";
    card("", num(T.Files), "files scanned", "Python and C++ sources");
    card("", num(T.findings() + T.Kept), "references found",
         num(T.findings()) + " to port, " + num(T.Kept) + " kept");
    card("safe", num(T.Safe), "fixable safely", "<code>devport fix</code> applies these");
    card("unsafe", num(T.Unsafe), "fixable after review",
         "<code>--unsafe-fixes</code>; read the note");
    card("manual", num(T.Manual), "need a human", "no automatic fix");
    card("kept", num(T.Kept), "kept as CUDA", "CUDA by design; nothing to do");
    if (Trend)
      card("", num(T.Fixed) + " / " + num(T.New), "fixed / new",
           "since the baseline (" + num(T.Then) + " then)");
    H += "</section>\n";
  }

  struct Segment {
    const char *Class, *Name;
    size_t N;
  };

  void families() {
    std::vector<std::pair<std::string, const WorkTally *>> Rows;
    size_t Max = 0;
    for (const auto &[Name, T] : M.byCategory()) {
      if (!T.findings() && !T.Kept && !T.Then)
        continue;
      Rows.push_back({Name, &T});
      Max = std::max({Max, T.findings() + T.Kept, Trend ? T.Then : 0});
    }
    llvm::stable_sort(Rows, [](const auto &A, const auto &B) {
      size_t X = A.second->findings() + A.second->Kept, Y = B.second->findings() + B.second->Kept;
      return X != Y ? X > Y : A.first < B.first;
    });
    H += "<section id=\"families\">\n<h2>By rule family</h2>\n";
    if (Rows.empty()) {
      H += "<p class=\"sub\">Nothing found.</p>\n</section>\n";
      return;
    }
    const double LabelW = 170, BarX = 180, BarW = 520, RowH = 26, Width = 960;
    double Height = RowH * Rows.size() + 8;
    H += "<svg id=\"chart\" role=\"img\" aria-label=\"findings per rule family\" viewBox=\"0 0 " +
         fixedWidth(Width) + " " + fixedWidth(Height) +
         "\" width=\"100%\" "
         "preserveAspectRatio=\"xMinYMin meet\" style=\"max-width:" +
         fixedWidth(Width) + "px\">\n";
    for (size_t I = 0; I < Rows.size(); ++I) {
      const WorkTally &T = *Rows[I].second;
      double Y = 4 + RowH * I;
      H += "<g class=\"fam\" data-family=\"" + htmlEscape(Rows[I].first) + "\">";
      H += "<text class=\"lab\" x=\"" + fixedWidth(LabelW) + "\" y=\"" + fixedWidth(Y + 13) +
           "\" text-anchor=\"end\">" + htmlEscape(Rows[I].first) + "</text>";
      double X = BarX;
      for (const Segment &S : {Segment{"s-safe", "fixable safely", T.Safe},
                               Segment{"s-unsafe", "fixable after review", T.Unsafe},
                               Segment{"s-manual", "need a human", T.Manual},
                               Segment{"s-kept", "kept as CUDA", T.Kept}}) {
        if (!S.N)
          continue;
        double W = std::max(BarW * S.N / Max, 1.0);
        H += std::string("<rect class=\"") + S.Class + "\" x=\"" + fixedWidth(X) + "\" y=\"" +
             fixedWidth(Y + 2) + "\" width=\"" + fixedWidth(W) +
             "\" height=\"16\" rx=\"2\">"
             "<title>" +
             htmlEscape(Rows[I].first) + ": " + num(S.N) + " " + S.Name + "</title></rect>";
        X += W;
      }
      if (Trend && T.Then) {
        double TX = BarX + BarW * T.Then / Max;
        H += "<line class=\"then\" x1=\"" + fixedWidth(TX) + "\" x2=\"" + fixedWidth(TX) +
             "\" y1=\"" + fixedWidth(Y) + "\" y2=\"" + fixedWidth(Y + 20) + "\"><title>" +
             num(T.Then) + " in the baseline</title></line>";
        X = std::max(X, TX);
      }
      std::string Label = T.findings() || !T.Kept ? num(T.findings()) : "";
      if (T.Kept)
        Label += (Label.empty() ? "" : " + ") + num(T.Kept) + " kept";
      if (Trend && (T.Fixed || T.New)) {
        std::string Change = T.Fixed ? num(T.Fixed) + " fixed" : "";
        if (T.New)
          Change += (Change.empty() ? "" : ", ") + num(T.New) + " new";
        Label += " (" + Change + ")";
      }
      H += "<text class=\"cnt\" x=\"" + fixedWidth(X + 6) + "\" y=\"" + fixedWidth(Y + 15) + "\">" +
           Label + "</text></g>\n";
    }
    H += "</svg>\n<div class=\"legend\"><span><i class=\"s-safe\"></i>fixable safely</span>"
         "<span><i class=\"s-unsafe\"></i>fixable after review</span>"
         "<span><i class=\"s-manual\"></i>needs a human</span>"
         "<span><i class=\"s-kept\"></i>kept as CUDA</span>";
    if (Trend)
      H += "<span>&#9474; findings in the baseline</span>";
    H += "</div>\n</section>\n";
  }

  /// A header cell; Num: sorted as numbers. Sorted: the table's initial order.
  void th(const char *Key, const char *Label, bool Num, bool Sorted = false,
          const char *Title = nullptr) {
    H += std::string("<th data-key=\"") + Key + "\"" + (Num ? " data-num class=\"num\"" : "") +
         (Sorted ? " aria-sort=\"descending\"" : "") +
         (Title ? std::string(" title=\"") + Title + "\"" : std::string()) + ">" + Label + "</th>";
  }
  void td(size_t N) { H += "<td class=\"num\">" + std::to_string(N) + "</td>"; }

  void countHeaders() {
    th("findings", "Findings", true);
    th("safe", "Safe", true, false, "fixable safely: devport fix");
    th("unsafe", "Unsafe", true, false, "fixable after review: --unsafe-fixes");
    th("manual", "Manual", true, false, "no automatic fix: a human decides");
    th("kept", "Kept", true, false, "kept as CUDA");
  }
  void trendHeaders() {
    if (!Trend)
      return;
    th("then", "Then", true, false, "findings in the baseline");
    th("fixed", "Fixed", true);
    th("new", "New", true);
  }
  void countCells(const WorkTally &T) {
    td(T.findings());
    td(T.Safe);
    td(T.Unsafe);
    td(T.Manual);
    td(T.Kept);
  }
  void trendCells(const WorkTally &T) {
    if (!Trend)
      return;
    td(T.Then);
    td(T.Fixed);
    td(T.New);
  }

  void directories() {
    std::vector<std::pair<std::string, const WorkTally *>> Rows;
    size_t Max = 0;
    for (const auto &[Dir, T] : M.byDirectory())
      if (T.findings() || T.Kept || T.Then) {
        Rows.push_back({Dir, &T});
        Max = std::max(Max, T.remaining());
      }
    // Most work left first; then most findings; then by name.
    llvm::stable_sort(Rows, [](const auto &A, const auto &B) {
      const WorkTally &X = *A.second, &Y = *B.second;
      if (X.remaining() != Y.remaining())
        return X.remaining() > Y.remaining();
      if (X.findings() != Y.findings())
        return X.findings() > Y.findings();
      return A.first < B.first;
    });
    H += "<section>\n<h2>By directory</h2>\n<p class=\"sub\">Each directory counts the files "
         "directly in it. <b>Remaining</b> is what <code>devport fix</code> leaves: the unsafe "
         "and the manual findings. Click a column to sort.</p>\n";
    if (Rows.empty()) {
      H += "<p class=\"sub\">Nothing found.</p>\n</section>\n";
      return;
    }
    H += "<div class=\"scroll\"><table class=\"sortable\" id=\"dirs\">\n<thead><tr>";
    th("dir", "Directory", false);
    th("remaining", "Remaining", true, true, "unsafe + manual: what devport fix leaves");
    th("files", "Files", true);
    countHeaders();
    trendHeaders();
    H += "</tr></thead>\n<tbody>\n";
    for (const auto &[Dir, T] : Rows) {
      H += "<tr><td><code>" + htmlEscape(Dir) + "</code></td>";
      double W = Max ? 120.0 * T->remaining() / Max : 0;
      H += "<td class=\"num bar\" data-v=\"" + std::to_string(T->remaining()) + "\">";
      if (T->remaining())
        H += "<span class=\"mini\" style=\"width:" + fixedWidth(std::max(W, 2.0)) + "px\"></span>";
      H += std::to_string(T->remaining()) + "</td>";
      td(T->Files);
      countCells(*T);
      trendCells(*T);
      H += "</tr>\n";
    }
    H += "</tbody></table></div>\n</section>\n";
  }

  void rules() {
    std::vector<std::pair<std::string, const WorkTally *>> Rows;
    for (const auto &[Id, T] : M.byRule())
      Rows.push_back({Id, &T});
    llvm::stable_sort(Rows, [](const auto &A, const auto &B) {
      const WorkTally &X = *A.second, &Y = *B.second;
      if (X.findings() != Y.findings())
        return X.findings() > Y.findings();
      if (X.Kept != Y.Kept)
        return X.Kept > Y.Kept;
      return A.first < B.first;
    });
    if (Rows.empty())
      return;
    H += "<section>\n<h2>By rule</h2>\n<div class=\"scroll\"><table class=\"sortable\" "
         "id=\"rules\">\n<thead><tr>";
    th("rule", "Rule", false);
    th("family", "Family", false);
    countHeaders();
    trendHeaders();
    H += "</tr></thead>\n<tbody>\n";
    for (const auto &[Id, T] : Rows) {
      H += "<tr><td data-v=\"" + htmlEscape(Id) + "\">" + ruleLink(Id) + "</td><td>" +
           htmlEscape(M.categoryOf(Id)) + "</td>";
      countCells(*T);
      trendCells(*T);
      H += "</tr>\n";
    }
    H += "</tbody></table></div>\n</section>\n";
  }

  /// Grouped by rule (most items first), then by file: a rule's message is
  /// said once, a file's path once per rule, then its lines (new ones marked).
  void manual() {
    const std::vector<ManualItem> &Items = M.manual();
    H += "<section id=\"manual\">\n<h2>Needs a human (" + num(Items.size()) + ")</h2>\n";
    if (Items.empty()) {
      H += "<p class=\"sub\">Every finding has a fix.</p>\n</section>\n";
      return;
    }
    // Rule -> (path -> items), both in order; items are in path order.
    std::map<std::string, std::map<std::string, std::vector<const ManualItem *>>> ByRule;
    for (const ManualItem &I : Items)
      ByRule[I.Rule][I.Path].push_back(&I);
    std::vector<std::pair<size_t, const std::string *>> Order;
    for (const auto &[Rule, Files] : ByRule) {
      size_t N = 0;
      for (const auto &[Path, Is] : Files)
        N += Is.size();
      Order.push_back({N, &Rule});
    }
    llvm::stable_sort(Order, [](const auto &A, const auto &B) { return A.first > B.first; });
    H += "<p class=\"sub\">Findings without an automatic fix, by rule: each rule's page says "
         "what to decide. Open a rule for its files and lines.</p>\n";
    for (const auto &[N, Rule] : Order) {
      const auto &Files = ByRule[*Rule];
      size_t New = 0;
      for (const auto &[Path, Is] : Files)
        for (const ManualItem *I : Is)
          New += I->New;
      const ManualItem &First = *Files.begin()->second.front();
      H += "<details class=\"grp\" data-rule=\"" + htmlEscape(*Rule) + "\"><summary><b>" + num(N) +
           "</b> " + ruleLink(*Rule) + " " + withCode(First.Message) + " <span class=\"sub\">in " +
           num(Files.size()) + (Files.size() == 1 ? " file" : " files") + "</span>";
      if (New)
        H += " <span class=\"new\">" + num(New) + " new</span>";
      H += "</summary>\n<ul class=\"locs\">\n";
      for (const auto &[Path, Is] : Files) {
        H += "<li><code>" + htmlEscape(Path) + "</code>:";
        for (size_t K = 0; K < Is.size();) {
          // Items alike on one line are one entry: "188 ×2".
          size_t Same = 1;
          while (K + Same < Is.size() && Is[K + Same]->Line == Is[K]->Line &&
                 Is[K + Same]->New == Is[K]->New && Is[K + Same]->Message == Is[K]->Message)
            ++Same;
          H += K ? ", " : " ";
          std::string L = std::to_string(Is[K]->Line);
          if (Same > 1)
            L += " &times;" + std::to_string(Same);
          H += Is[K]->New ? "<b class=\"nl\" title=\"new\">" + L + "</b>" : L;
          // A finding whose message is not its rule's usual one says so.
          if (Is[K]->Message != First.Message)
            H += " (" + withCode(Is[K]->Message) + ")";
          K += Same;
        }
        H += "</li>\n";
      }
      H += "</ul></details>\n";
    }
    H += "</section>\n";
  }

  void errors() {
    if (M.errors().empty())
      return;
    H += "<section>\n<h2>Files that could not be checked (" + num(M.errors().size()) +
         ")</h2>\n<ul class=\"errors\">\n";
    for (const std::string &E : M.errors())
      H += "<li><code>" + htmlEscape(E) + "</code></li>\n";
    H += "</ul>\n</section>\n";
  }

  /// The rule pages (`devport explain`) of the rules the report names.
  void rulePages() {
    if (Pages.empty())
      return;
    H += "<section id=\"rule-pages\">\n<h2>Rules</h2>\n";
    for (const std::string &Id : Pages) {
      const Rule *R = Rules->find(Id);
      std::string Doc;
      llvm::raw_string_ostream OS(Doc);
      renderExplain(OS, *R, Backends);
      OS.flush();
      H += "<details id=\"rule-" + htmlEscape(Id) + "\"><summary><code>" + htmlEscape(Id) +
           "</code> &mdash; " + withCode(R->Message) + "</summary><pre class=\"doc\">" +
           htmlEscape(Doc) + "</pre></details>\n";
    }
    H += "</section>\n";
  }

  const MigrationReport &M;
  const HtmlOptions &O;
  const RuleSet *Rules;
  const BackendTable *Backends;
  bool Trend;
  std::vector<std::string> Pages; ///< Rule ids with a page embedded, sorted.
  std::string H;
};

} // namespace

std::string renderHtml(const MigrationReport &M, const HtmlOptions &O, const RuleSet *Rules,
                       const BackendTable *Backends) {
  return Page(M, O, Rules, Backends).render();
}

//===----------------------------------------------------------------------===//
// The Reporter
//===----------------------------------------------------------------------===//

/// "PyTorch 2.9 (default)"; with several releases, each with its files:
/// "PyTorch 2.9 (default) for 80 files, 2.6 (pyproject.toml: torch>=2.6) for 3".
static std::string targetsText(const Summary &S) {
  std::vector<std::pair<const TorchTarget *, size_t>> Releases; // first source of each
  for (const TargetUse &U : S.Targets) {
    auto It = llvm::find_if(Releases,
                            [&](const auto &R) { return R.first->Release == U.Target.Release; });
    if (It == Releases.end())
      Releases.push_back({&U.Target, U.Files});
    else
      It->second += U.Files;
  }
  std::string Out;
  for (const auto &[T, Files] : Releases) {
    Out += (Out.empty() ? "PyTorch " : ", ") + T->Release.str() + " (" + targetSourceText(*T) + ")";
    if (Releases.size() > 1)
      Out += " for " + std::to_string(Files) + (Files == 1 ? " file" : " files");
  }
  return Out;
}

HtmlReporter::HtmlReporter(std::string OutPath, llvm::raw_ostream &Out, llvm::raw_ostream &Err,
                           MigrationReport Model, HtmlOptions Opts, const RuleSet *Rules,
                           const BackendTable *Backends, Baseline *B)
    : OutPath(std::move(OutPath)), Out(Out), Err(Err), Model(std::move(Model)),
      Opts(std::move(Opts)), Rules(Rules), Backends(Backends), B(B) {}

void HtmlReporter::file(const FileReport &R) {
  if (!R.Error.empty()) {
    Err << "devport: error: " << printable(R.Error, /*KeepNewlines=*/true) << "\n";
    Model.addError(R.Error);
  }
  if (B && R.File) {
    std::vector<bool> Known = B->match(*R.File, R.Findings);
    Model.add(R, &Known);
  } else {
    Model.add(R);
  }
}

void HtmlReporter::finish(const Summary &S) {
  if (Opts.Target.empty())
    Opts.Target = targetsText(S);
  if (B)
    for (const Baseline::Entry *E : B->unmatched(Model.roots()))
      Model.addFixed(*E);
  std::string Page = renderHtml(Model, Opts, Rules, Backends);
  Bytes = Page.size();
  if (OutPath == "-") {
    Out << Page;
    return;
  }
  if (llvm::Error E = writeOutputFile(OutPath, Page))
    WriteError = llvm::toString(std::move(E));
}

llvm::Error HtmlReporter::takeError() {
  if (WriteError.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), std::exchange(WriteError, ""));
}

} // namespace devport
