"""The mutation operators: where each applies in a Swift file and what it writes there.

Every operator searches the mask of `lexer.mask`, so comments, strings, imports, directives and
attributes are never touched. Binary operators are mutated only when written with white space on
both sides, as this code base writes them: `a < b` is a comparison, `Result<A, B>` and `-> T` are
not.

Each mutant has an id that survives edits elsewhere in its file:
`path@scope#k operator original -> replacement`, where `scope` is the enclosing declaration
(`scopes.py`: `RSSIGate.init`, `TransferChunker.Iterator.next`, a stored property's own name) and
`k` counts that exact mutation (operator, original, replacement) within the scope, from 1 in file
order. Its place for humans, `path:line:col`, is `location`.
"""

import re
from dataclasses import dataclass, field, replace

from . import faults, lexer, scopes

OPERATORS = ("relational", "arithmetic", "logical", "negation", "constant", "boolean", "call", "event")

_RELATIONAL = {
    "<": ("<=", ">="), "<=": ("<", ">"), ">": (">=", "<="), ">=": (">", "<"),
    "==": ("!=",), "!=": ("==",),
}
_ARITHMETIC = {"+": ("-",), "-": ("+",), "*": ("/",), "/": ("*",),
               "+=": ("-=",), "-=": ("+=",), "*=": ("/=",), "/=": ("*=",)}
_LOGICAL = {"&&": ("||",), "||": ("&&",)}
_OPERATOR_RUN = re.compile(r"[-=+!*%<>&|^~?/.]+")
_BOOLEAN = re.compile(r"\b(true|false)\b")
_DECIMAL = re.compile(r"\b\d[\d_]*\b")
_HEX = re.compile(r"\b0x[0-9A-Fa-f_]+\b")
_CALL_START = re.compile(
    r"^([ \t]*)((?:try[?!]?[ \t]+)?(?:await[ \t]+)?)([A-Za-z_]\w*(?:[?!]?\.[A-Za-z_]\w*)*)\(", re.M)
_KEYWORDS = {
    "if", "guard", "while", "switch", "return", "for", "case", "let", "var", "func", "init",
    "throw", "catch", "defer", "else", "repeat", "in", "where", "do", "try", "await", "is", "as",
    "some", "any", "super", "fatalError", "precondition", "preconditionFailure", "assert",
    "assertionFailure", "print", "withExtendedLifetime",
}
_ENUM = re.compile(r"\benum[ \t]+(\w*Event)\b[^{]*\{")
_ENUM_CASE = re.compile(r"^[ \t]*(?:indirect[ \t]+)?case[ \t]+(.+)$", re.M)
_EMIT = re.compile(r"\b(?:emit|yield)\(\s*\.([A-Za-z_]\w*)\b")


@dataclass(frozen=True)
class Mutant:
    """One change of one file: `source[offset:offset+len(original)]` becomes `replacement`."""
    path: str
    offset: int
    original: str
    replacement: str
    operator: str
    line: int
    col: int
    label: str = field(default="")  # the original as the id shows it (calls: the callee)
    scope: str = field(default=scopes.TOP)  # the enclosing declaration (scopes.py)
    ordinal: int = field(default=1)  # k: this exact mutation's occurrence within the scope
    fault: str = field(default="")  # the deliberate fault without which this code does nothing (faults.py)

    @property
    def mutation(self):
        """`operator original -> replacement`, as the id shows it."""
        return f"{self.operator} {self.label or self.original} -> {self.replacement or '(removed)'}"

    @property
    def id(self):
        return f"{self.path}@{self.scope}#{self.ordinal} {self.mutation}"

    @property
    def location(self):
        return f"{self.path}:{self.line}:{self.col}"

    def apply(self, source):
        end = self.offset + len(self.original)
        assert source[self.offset:end] == self.original, f"{self.id}: the source changed"
        return source[:self.offset] + self.replacement + source[end:]

    def diff(self, source):
        """A unified-style diff of the changed lines."""
        mutated = self.apply(source)
        before = source.splitlines()
        after = mutated.splitlines()
        first = self.line - 1
        removed_lines = self.original.count("\n") + 1
        added_lines = self.replacement.count("\n") + 1 if self.replacement or removed_lines == 1 else 1
        out = [f"--- a/{self.path}", f"+++ b/{self.path}",
               f"@@ -{self.line},{removed_lines} +{self.line},{added_lines} @@"]
        out += ["-" + text for text in before[first:first + removed_lines]]
        out += ["+" + text for text in after[first:first + added_lines]]
        return "\n".join(out)


