#!/usr/bin/env python3
"""Extracts sisimai's per-remote-host tables (rb-sisimai lib/sisimai/rhost.rb and
lib/sisimai/rhost/*.rb, BSD 2-clause, Copyright (C) 2015-2017 azumakuniyuki) into
src/core/bounce/data/sisimai-rhost.json. Only data (host suffixes, codes, phrases, reason names) is
taken; the matching is postern's own (src/core/bounce/rhost.ts). The reason lists come from
go-sisimai: scripts/sisimai-go-reasons.py. Usage: scripts/sisimai-rhost.py <rb-sisimai git dir> > the json file."""
import ast, json, re, subprocess, sys
from source_text import strip_comments as strip

GIT = sys.argv[1]
show = lambda path: subprocess.run(["git", f"--git-dir={GIT}", "show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout
commit = subprocess.run(["git", f"--git-dir={GIT}", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
version = re.search(r"VERSION = '([^']+)'", show("lib/sisimai/version.rb")).group(1)

# Ruby: strings in '\" quotes, comments from '#'.
strip_comments = lambda src: strip(src, '\'"', '#')

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
meta = {"version": version, "commit": commit, "licence": "BSD-2-Clause, Copyright (C) 2015-2017 azumakuniyuki"}
json.dump({"source": "https://github.com/sisimai/rb-sisimai lib/sisimai/rhost.rb and lib/sisimai/rhost/*.rb", **meta,
           "hosts": {k: v for k, v in hosts.items() if k in modules}, "modules": modules}, sys.stdout, indent=1, ensure_ascii=False)
print()
