"""Mutants only a deliberate fault reaches, which no case can catch on the reference.

The broken variants (`SparkDefects`, the transmitter's faults) are written into the reference as
terms `defects.contains(.name)`, false unless that variant runs. Code that only counts when such a
term is true is dead on the reference: a mutant there changes nothing the suite runs, so it is
left out of the score rather than reported as a survivor (docs/mutation.md, "Variant-only code").
A mutant is variant-only when, on its line, it lies

- in another operand of an `&&` chain that has a fault term as one of its operands
  (`reason == .ended && defects.contains(.x)`: the `==`);
- in an item of a condition list beside an item false unless a fault is on
  (`if n > 0 && defects.contains(.x), m < 1`: the `m < 1`), a condition list's commas binding
  looser than a ternary, `||` and `&&` (`a || defects.contains(.x), b`: `b` runs on the reference);
- in the branch a ternary takes on a fault term (`defects.contains(.x) ? 1 : 0`: the `1`);

or in the body of an `if` whose condition is such a chain or a lone fault term (a closure inside
the condition included), or of a `case` whose `where` clause is. A mutant inside brackets (`events.indices.contains(n + 1)`) is judged
as the bracketed group when its own expression is not gated, and an `if`, `guard` or `while`
condition continued over several lines (each ending in `,`, `&&` or `||`) is read whole.
A negated term
(`!defects.contains(.x)`) is true on the reference, so what it guards is not variant-only.
"""

import re

_FAULT = re.compile(r"(?:\w+\.)*defects\.contains\(\s*\.(\w+)\s*\)")
_OPEN, _CLOSE = "([{", ")]}"
_IF = re.compile(r"(?:^|[}\s])(?:else\s+)?if\s+(.*)$", re.S)


def _fault_term(text):
    """The fault's name when `text` is exactly one un-negated fault term, else None."""
    found = _FAULT.fullmatch(_unwrapped(text))
    return found.group(1) if found else None


def _closer(text, index):
    """The index of the bracket closing the one at `index`, or -1."""
    depth = 0
    for position in range(index, len(text)):
        if text[position] in _OPEN:
            depth += 1
        elif text[position] in _CLOSE:
            depth -= 1
            if depth == 0:
                return position
    return -1


def _top_level_splits(text, separators):
    """The offsets in `text` where one of `separators` starts outside every bracket. A closer
    with no opener in `text` (the `}` of `} else if …`) leaves the top level where it was."""
    depth, found, position = 0, [], 0
    while position < len(text):
        char = text[position]
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            for separator in separators:
                if text.startswith(separator, position):
                    found.append((position, separator))
                    position += len(separator) - 1
                    break
        position += 1
    return found


def _pieces(text, separators):
    """`text` cut at its top-level separators: (start, end) spans."""
    spans, start = [], 0
    for position, separator in _top_level_splits(text, separators):
        spans.append((start, position))
        start = position + len(separator)
    spans.append((start, len(text)))
    return spans


def _in_fault_conjunct(text, start, end, condition_list):
    """The fault name when [start, end) lies where only a fault makes it count: inside an
    operand of a conjunction of `text` with an operand false unless a fault is on, or on an
    operator joining fault terms only. Looser binds first: a condition list's commas (a
    conjunction of its items), then a ternary (its condition, or the branch holding the
    mutant), `||`, `&&`."""
    low, high = 0, len(text)
    if condition_list:
        items = _pieces(text, (", ",))
        item = next(((a, b) for a, b in items if a <= start < b), None)
        if item is None:
            return None
        fault = next((f for f in (_needs_fault(text[a:b]) for a, b in items if (a, b) != item) if f), None)
        if fault and end <= item[1]:
            return fault
        low, high = item
    marks = _top_level_splits(text[low:high], (" ? ",))
    if marks:
        question = low + marks[0][0]
        if start < question:
            high = question
        else:
            colons = _top_level_splits(text[question:high], (" : ",))
            colon = question + colons[0][0] if colons else high
            low, high = (question + 3, colon) if start < colon else (colon + 3, high)
    if _only_faults(text[low:high]) and low <= start and end <= high:
        return _only_faults(text[low:high])
    for a, b in _pieces(text[low:high], (" || ",)):
        a, b = low + a, low + b
        if not a <= start < b:
            continue
        conjuncts = [(a + c, a + d) for c, d in _pieces(text[a:b], (" && ",))]
        faults = [_needs_fault(text[c:d]) for c, d in conjuncts]
        for (c, d), fault in zip(conjuncts, faults):
            if c <= start and end <= d:
                return next((other for other, (e, _) in zip(faults, conjuncts) if other and e != c), None)
    return None


