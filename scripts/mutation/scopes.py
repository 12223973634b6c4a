"""The declaration that encloses each offset of a Swift file, for mutant ids that survive edits.

`scopes(masked)` scans the mask of `lexer.mask` once and returns a function that names the
declaration enclosing an offset, as a dotted path such as `RSSIGate.init` or
`Transmitter.send.options`: the types, extensions, functions, initialisers, subscripts and
properties whose braces hold it. A type's stored property or enum case (no braces of its own)
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
    "func": re.compile(r"\s*([^\s(<]+)"),
    "var": re.compile(r"\s*\(?\s*([A-Za-z_]\w*)"),
    "let": re.compile(r"\s*\(?\s*([A-Za-z_]\w*)"),
    "case": re.compile(r"\s*([A-Za-z_]\w*)"),
}
_TYPE_NAME = re.compile(r"\s*([A-Za-z_][\w.]*)")
TOP = "<file>"


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
        stack = []  # open delimiters: (char, index into self.braces or None)
        start = 0
        for i, c in enumerate(masked):
            self.statement[i] = start
            if c == "{":
                found = declaration(masked[start:i])
                index = None
                if found:
                    index = len(self.braces)
                    self.braces.append([i, len(masked), found[0], found[1]])
                stack.append(("{", index))
                start = i + 1
            elif c == "}":
                while stack and stack[-1][0] != "{":
                    stack.pop()
                if stack:
                    _, index = stack.pop()
                    if index is not None:
                        self.braces[index][1] = i
                start = i + 1
            elif c in "([":
                stack.append((c, None))
            elif c in ")]":
                if stack and stack[-1][0] != "{":
                    stack.pop()
            elif c in "\n;" and (not stack or stack[-1][0] == "{"):
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