def _spaced(masked, start, end):
    before = masked[start - 1] if start > 0 else "\n"
    after = masked[end] if end < len(masked) else "\n"
    return before.isspace() and after.isspace()


def _binary(masked, table):
    for m in _OPERATOR_RUN.finditer(masked):
        token = m.group()
        if token in table and _spaced(masked, m.start(), m.end()):
            for replacement in table[token]:
                yield m.start(), token, replacement


def _negations(masked):
    for m in _OPERATOR_RUN.finditer(masked):
        if m.group() != "!":
            continue
        before = masked[m.start() - 1] if m.start() > 0 else "\n"
        after = masked[m.end()] if m.end() < len(masked) else "\n"
        if (before.isspace() or before in "([{,:=") and (after.isalpha() or after in "_(.$"):
            yield m.start(), "!", ""


def _constant_replacements(value):
    out = [value + 1]
    if value > 0:
        out.append(value - 1)
    if value == 1024:
        out.append(1000)
    elif value == 1000:
        out.append(1024)
    elif value >= 2:
        out.append(value * 1000)
    return out


def _constants(masked):
    for m in _HEX.finditer(masked):
        value = int(m.group()[2:].replace("_", ""), 16)
        for replacement in (value + 1, value - 1):
            if replacement >= 0:
                yield m.start(), m.group(), hex(replacement)
    for m in _DECIMAL.finditer(masked):
        start, end = m.start(), m.end()
        before = masked[start - 1] if start > 0 else " "
        after = masked[end] if end < len(masked) else " "
        # `x.0` (a tuple element) and `1.5` (a float) are not integer constants; `0..<n` is.
        if before == "." and not masked[max(0, start - 3):start] in ("...", "..<"):
            continue
        if after == "." and masked[end:end + 2] != ".." or after in "eE" or before.isalnum():
            continue
        if masked[start:start + 2].lower() == "0x":
            continue
        value = int(m.group().replace("_", ""))
        for replacement in _constant_replacements(value):
            yield start, m.group(), str(replacement)


def _booleans(masked):
    for m in _BOOLEAN.finditer(masked):
        yield m.start(), m.group(), "false" if m.group() == "true" else "true"


def _previous_code_char(masked, offset):
    i = offset - 1
    while i >= 0 and masked[i].isspace():
        i -= 1
    return i


def _statement_boundary(masked, line_start):
    """True when the line at `line_start` starts a statement (not a continued expression)."""
    i = _previous_code_char(masked, line_start)
    if i < 0:
        return True
    c = masked[i]
    if c in "{};":
        return True
    if c == ":":  # `case .x:` / `default:` ends a label; `f(a:` continues a call
        start = masked.rfind("\n", 0, i) + 1
        head = masked[start:i].strip()
        return head.startswith("case ") or head == "default"
    if c in ")]\"" or c.isalnum() or c in "_?!":
        start = masked.rfind("\n", 0, i) + 1
        words = masked[start:i + 1].split()
        return bool(words) and words[-1] not in ("return", "try", "await", "throw", "=", "in", "else")
    return False


def _calls(masked):
    for m in _CALL_START.finditer(masked):
        callee = m.group(3)
        if callee.split(".")[0].rstrip("?!") in _KEYWORDS:
            continue
        open_paren = m.end() - 1
        close = lexer._skip_parens(masked, open_paren)
        if close < 0:
            continue
        line_end = masked.find("\n", close)
        line_end = len(masked) if line_end < 0 else line_end
        if masked[close:line_end].strip():
            continue  # a trailing closure, a chained call, an operator: not a bare call statement
        if not _statement_boundary(masked, m.start()):
            continue
        start = m.start() + len(m.group(1))
        yield start, close, callee