def _unwrapped(text):
    """`text` without a leading `if`/`guard`/`while`/`return`, an assignment's left side, a
    trailing `else` or `:`, and brackets around the whole."""
    stripped = re.sub(r"(?:\s+else|:)\s*$", "", text.strip()).strip()
    stripped = re.sub(r"^(?:\}\s*)?(?:else\s+)?(?:if|guard|while|return)\s+", "", stripped)
    assignments = _top_level_splits(stripped, (" = ",))
    if assignments:
        position, separator = assignments[-1]
        stripped = stripped[position + len(separator):].strip()
    while stripped.startswith("(") and stripped.endswith(")") and _closer(stripped, 0) == len(stripped) - 1:
        stripped = stripped[1:-1].strip()
    return stripped


def _clauses(text):
    """`text` unwrapped, and its `||` disjuncts, each as its unwrapped `&&` conjuncts."""
    text = _unwrapped(text)
    return text, [[_unwrapped(text[a:b][c:d]) for c, d in _pieces(text[a:b], (" && ",))] for a, b in _pieces(text, (" || ",))]


def _needs_fault(text):
    """The fault name when `text` is false unless a fault is on: a fault term, or an `&&` chain
    with such an operand, or an `||` of such operands only (no ternary)."""
    text, clauses = _clauses(text)
    if _top_level_splits(text, (" ? ",)):
        return None
    found = None
    for conjuncts in clauses:
        fault = next((f for f in (_fault_term(c) or (_needs_fault(c) if c != text else None) for c in conjuncts) if f), None)
        if not fault:
            return None
        found = found or fault
    return found


def _only_faults(text):
    """The first fault name when `text` joins fault terms only, with `||` and `&&`: false on
    the reference whatever its operators are."""
    text, clauses = _clauses(text)
    faults = [_fault_term(leaf) or (_only_faults(leaf) if leaf != text else None) for conjuncts in clauses for leaf in conjuncts]
    return faults[0] if faults and all(faults) else None


def _ternary_branch(text, start, end):
    """The fault name when [start, end) lies in the branch a ternary of `text` takes on a
    condition false unless a fault is on."""
    for position, _ in _top_level_splits(text, (" ? ",)):
        condition = text[:position]
        colons = [p for p, _ in _top_level_splits(text[position:], (" : ",))]
        if not colons:
            continue
        branch = (position + 3, position + colons[0])
        head = max([p + len(s) for p, s in _top_level_splits(condition, (" = ", "return ", ", ", ": "))] + [0])
        fault = _needs_fault(condition[head:])
        if fault and branch[0] <= start and end <= branch[1]:
            return fault
    return None


_CONDITION = re.compile(r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|guard|while)\s")


_CONTINUED = re.compile(r"(?:,|&&|\|\|)\s*$")


def _line_span(masked, start, end):
    """The line holding [start, end), or the whole condition when that line is part of an `if`,
    `guard` or `while` condition continued over lines ending in `,`, `&&` or `||`."""
    line_start = masked.rfind("\n", 0, start) + 1
    line_end = masked.find("\n", end)
    line_end = len(masked) if line_end < 0 else line_end
    head = line_start
    while head > 0:
        previous = masked.rfind("\n", 0, head - 1) + 1
        if not _CONTINUED.search(masked[previous:head - 1]):
            break
        head = previous
    if not _CONDITION.match(masked[head:line_end]):
        return line_start, line_end
    tail = line_end
    while tail < len(masked) and _CONTINUED.search(masked[masked.rfind("\n", 0, tail) + 1:tail]):
        following = masked.find("\n", tail + 1)
        tail = len(masked) if following < 0 else following
    return head, tail


