"""Masks the parts of Swift source that are never mutated.

`mask(text)` returns a string of the same length in which comments, string literals (with their
interpolations), import lines, compiler directives and attributes are replaced by spaces
(newlines kept; a string literal keeps a quote at each end), so every offset of the mask is the same offset in the source and the operators
can search the mask with plain regular expressions.
"""

import re

_IMPORT = re.compile(r"^[ \t]*(?:@[A-Za-z_]\w*(?:\([^)\n]*\))?[ \t]+)*import[ \t]", re.M)
_DIRECTIVE = re.compile(r"^[ \t]*#(?:if|elseif|else|endif|warning|error|sourceLocation)\b", re.M)
_ATTRIBUTE = re.compile(r"@[A-Za-z_]\w*")


class LexError(ValueError):
    """The source ends inside a comment or a string literal."""


def _blank(chars, start, end):
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _skip_block_comment(text, i):
    """`i` is at "/*"; returns the offset after the matching "*/" (block comments nest)."""
    depth = 0
    n = len(text)
    while i < n:
        if text.startswith("/*", i):
            depth += 1
            i += 2
        elif text.startswith("*/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    raise LexError("unterminated block comment")


def _skip_string(text, i):
    """`i` is at the string's first `#` or quote; returns the offset after its closing delimiter."""
    n = len(text)
    hashes = 0
    while i < n and text[i] == "#":
        hashes += 1
        i += 1
    multiline = text.startswith('"""', i)
    quote = '"""' if multiline else '"'
    i += len(quote)
    closing = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < n:
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                i = _skip_interpolation(text, j)
            else:
                i = j + 1
            continue
        if text.startswith(closing, i):
            return i + len(closing)
        if not multiline and text[i] == "\n":
            raise LexError("unterminated string literal")
        i += 1
    raise LexError("unterminated string literal")


def _skip_interpolation(text, i):
    """`i` is at the "(" of "\\("; returns the offset after the matching ")"."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
            if depth == 0:
                return i
        elif c == '"' or (c == "#" and _string_starts(text, i)):
            i = _skip_string(text, i)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = _skip_block_comment(text, i)
        else:
            i += 1
    raise LexError("unterminated string interpolation")


def _string_starts(text, i):
    j = i
    while j < len(text) and text[j] == "#":
        j += 1
    return j > i and j < len(text) and text[j] == '"'


def _skip_parens(text, i):
    """`i` is at "("; the offset after the matching ")" (strings and comments skipped), or -1."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == '"' or (c == "#" and _string_starts(text, i)):
            i = _skip_string(text, i)
            continue
        i += 1
    return -1


def mask(text):
    """The source with comments, strings, imports, directives and attributes blanked."""
    chars = list(text)
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            _blank(chars, i, end)
            i = end
        elif text.startswith("/*", i):
            end = _skip_block_comment(text, i)
            _blank(chars, i, end)
            i = end
        elif c == '"' or (c == "#" and _string_starts(text, i)):
            end = _skip_string(text, i)
            _blank(chars, i, end)
            chars[i] = chars[end - 1] = '"'  # a literal still ends an expression
            i = end
        elif c == "@" and (m := _ATTRIBUTE.match(text, i)):
            end = m.end()
            if end < n and text[end] == "(":
                close = _skip_parens(text, end)
                end = close if close > 0 else end
            _blank(chars, i, end)
            i = end
        else:
            i += 1
    masked = "".join(chars)
    for pattern in (_IMPORT, _DIRECTIVE):
        for m in pattern.finditer(masked):
            end = masked.find("\n", m.start())
            end = n if end < 0 else end
            _blank(chars, m.start(), end)
        masked = "".join(chars)
    return masked


def line_col(text, offset):
    """1-based line and column of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1