def event_enums(module_texts):
    """Event enum cases of a module, grouped by their associated values: {signature: [names]}."""
    groups = {}
    for text in module_texts:
        masked = lexer.mask(text)
        for m in _ENUM.finditer(masked):
            body_end = _matching_brace(masked, m.end() - 1)
            body = masked[m.end():body_end]
            depth_zero = _top_level(body)
            for case in _ENUM_CASE.finditer(depth_zero):
                for item in _split_cases(body[case.start(1):case.end(1)]):
                    name, _, signature = item.partition("(")
                    name = name.split("=")[0].strip()
                    if name.isidentifier():
                        key = (m.group(1), "(" + signature.strip() if signature else "")
                        groups.setdefault(key, []).append(name)
    return groups


def _matching_brace(masked, i):
    depth = 0
    for j in range(i, len(masked)):
        if masked[j] == "{":
            depth += 1
        elif masked[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(masked)


def _top_level(body):
    """`body` with everything inside nested braces blanked (the enum's own cases only)."""
    out = []
    depth = 0
    for c in body:
        if c == "{":
            depth += 1
        if depth and c != "\n":
            out.append(" ")
        else:
            out.append(c)
        if c == "}":
            depth -= 1
    return "".join(out)


def _split_cases(text):
    items, depth, current = [], 0, ""
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        items.append(current.strip())
    return items


def _events(masked, groups):
    swaps = {}
    for names in groups.values():
        for name in names:
            swaps.setdefault(name, set()).update(n for n in names if n != name)
    for m in _EMIT.finditer(masked):
        name = m.group(1)
        for other in sorted(swaps.get(name, ())):
            yield m.start(1), name, other


def mutants(path, text, operators=OPERATORS, events=None):
    """Every mutant of `text` (the file at repository path `path`) for the chosen operators;
    `events` are the module's event enums (`event_enums` of all its files), else this file's."""
    masked = lexer.mask(text)
    found = []

    def add(offset, original, replacement, operator, label=""):
        line, col = lexer.line_col(text, offset)
        found.append(Mutant(path, offset, original, replacement, operator, line, col, label))

    if "relational" in operators:
        for offset, original, replacement in _binary(masked, _RELATIONAL):
            add(offset, original, replacement, "relational")
    if "arithmetic" in operators:
        for offset, original, replacement in _binary(masked, _ARITHMETIC):
            add(offset, original, replacement, "arithmetic")
    if "logical" in operators:
        for offset, original, replacement in _binary(masked, _LOGICAL):
            add(offset, original, replacement, "logical")
    if "negation" in operators:
        for offset, original, replacement in _negations(masked):
            add(offset, original, replacement, "negation")
    if "constant" in operators:
        for offset, original, replacement in _constants(masked):
            add(offset, original, replacement, "constant")
    if "boolean" in operators:
        for offset, original, replacement in _booleans(masked):
            add(offset, original, replacement, "boolean")
    if "call" in operators:
        for start, end, callee in _calls(masked):
            add(start, text[start:end], "", "call", label=callee + "(...)")
    if "event" in operators:
        for offset, original, replacement in _events(masked, events if events is not None else event_enums([text])):
            add(offset, original, replacement, "event")
    found.sort(key=lambda m: (m.offset, OPERATORS.index(m.operator), m.replacement))
    found = [replace(m, fault=faults.fault_only(masked, m.offset, m.offset + len(m.original)) or "") for m in found]
    return numbered(found, scopes.Scopes(masked))


def numbered(found, scope_of):
    """The mutants (in file order) with their scope and their ordinal within it."""
    seen = {}
    out = []
    for mutant in found:
        scope = scope_of.name(mutant.offset)
        key = (scope, mutant.mutation)
        seen[key] = seen.get(key, 0) + 1
        out.append(replace(mutant, scope=scope, ordinal=seen[key]))
    return out