def _expression_around(masked, start, end):
    """The expression holding [start, end) (on its line, or in its whole multi-line condition):
    the comma-separated item of its innermost bracket group, else the line up to or from a
    top-level brace (a condition list whole). Its text (line breaks read as spaces), offset,
    whether it is a condition list (`if`, `guard`, `while`: commas conjoin), and the innermost
    bracket group's span when there is one."""
    line_start, line_end = _line_span(masked, start, end)
    masked = masked[:line_start] + masked[line_start:line_end].replace("\n", " ") + masked[line_end:]
    openers = []
    for position in range(line_start, start):
        if masked[position] in _OPEN:
            openers.append(position)
        elif masked[position] in _CLOSE and openers:
            openers.pop()
    low, high = line_start, line_end
    if openers:
        opener = openers[-1]
        closer = _closer(masked, opener)
        low, high = opener + 1, (closer if closer >= end else line_end)
        if masked[opener] != "{":
            text = masked[low:high]
            group = (opener, closer + 1 if closer >= end else line_end)
            for a, b in _pieces(text, (",",)):
                if a <= start - low and end - low <= b:
                    return text[a:b], low + a, False, group
            return text, low, False, group
    # At the line's (or a brace body's) top level: up to the next top-level brace.
    depth = 0
    for position in range(start, high):
        char = masked[position]
        if char in _OPEN:
            if depth == 0 and char == "{":
                high = position
                break
            depth += 1
        elif char in _CLOSE:
            depth -= 1
    text = masked[low:high]
    return text, low, bool(_CONDITION.match(text)), None


def _statement_start(masked, brace):
    """Where the statement whose block opens at `brace` starts: its line, or, when a parenthesis
    or square bracket closed on that line opened on an earlier one (a closure inside an `if`
    condition), that line; a condition continued over lines is read whole too. Braces outside
    brackets are not crossed: `} else if` starts at its own line."""
    depth, position = 0, brace - 1
    while position >= 0:
        char = masked[position]
        if char in ")]":
            depth += 1
        elif char in "([":
            if depth == 0:
                break
            depth -= 1
        elif char == "\n" and depth == 0:
            break
        position -= 1
    return _line_span(masked, position + 1, position + 1)[0]


def _guarded_body(masked, start):
    """The fault name when `start` lies in the body of an `if` whose condition needs a fault term."""
    depth, position = 0, start - 1
    while position >= 0:
        char = masked[position]
        if char in _CLOSE:
            depth += 1
        elif char in _OPEN:
            if depth == 0 and char == "{":
                head_start = _statement_start(masked, position)
                head = _IF.search(masked[head_start:position].replace("\n", " "))
                if head:
                    condition = head.group(1).strip()
                    fault = next((f for f in (_needs_fault(condition[a:b]) for a, b in _pieces(condition, (",",))) if f), None)
                    if fault:
                        return fault
            elif depth > 0:
                depth -= 1
        position -= 1
    return None


_CASE_WHERE = re.compile(r"^\s*case\b.*\bwhere\s+(.*?):\s*$")


def _case_body(masked, start):
    """The fault name when `start` lies in the body of a `case … where …:` whose clause needs a
    fault term (the body: the more-indented lines under the label)."""
    line_start = masked.rfind("\n", 0, start) + 1
    line = masked[line_start:masked.find("\n", start) if "\n" in masked[start:] else len(masked)]
    indent = len(line) - len(line.lstrip())
    position = line_start - 1
    while position > 0:
        previous_start = masked.rfind("\n", 0, position) + 1
        previous = masked[previous_start:position]
        position = previous_start - 1
        if not previous.strip():
            continue
        if len(previous) - len(previous.lstrip()) >= indent:
            continue
        label = _CASE_WHERE.match(previous)
        if not label:
            return None
        clause = label.group(1)
        return next((f for f in (_needs_fault(clause[a:b]) for a, b in _pieces(clause, (", ",))) if f), None)
    return None


def fault_only(masked, start, end):
    """The name of the deliberate fault without which the code at [start, end) of `masked` (the
    lexer's mask of a file) does nothing, or None when the reference runs it."""
    while True:
        text, offset, condition, group = _expression_around(masked, start, end)
        local = (start - offset, end - offset)
        fault = _in_fault_conjunct(text, *local, condition) or _ternary_branch(text, *local)
        if fault or group is None:
            break
        start, end = group
    return fault or _guarded_body(masked, start) or _case_body(masked, start)
