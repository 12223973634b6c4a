"""The declaration that encloses each offset of a Swift file, for mutant ids that survive edits.

`scopes(masked)` scans the mask of `lexer.mask` once and returns a function that names the
declaration enclosing an offset, as a dotted path such as `RSSIGate.init` or
`Transmitter.send.options`: the types, extensions, functions (an operator function by its
operator, `Level.<`), initialisers, subscripts and properties whose braces hold it. A type's stored property or enum case (no braces of its own)
and a default value in a declaration's header are named by that declaration. Braces that
declare nothing (`if`, `for`, closures, accessors) are transparent. Offsets outside every
declaration are `<file>`.
"""

import re

_DECLARATION = re.compile(
    r"^\s*(?:(?:public|private|fileprivate|internal|open|package|static|class|final|override|mutating|"
    r"nonmutating|nonisolated|convenience|required|lazy|weak|unowned|indirect|dynamic|optional|consuming|"
    r"borrowing|distributed)(?:\([a-z]+\))?\s+)*"
    r"(func|init|deinit|subscript|var|let|struct|class|enum|actor|extension|protocol|case)\b(.*)", re.S)
_TYPES = ("struct", "class", "enum", "actor", "extension", "protocol")
_NAMED = {
    "func": re.compile(r"\s*([A-Za-z_]\w*|[-+*/%<>=!&|^~?.]+)"),
    "var": re.compile(r"\s*\(?\s*([A-Za-z_]\w*)"),
    "let": re.compile(r"\s*\(?\s*([A-Za-z_]\w*)"),
    "case": re.compile(r"\s*([A-Za-z_]\w*)"),
}
_TYPE_NAME = re.compile(r"\s*([A-Za-z_][\w.]*)")
TOP = "<file>"
# A line starting with one of these continues the declaration above it (`-> T {` under a long
# parameter list, a `where` clause).
_CONTINUATION = re.compile(r"\s*(?:->|where\b|throws\b|rethrows\b|async\b)")


def declaration(text):
    """(kind, name) when `text` (a statement's start) declares something, else None."""
    m = _DECLARATION.match(text)
    if not m:
        return None
    kind, rest = m.group(1), m.group(2)
    if kind in ("init", "deinit", "subscript"):
        return "member", kind
    pattern = _TYPE_NAME if kind in _TYPES else _NAMED[kind]
    name = pattern.match(rest)
    if not name:
        return None
    return ("type" if kind in _TYPES else "member"), name.group(1)


class Scopes:
    def __init__(self, masked):
        self.masked = masked
        self.braces = []  # (open, close, kind, name) of every brace pair that declares something
        self.statement = [0] * (len(masked) + 1)  # offset -> where its statement starts
        stack = []  # open delimiters: (char, index into self.braces or None, start to restore or None)
        start = 0
        earlier = []  # the statement starts before `start` since the last brace, for continuations
        for i, c in enumerate(masked):
            self.statement[i] = start
            if c == "{":
                header_start = start
                while _CONTINUATION.match(masked, header_start) and earlier:
                    header_start = earlier.pop()
                found = declaration(masked[header_start:i])
                index = None
                if found:
                    index = len(self.braces)
                    self.braces.append([i, len(masked), found[0], found[1]])
                # A closure inside parentheses (a default value, an argument) ends no statement.
                inside = bool(stack) and stack[-1][0] != "{"
                stack.append(("{", index, start if inside else None))
                start, earlier = i + 1, []
            elif c == "}":
                while stack and stack[-1][0] != "{":
                    stack.pop()
                restore = None
                if stack:
                    _, index, restore = stack.pop()
                    if index is not None:
                        self.braces[index][1] = i
                start, earlier = (restore, []) if restore is not None else (i + 1, [])
            elif c in "([":
                stack.append((c, None, None))
            elif c in ")]":
                if stack and stack[-1][0] != "{":
                    stack.pop()
            elif c in "\n;" and (not stack or stack[-1][0] == "{"):
                if masked[start:i].strip():
                    earlier.append(start)
                start = i + 1
        self.statement[len(masked)] = start

    def name(self, offset):
        """The dotted path of the declarations enclosing `offset`."""
        enclosing = [(kind, name) for open_, close, kind, name in self.braces if open_ < offset <= close]
        names = [name for _, name in enclosing]
        if not enclosing or enclosing[-1][0] == "type":
            start = self.statement[offset]
            end = self.masked.find("\n", start)
            own = declaration(self.masked[start:end if end >= 0 else len(self.masked)])
            if own:  # a stored property, an enum case, a default value or `where` clause in a header
                names.append(own[1])
        return ".".join(names) or TOP
