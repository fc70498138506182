#!/usr/bin/env python3
"""Latency and memory of `devport lsp` as an editor sees them.

Opens one Python file (default: a 5,000-line file generated from the rule
fixtures; or --file, e.g. PyTorch's test/test_cuda.py), then sends one-line
edits (didChange, incremental) one at a time and times each from the moment
the didChange is written to the moment the publishDiagnostics of that
version is read. Prints p50/p95/p99/max and the server's RSS (VmRSS from
/proc) at the start and after every --rss-every edits.

With --typing LINE, it then types a statement into the file before line LINE
(0-based, indented as that line) a keystroke at a time and deletes it again,
a didChange per keystroke, as an editor does while one types (most versions
in between have a syntax error), and prints the same figures for those.

    python3 bench/lsp_latency.py --devport build/devport --edits 10000
    python3 bench/lsp_latency.py --file common_utils.py --edits 0 --typing 3248
    python3 bench/lsp_latency.py --file common_utils.py --edits 0 --typing 60 \
        --typed "from torch.cuda import memory_allocated"
"""
import argparse
import ast
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def generated_file(lines):
    """About `lines` lines of real-looking code: the rule fixtures' inputs, repeated."""
    parts = []
    for p in sorted((ROOT / "tests" / "rules").glob("*/input*.py")):
        t = p.read_text(encoding="utf-8")
        if "devport: skip-file" in t:
            continue
        try:  # an input with a syntax error (on purpose) would break every copy after it
            ast.parse(t)
        except SyntaxError:
            continue
        parts.append(t if t.endswith("\n") else t + "\n")
    body = "".join(parts)
    out = []
    n = 0
    i = 0
    while n < lines:
        # Each copy in its own function so that the names do not collide.
        out.append(f"def _copy_{i}():\n    pass\n")
        out.append(body)
        n += body.count("\n") + 2
        i += 1
    return "".join(out)


class Client:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.next_id = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("server closed its output")
            line = line.strip()
            if not line:
                break
            k, _, v = line.partition(b":")
            if k.lower() == b"content-length":
                length = int(v)
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == self.next_id and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_diagnostics(self, uri, version):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m["params"]
                if p["uri"] == uri and p.get("version") == version:
                    return p["diagnostics"]

    def rss_kib(self):
        for line in open(f"/proc/{self.p.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devport", default=str(ROOT / "build" / "devport"))
    ap.add_argument("--file", help="the Python file to edit (default: generated)")
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--edits", type=int, default=1000)
    ap.add_argument("--rss-every", type=int, default=1000)
    ap.add_argument("--slowest", type=int, default=0, metavar="N",
                    help="also list the lines whose edits were among the N slowest")
    ap.add_argument("--typing", type=int, metavar="LINE",
                    help="also type a statement before this line (0-based), keystroke by keystroke")
    ap.add_argument("--typed", default="n = torch.cuda.device_count() + len(devices)",
                    metavar="STATEMENT", help="the statement that --typing types (ASCII)")
    a = ap.parse_args()

    text = pathlib.Path(a.file).read_text(encoding="utf-8") if a.file else generated_file(a.lines)
    lines = text.split("\n")
    path = os.path.abspath(a.file) if a.file else "/tmp/devport-bench/generated.py"
    uri = "file://" + path
    c = Client([a.devport, "lsp"])
    c.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
    c.notify("initialized", {})
    t0 = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    diags = c.wait_diagnostics(uri, 1)
    open_ms = (time.perf_counter() - t0) * 1000
    print(f"file: {path if a.file else 'generated'}, {len(lines)} lines, {len(text)} bytes; "
          f"{len(diags)} findings; open + first analysis {open_ms:.1f} ms")
    rss0 = c.rss_kib()
    print(f"RSS after open: {rss0 / 1024:.1f} MiB")

    # One-line edits spread over the file: type a character at the end of a
    # line, then delete it again (so the text does not drift).
    targets = [i for i, l in enumerate(lines) if l.strip()][:: max(1, len(lines) // 97)]
    lat = []
    where = []  # (0-based line, "insert" or "delete") of each edit
    version = 1
    for k in range(a.edits):
        line = targets[(k // 2) % len(targets)]
        col = len(lines[line].encode("utf-16-le")) // 2
        if k % 2 == 0:
            change = {"range": {"start": {"line": line, "character": col},
                                "end": {"line": line, "character": col}}, "text": " "}
        else:
            change = {"range": {"start": {"line": line, "character": col},
                                "end": {"line": line, "character": col + 1}}, "text": ""}
        version += 1
        t = time.perf_counter()
        c.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        c.wait_diagnostics(uri, version)
        lat.append((time.perf_counter() - t) * 1000)
        where.append((line, "insert" if k % 2 == 0 else "delete"))
        if (k + 1) % a.rss_every == 0:
            print(f"after {k + 1} edits: RSS {c.rss_kib() / 1024:.1f} MiB, "
                  f"p95 of the last {a.rss_every}: {pct(lat[-a.rss_every:], 95):.2f} ms")
    if lat:
        print(f"didChange -> publishDiagnostics over {len(lat)} edits: "
              f"p50 {statistics.median(lat):.2f} ms, p95 {pct(lat, 95):.2f} ms, "
              f"p99 {pct(lat, 99):.2f} ms, max {max(lat):.2f} ms")
    if a.slowest and lat:
        slow = sorted(range(len(lat)), key=lambda i: -lat[i])[:a.slowest]
        count = {}
        for i in slow:
            count[where[i]] = count.get(where[i], 0) + 1
        print(f"the {len(slow)} slowest edits ({lat[slow[-1]]:.2f} ms and up), by line (0-based):")
        for (line, kind), n in sorted(count.items(), key=lambda x: (-x[1], x[0])):
            times = sorted((lat[i] for i in slow if where[i] == (line, kind)), reverse=True)
            print(f"  line {line} {kind}: {n} edits, {times[0]:.1f}-{times[-1]:.1f} ms")
    if a.typing is not None:
        line = a.typing
        indent = lines[line][:len(lines[line]) - len(lines[line].lstrip())]
        typed = indent + a.typed + "\n"
        keys = []

        def change(rng, new_text):
            nonlocal version
            version += 1
            t = time.perf_counter()
            c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": rng, "text": new_text}]})
            c.wait_diagnostics(uri, version)
            keys.append((time.perf_counter() - t) * 1000)

        def at(col, row=line):
            return {"line": row, "character": col}

        for i, ch in enumerate(typed):  # ASCII: UTF-16 columns are byte columns
            change({"start": at(i), "end": at(i)}, ch)
        for i in range(len(typed) - 1, -1, -1):
            end = at(0, line + 1) if typed[i] == "\n" else at(i + 1)
            change({"start": at(i), "end": end}, "")
        print(f"typing `{typed.strip()}` before line {line} and deleting it, {len(keys)} "
              f"keystrokes: p50 {statistics.median(keys):.2f} ms, p95 {pct(keys, 95):.2f} ms, "
              f"max {max(keys):.2f} ms")
    print(f"RSS: {rss0 / 1024:.1f} MiB after open, {c.rss_kib() / 1024:.1f} MiB after "
          f"{len(lat)} edits")
    c.request("shutdown", None)
    c.notify("exit", None)
    rc = c.p.wait(timeout=10)
    if rc != 0:
        print(f"server exited with {rc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
