"""Exact arithmetic expressions for Tiro di precisione and La battaglia dadale (RULES TIR-2, BAT-2).

A small recursive-descent parser, never ``eval``: ``+ - * /`` (also written ``x`` and ``:``) and
parentheses over single-digit numbers; no unary minus, no digits joined into a larger number.
Values are :class:`fractions.Fraction`, so ``6*(5/6+1)`` is exactly 11.

>>> judge("6 x (5:6+1)", [6, 6, 5, 1]).value
Fraction(11, 1)
>>> judge("6 x (5:6+1)", [6, 6, 5, 1]).key
(1, 1, 0)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.message import Msg, msg
from engine.rules import CURRENT

# How the table writes each operator, and the one sign the engine keeps.
OPERATORS = {
    "+": "+",
    "-": "-",
    "*": "*",
    "x": "*",
    "X": "*",
    "×": "*",
    "/": "/",
    ":": "/",
    "÷": "/",
    "−": "-",
}


class ExpressionError(ValueError):
    """An expression that cannot be read or computed (the reason is the message)."""


# Each die is used once and a table throws a handful, so a written expression is short; the bound
# keeps the recursive parser and evaluator far from Python's recursion limit on hostile input.
MAX_TOKENS = 120
DIGITS = "0123456789"  # str.isdigit() also accepts "²" or "٣", which int() then refuses


@dataclass(frozen=True)
class Num:
    """One die's number."""

    value: int


