#!/usr/bin/env python3
"""html_in_browser.py: the HTML report of `devport report`, rendered by a real browser.

    html_in_browser.py DEVPORT_BINARY        exit 0 pass, 1 fail, 77 skipped (no chromium)

Writes a small project with findings of every kind in three directories and a baseline, runs
`devport report --baseline`, and loads the page in headless Chromium (Debian's `chromium`,
installed by scripts/bootstrap.sh) twice:

1. --dump-dom on a copy of the page with a probe script appended: after the page's own script
   ran (with `#sort=dirs.dir.asc` in the address), the probe records the laid-out size of every
   bar of the chart (getBoundingClientRect), the directory table's order, then clicks the
   "Files" header twice and records the order each time; the dump carries the result.
2. --screenshot of the page itself: a PNG of the requested size that is not blank and shows the
   chart's colours (decoded here, without imaging libraries).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

PROBE = r"""<script>
(function(){
var out={bars:[],order:[],clicks:[]};
document.querySelectorAll('#chart rect').forEach(function(r){
  var b=r.getBoundingClientRect();
  out.bars.push({family:r.parentNode.getAttribute('data-family'),cls:r.getAttribute('class'),
                 width:b.width,height:b.height});});
function order(){return Array.prototype.map.call(document.querySelectorAll('#dirs tbody tr'),
  function(tr){return tr.cells[0].textContent;});}
out.order=order();
out.hashSort=document.querySelector('#dirs th[data-key="dir"]').getAttribute('aria-sort');
var files=document.querySelector('#dirs th[data-key="files"]');
files.click();out.clicks.push({order:order(),sort:files.getAttribute('aria-sort')});
files.click();out.clicks.push({order:order(),sort:files.getAttribute('aria-sort')});
var pre=document.createElement('pre');pre.id='probe';pre.textContent=JSON.stringify(out);
document.body.appendChild(pre);
})();
</script>"""

# The chart's colours (report/HtmlReport.cpp: --safe, --unsafe, --manual).
SAFE, UNSAFE, MANUAL = (0x2F, 0x9E, 0x5B), (0xE3, 0xA2, 0x1A), (0xD6, 0x45, 0x50)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(browser, *args):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--disable-extensions", "--mute-audio", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def png_pixels(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"depth {depth}, colour type {colour}"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def near(p, q, tol=6):
    return all(abs(x - y) <= tol for x, y in zip(p, q))


def write_project(root):
    files = {
        # top directory: safe, unsafe and manual findings
        "train.py": "import torch\n\ntorch.cuda.set_device(rank)\nn = torch.cuda.device_count()\n"
                    "s = torch.cuda.current_stream()\nif x.device.type == \"cuda\":\n    pass\n",
        # lots of manual work in one directory
        "tests/test_a.py": "import torch\n" + "".join(
            f"ok{i} = x{i}.device.type == \"cuda\"\n" for i in range(6)),
        "tests/test_b.py": "import torch\n\nif torch.cuda.is_available():\n    torch.cuda.synchronize()\n",
        # safe work and kept code elsewhere
        "models/net.py": "import torch\ntorch.backends.cudnn.benchmark = True\n"
                         "y = x.cuda()\nz = w.cuda()\nv = u.cuda()\n",
    }
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def main():
    devport = os.path.realpath(sys.argv[1])
    browser = find_chromium()
    if not browser:
        print("skipped: no chromium on PATH (scripts/bootstrap.sh installs Debian's chromium)")
        return 77
    with tempfile.TemporaryDirectory(prefix="devport-html-") as tmp:
        proj = os.path.join(tmp, "proj")
        write_project(proj)
        baseline = os.path.join(tmp, "old.json")
        with open(baseline, "w") as f:
            subprocess.run([devport, "check", "--format", "json", proj], stdout=f, check=False)
        # One finding fixed, one new since the baseline.
        with open(os.path.join(proj, "models/net.py"), "a") as f:
            f.write("t = torch.cuda.device_count()\n")
        train = os.path.join(proj, "train.py")
        text = open(train).read().replace("n = torch.cuda.device_count()\n", "")
        open(train, "w").write(text)

        page = os.path.join(tmp, "report.html")
        r = subprocess.run([devport, "report", "--baseline", baseline, "-o", page, proj],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"devport report exited {r.returncode}: {r.stderr}")
        html = open(page).read()

        probed = os.path.join(tmp, "probed.html")
        with open(probed, "w") as f:
            f.write(html.replace("</body>", PROBE + "\n</body>"))
        r = chromium(browser, "--dump-dom", "file://" + probed + "#sort=dirs.dir.asc")
        m = re.search(r'<pre id="probe">(.*?)</pre>', r.stdout, re.S)
        check(m is not None, "the probe ran (chromium --dump-dom): " + r.stderr[-500:])
        if m:
            out = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<")
                             .replace("&gt;", ">").replace("&amp;", "&"))
            bars = out["bars"]
            families = {b["family"] for b in bars}
            check({"device-runtime", "device-check", "device-placement", "keep"} <= families,
                  f"a bar per rule family: {sorted(families)}")
            check(all(b["width"] > 0 and b["height"] > 0 for b in bars),
                  f"every bar has a laid-out size: {bars}")
            runtime = [b for b in bars if b["family"] == "device-runtime"]
            check({"s-safe", "s-unsafe"} <= {b["cls"] for b in runtime},
                  f"device-runtime has safe and unsafe segments: {runtime}")
            # #sort=dirs.dir.asc in the address: by name, ascending.
            check(out["order"] == sorted(out["order"]) and len(out["order"]) == 3,
                  f"sorted by directory from the address: {out['order']}")
            check(out["hashSort"] == "ascending", f"aria-sort from the address: {out['hashSort']}")
            first, second = out["clicks"]
            check(first["sort"] == "descending" and second["sort"] == "ascending",
                  f"a click sorts numbers high first, a second click flips: {out['clicks']}")
            check(first["order"][0] == "tests" and second["order"][-1] == "tests",
                  f"tests (2 files) first, then last: {out['clicks']}")

        shot = os.path.join(tmp, "shot.png")
        r = chromium(browser, f"--screenshot={shot}", "--window-size=1000,700",
                     "file://" + page)
        check(os.path.exists(shot), "a screenshot was taken: " + r.stderr[-500:])
        if os.path.exists(shot):
            width, height, rows = png_pixels(shot)
            check((width, height) == (1000, 700), f"screenshot size {width}x{height}")
            colours = set()
            for row in rows[::4]:
                colours.update(row[::4])
            check(len(colours) > 20, f"the screenshot is not blank ({len(colours)} colours)")
            for name, rgb in (("safe", SAFE), ("unsafe", UNSAFE), ("manual", MANUAL)):
                check(any(near(c, rgb) for c in colours), f"the chart's {name} colour is drawn")
            if os.environ.get("KEEP_SCREENSHOT"):
                shutil.copy(shot, os.environ["KEEP_SCREENSHOT"])
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("html report: rendered by", browser, "- bars, sorting and screenshot OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
