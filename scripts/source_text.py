"""Shared by the sisimai extraction scripts: source text without its line comments."""

def strip_comments(src, quotes, comment):
    """`src` without `comment`-to-end-of-line runs outside string literals opened by one of `quotes`."""
    out, i, quote = [], 0, None
    while i < len(src):
        c = src[i]
        if quote:
            out.append(c)
            if c == "\\": out.append(src[i + 1]); i += 1
            elif c == quote: quote = None
        elif c in quotes: quote = c; out.append(c)
        elif src.startswith(comment, i):
            while i < len(src) and src[i] != "\n": i += 1
            continue
        else: out.append(c)
        i += 1
    return "".join(out)