@dataclass(frozen=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+ - * /``."""

    op: str
    left: Node
    right: Node


Node = Num | BinOp


# Each sign the table may write, as its token; a digit is its own token.
_TOKEN = {**{d: d for d in DIGITS}, **OPERATORS, "(": "(", "[": "(", ")": ")", "]": ")"}
_JOINED = re.compile("[0-9][0-9]")


def _tokens(text: str) -> list[str]:
    """The tokens of an expression; raises :class:`ExpressionError` for what is not one."""
    # The common case at once: known signs, no digits joined, not empty, not too long. Anything
    # else is read sign by sign below, which says what is wrong where.
    tokens = [_TOKEN.get(c, "") for c in text if not c.isspace()]
    if "" not in tokens and 0 < len(tokens) <= MAX_TOKENS and not _JOINED.search(text):
        return tokens
    return _read_tokens(text)


def _read_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in DIGITS:
            j = i
            while j < len(text) and text[j] in DIGITS:
                j += 1
            if j - i > 1:
                shown = text[i:j] if j - i <= 12 else f"{text[i : i + 6]}…"
                raise ExpressionError(msg("%(digits)s joins digits into one number", digits=shown))
            tokens.append(text[i:j])
            i = j
        elif c in OPERATORS:
            tokens.append(OPERATORS[c])
            i += 1
        elif c in "()[]":
            tokens.append("(" if c in "([" else ")")
            i += 1
        else:
            raise ExpressionError(
                msg("%(sign)r is not a number, an operator or a parenthesis", sign=c)
            )
        if len(tokens) > MAX_TOKENS:
            raise ExpressionError(msg("the expression is longer than %(n)s signs", n=MAX_TOKENS))
    if not tokens:
        raise ExpressionError(msg("the expression is empty"))
    return tokens


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expr(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            node = BinOp(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while self.peek() in ("*", "/"):
            op = self.take()
            node = BinOp(op, node, self.factor())
        return node

    def factor(self) -> Node:
        token = self.peek()
        if token is None:
            raise ExpressionError(msg("the expression ends too early"))
        if token == "(":
            self.take()
            node = self.expr()
            if self.peek() != ")":
                raise ExpressionError(msg("a parenthesis is not closed"))
            self.take()
            return node
        if token == "-":
            raise ExpressionError(
                msg("a minus sign must stand between two numbers (no unary minus)")
            )
        if token in DIGITS:
            self.take()
            return Num(int(token))
        raise ExpressionError(msg("%(token)r cannot stand here", token=token))


def parse(text: str) -> Node:
    """Parse an expression as the table writes it.

    >>> parse("3x5x1")
    BinOp(op='*', left=BinOp(op='*', left=Num(value=3), right=Num(value=5)), right=Num(value=1))
    >>> parse("-1+2")
    Traceback (most recent call last):
    ...
    engine.arithmetic.ExpressionError: a minus sign must stand between two numbers (no unary minus)
    """
    return _parsed(_tokens(text))


def _parsed(tokens: list[str]) -> Node:
    parser = _Parser(tokens)
    node = parser.expr()
    if parser.peek() is not None:
        raise ExpressionError(
            msg("unexpected %(token)r after a complete expression", token=parser.peek())
        )
    return node


def evaluate(node: Node, number: Callable[[int], Any] = Fraction) -> Any:
    """The exact value; division by zero raises :class:`ExpressionError` (TIR-2).

    ``number`` makes each die's number: an expression without a division may be computed with
    plain ``int`` (exact, and several times faster than fractions).
    """
    if isinstance(node, Num):
        return number(node.value)
    left, right = evaluate(node.left, number), evaluate(node.right, number)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if right == 0:
        raise ExpressionError(msg("it divides by zero"))
    return left / right


def numbers(node: Node) -> list[int]:
    """The numbers the expression uses, left to right."""
    if isinstance(node, Num):
        return [node.value]
    return numbers(node.left) + numbers(node.right)


def operations(node: Node) -> Counter[str]:
    """How many times each operator is used."""
    if isinstance(node, Num):
        return Counter()
    return Counter(node.op) + operations(node.left) + operations(node.right)


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def to_text(node: Node) -> str:
    """Print an expression with only the parentheses it needs.

    >>> to_text(parse("((6)) * ((5/6) + 1)"))
    '6*(5/6+1)'
    """
    if isinstance(node, Num):
        return str(node.value)
    p = _PRECEDENCE[node.op]
    left = to_text(node.left)
    if isinstance(node.left, BinOp) and _PRECEDENCE[node.left.op] < p:
        left = f"({left})"
    right = to_text(node.right)
    # The right side needs parentheses at equal precedence too: a-(b-c), a/(b*c).
    if isinstance(node.right, BinOp) and _PRECEDENCE[node.right.op] <= p:
        if not (node.op in "+*" and node.right.op == node.op):
            right = f"({right})"
    return f"{left}{node.op}{right}"


@dataclass(frozen=True)
class Judgement:
    """What an expression written at the table amounts to."""

    value: Fraction | None
    key: tuple[int, int, int]  # divisions, multiplications, subtractions (TIR-3)
    error: Msg | None  # why it is not a valid use of the dice, if it is not

    @property
    def valid(self) -> bool:
        return self.error is None


def judge(text: str, dice: Sequence[int], rules: int = CURRENT) -> Judgement:
    """Judge an expression against the dice it must use, each exactly once (TIR-2, BAT-2), under
    the revision ``rules`` of the rules (:mod:`engine.rules`).

    >>> judge("(5+4+2):1", [5, 4, 2, 1]).key
    (1, 0, 0)
    >>> judge("5+5", [5, 4]).error
    'it uses 5 5 but the dice show 4 5'

    Revision 1 (0.1) read any decimal digit as its number and bounded no expression:

    >>> judge("\uff16+1", [6, 1]).valid, judge("\uff16+1", [6, 1], rules=1).value
    (False, Fraction(7, 1))
    """
    if rules == 1 and not text.isascii():
        text = _decimal_digits(text)
    # A replay judges every expression of a match again, so the common case, a well-formed
    # expression that divides by no zero, is computed in one pass without a tree (_quick). Whatever
    # that pass does not accept is read again by the parser below, which alone words the errors.
    signs = text.translate(_CANONICAL)
    # Revision 1 (0.1) had no bound (MAX_TOKENS): its recursive parser read what Python's stack
    # held, a few hundred parentheses deep; _quick reads any length without recursion, and what
    # it does not accept (malformed, a division by zero) was not valid under 0.1 either.
    quick = _quick(signs) if len(signs) <= MAX_TOKENS or rules == 1 else None
    if quick is not None:
        value, used = quick
        # Each sign is one token here: the counts are those of the parser's tokens.
        key = (signs.count("/"), signs.count("*"), signs.count("-"))
        return _against(value, key, used, dice)
    try:
        tokens = _tokens(text)
        node = _parsed(tokens)
        # Every operator token is one operation of the tree and every digit one number (the
        # parser refuses anything else): counted on the tokens rather than walked in the tree.
        divisions = tokens.count("/")
        value = evaluate(node) if divisions else Fraction(evaluate(node, int))
    except ExpressionError as e:
        why = e.args[0]  # the Msg itself: str(e) would lose its message id
        return Judgement(None, (0, 0, 0), why if isinstance(why, Msg) else msg(str(why)))
    key = (divisions, tokens.count("*"), tokens.count("-"))
    return _against(value, key, [int(t) for t in tokens if t in DIGITS], dice)


def _decimal_digits(text: str) -> str:
    """Revision 1 of the rules (0.1) read a digit of any script as its number (``int()`` of a
    Unicode decimal digit: "\uff16" or "\u0663" is 6 or 3, TIR-2); since revision 2 the rules
    read ASCII digits only.

    >>> _decimal_digits("\u0663+\uff16")
    '3+6'
    """
    import unicodedata  # only revision 1 reads other digits

    return "".join(
        c if c.isascii() or not c.isdecimal() else str(unicodedata.decimal(c)) for c in text
    )


def _against(
    value: Fraction, key: tuple[int, int, int], used: list[int], dice: Sequence[int]
) -> Judgement:
    """The judgement of a computed expression: valid if it uses the dice, each exactly once."""
    used.sort()
    if used != sorted(dice):
        shown = " ".join(map(str, sorted(dice)))
        uses = " ".join(map(str, used))
        why = msg("it uses %(uses)s but the dice show %(dice)s", uses=uses, dice=shown)
        return Judgement(value, key, why)
    return Judgement(value, key, None)


# Each sign the table may write as the one the engine keeps, a few plain spaces dropped (every
# other space, like any other sign, is left to the parser).
_CANONICAL = str.maketrans(
    {**{c: t for c, t in OPERATORS.items() if c != t}, "[": "(", "]": ")"}
    | dict.fromkeys(" \t\n\r\v\f")
)
_DIGIT = {d: int(d) for d in DIGITS}


def _quick(signs: str) -> tuple[Fraction, list[int]] | None:
    """The value of an expression in canonical signs and the numbers it uses, computed as it is
    read; ``None`` for anything else (malformed, a division by zero), which the parser judges.

    Two levels of precedence need one running sum and one running product: the sum so far with
    the pending ``+`` or ``-`` (``adding``), the product so far with the pending ``*`` or ``/``
    (``times``). A parenthesis keeps the outer pair on ``outer`` and starts a new one; ``)``
    closes it into a number. Each value is a numerator and a denominator (ints, exact), made a
    Fraction once at the end: Fraction arithmetic costs a microsecond an operation.
    """
    outer: list[tuple[int, int, bool, int, int, str]] = []
    sum_n, sum_d, adding = 0, 1, True
    term_n = term_d = 1
    times = ""
    want = True  # a number or "(" must come next
    used: list[int] = []
    for c in signs:
        if want:
            if c in _DIGIT:
                n = _DIGIT[c]
                d = 1
                used.append(n)
            elif c == "(":
                outer.append((sum_n, sum_d, adding, term_n, term_d, times))
                sum_n, sum_d, adding, times = 0, 1, True, ""
                continue
            else:
                return None
        elif c == "*" or c == "/":
            times, want = c, True
            continue
        elif c == "+" or c == "-":
            if adding:
                sum_n = sum_n * term_d + term_n * sum_d
            else:
                sum_n = sum_n * term_d - term_n * sum_d
            sum_d *= term_d
            adding, times, want = c == "+", "", True
            continue
        elif c == ")" and outer:
            if adding:
                n = sum_n * term_d + term_n * sum_d
            else:
                n = sum_n * term_d - term_n * sum_d
            d = sum_d * term_d
            sum_n, sum_d, adding, term_n, term_d, times = outer.pop()
        else:
            return None
        if not times:
            term_n, term_d = n, d
        elif times == "*":
            term_n *= n
            term_d *= d
        elif n == 0:
            return None
        else:
            term_n *= d
            term_d *= n
        want = False
    if want or outer:
        return None
    if adding:
        return Fraction(sum_n * term_d + term_n * sum_d, sum_d * term_d), used
    return Fraction(sum_n * term_d - term_n * sum_d, sum_d * term_d), used
