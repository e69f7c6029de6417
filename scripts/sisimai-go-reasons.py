#!/usr/bin/env python3
"""Extracts the reason phrase lists and the status table of go-sisimai (the Go port the corpus labels
come from; BSD 2-clause, Copyright (c) 2020-2025, azumakuniyuki and sisimai development team) from
reason/why-*.go (index, pairs, isnot) and smtp/status/lib.go (Name's table) into the JSON shape of
src/core/bounce/data/sisimai-reasons.json. Only data is taken. Usage:
scripts/sisimai-go-reasons.py <go-sisimai git dir> > src/core/bounce/data/sisimai-reasons.json"""
import json, re, subprocess, sys
from source_text import strip_comments as strip

GIT = sys.argv[1]
git = lambda *a: subprocess.run(["git", f"--git-dir={GIT}", *a], capture_output=True, text=True, check=True).stdout
STRING = r'"((?:[^"\\]|\\.)*)"'

# Go: strings in "` quotes, comments from '//'.
strip_comments = lambda src: strip(src, '"`', '//')

def block(src, start):
    """The text of the brace block opening at or after `start`."""
    i, depth, quote, escaped = src.index("{", start), 0, None, False
    for j in range(i, len(src)):
        c = src[j]
        if quote:
            if escaped: escaped = False
            elif c == "\\": escaped = True
            elif c == quote: quote = None
        elif c == '"': quote = c
        elif c == "{": depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0: return src[i + 1:j]
    raise ValueError("unbalanced")

unq = lambda s: json.loads(f'"{s}"')
reasons = {}
for path in git("ls-tree", "--name-only", "HEAD", "reason/").split():
    m = re.match(r"reason/why-(\w+)\.go$", path)
    if not m: continue
    src = strip_comments(git("show", f"HEAD:{path}"))
    entry = {}
    for var, key in [("index", "Index"), ("isnot", "IsNot")]:
        if (at := re.search(rf"\b{var}\s*:=\s*\[\]string\s*{{", src)):
            entry[key] = [unq(s) for s in re.findall(STRING, block(src, at.start()))]
    if (at := re.search(r"\bpairs\s*:=\s*\[\]\[\]string\s*{", src)):
        inner = block(src, at.start())
        entry["Pairs"] = [[unq(s) for s in re.findall(STRING, g)] for g in re.findall(r"{([^{}]*)}", inner)]
    if entry: reasons[m.group(1)] = entry
if len(sys.argv) > 2 and sys.argv[2] == "microsoft":
    src = git("show", "HEAD:rhost/for-microsoft.go")
    src = "\n".join(l for l in src.split("\n") if not l.strip().startswith("//"))
    body = src[src.index("messagesof := map[string][][4]string{"):]
    table = {}
    for m in re.finditer(r'"(\w+)"\s*:\s*\[\]\[4\]string\s*{', body):
        inner = block(body, m.start())
        rows = re.findall(rf'\[4\]string\s*{{\s*{STRING}\s*,\s*{STRING}\s*,\s*{STRING}\s*,\s*{STRING}\s*}}', inner)
        table.setdefault(m.group(1), []).extend([a, int(b or 0), int(c or 0), unq(d)] for a, b, c, d in rows)
    json.dump({"source": "https://github.com/sisimai/go-sisimai rhost/for-microsoft.go", "commit": git("rev-parse", "HEAD").strip(),
               "licence": "BSD-2-Clause, Copyright (c) 2020-2025, azumakuniyuki and sisimai development team", "MessagesOf": table},
              sys.stdout, indent=1, ensure_ascii=False)
    print()
    sys.exit(0)
lib = git("show", "HEAD:smtp/status/lib.go")
table = lib[re.search(r"standardcr\s*:=\s*map\[string\]string\s*{", lib).end():]
table = table[:re.search(r"^\s*}", table, re.M).start()]
status = dict(re.findall(r'^\s*"([\d.]+)"\s*:\s*"(\w+)"', table, re.M))
commit = git("rev-parse", "HEAD").strip()
json.dump({"source": "https://github.com/sisimai/go-sisimai reason/why-*.go (index, pairs, isnot) and smtp/status/lib.go (Name)",
           "commit": commit, "licence": "BSD-2-Clause, Copyright (c) 2020-2025, azumakuniyuki and sisimai development team",
           "reasons": reasons, "status": status}, sys.stdout, indent=1, ensure_ascii=False)
print()

# With `microsoft`: go-sisimai's Microsoft table (rhost/for-microsoft.go, which took in the rules of
# rb-sisimai's Office 365 module), in the [status, from, to, phrase] shape of sisimai-rhost.json.
