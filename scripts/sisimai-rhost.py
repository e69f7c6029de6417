#!/usr/bin/env python3
"""Extracts sisimai's data (rb-sisimai, BSD 2-clause, Copyright (C) 2014 azumakuniyuki): the
per-remote-host tables (lib/sisimai/rhost/*.rb) into src/core/bounce/data/sisimai-rhost.json, and
with `reasons` the reason phrase lists (lib/sisimai/reason/*.rb) and the status table
(lib/sisimai/smtp/status.rb) into src/core/bounce/data/sisimai-reasons.json. Only data (host
suffixes, codes, phrases, reason names) is taken; the matching is postern's own (rhost.ts,
sisimai-reason.ts). Usage: scripts/sisimai-rhost.py <rb-sisimai git dir> [reasons] > the json file."""
import ast, json, re, subprocess, sys

GIT = sys.argv[1]
show = lambda path: subprocess.run(["git", f"--git-dir={GIT}", "show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout
show_tree = lambda d: subprocess.run(["git", f"--git-dir={GIT}", "ls-tree", "--name-only", "HEAD", d], capture_output=True, text=True, check=True).stdout.split()
commit = subprocess.run(["git", f"--git-dir={GIT}", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
version = re.search(r"VERSION = '([^']+)'", show("lib/sisimai/version.rb")).group(1)

def strip_comments(src):
    out, quote = [], None
    i = 0
    while i < len(src):
        c = src[i]
        if quote:
            out.append(c)
            if c == "\\": out.append(src[i + 1]); i += 1
            elif c == quote: quote = None
        elif c in "'\"": quote = c; out.append(c)
        elif c == "#":
            while i < len(src) and src[i] != "\n": i += 1
            continue
        else: out.append(c)
        i += 1
    return "".join(out)

def constant(src, name):
    """The Ruby literal assigned to `name` (a Hash or an Array), as Python data."""
    m = re.search(rf"\b{name}\s*=\s*([\[{{])", src)
    if not m: return None
    start, depth, quote = m.start(1), 0, None
    for i in range(start, len(src)):
        c = src[i]
        if quote:
            if c == quote: quote = None
        elif c in "'\"": quote = c
        elif c in "[{": depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0: break
    literal = src[start:i + 1].replace("=>", ":")
    return ast.literal_eval(literal)

hosts = constant(strip_comments(show("lib/sisimai/rhost.rb")), "RhostClass")
modules = {}
for name in ["Apple", "Cox", "GoDaddy", "Google", "KDDI", "Microsoft", "Mimecast", "Spectrum", "Tencent", "YahooInc"]:
    src = strip_comments(show(f"lib/sisimai/rhost/{name.lower()}.rb"))
    entry = {k: v for k in ["ErrorCodes", "MessagesOf"] if (v := constant(src, k)) is not None}
    modules[name] = entry
meta = {"version": version, "commit": commit, "licence": "BSD-2-Clause, Copyright (C) 2014 azumakuniyuki"}
if len(sys.argv) > 2 and sys.argv[2] == "reasons":
    reasons = {}
    for path in show_tree("lib/sisimai/reason/"):
        src = strip_comments(show(path))
        name = path.rsplit("/", 1)[1][:-3]
        entry = {k: v for k in ["Index", "Pairs", "IsNot"] if (v := constant(src, k)) is not None}
        if entry: reasons[name] = entry
    status = constant(strip_comments(show("lib/sisimai/smtp/status.rb")), "StandardCode")
    json.dump({"source": "https://github.com/sisimai/rb-sisimai lib/sisimai/reason/*.rb (Index, Pairs, IsNot) and lib/sisimai/smtp/status.rb (StandardCode)",
               **meta, "reasons": reasons, "status": status}, sys.stdout, indent=1, ensure_ascii=False)
else:
    json.dump({"source": "https://github.com/sisimai/rb-sisimai lib/sisimai/rhost.rb and lib/sisimai/rhost/*.rb", **meta,
               "hosts": {k: v for k, v in hosts.items() if k in modules}, "modules": modules}, sys.stdout, indent=1, ensure_ascii=False)
print()
