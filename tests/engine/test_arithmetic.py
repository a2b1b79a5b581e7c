"""The expression parser (TIR-2): examples and properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.arithmetic import (
    BinOp,
    ExpressionError,
    Num,
    evaluate,
    judge,
    numbers,
    operations,
    parse,
    to_text,
)


@pytest.mark.parametrize(
    "text, value",
    [
        ("6 x (5:6+1)", Fraction(11)),
        ("(5+4+2):1", Fraction(11)),
        ("3x5x1", Fraction(15)),
        ("5-(4:4)", Fraction(4)),
        ("(3+4)x2", Fraction(14)),
        ("6/4", Fraction(3, 2)),
        ("2*[3+1]", Fraction(8)),
        ("8 − 3 ÷ 3 × 2", Fraction(6)),
        ("1-2-3", Fraction(-4)),  # left to right
        ("8/2/2", Fraction(2)),
    ],
)
def test_values(text: str, value: Fraction) -> None:
    assert evaluate(parse(text)) == value


@pytest.mark.parametrize(
    "text", ["", "()", "1+", "+1", "-1", "1 2", "12", "1+a", "(1", "1)", "2(3)"]
)
def test_malformed(text: str) -> None:
    with pytest.raises(ExpressionError):
        evaluate(parse(text))


def test_division_by_zero_is_invalid() -> None:
    assert judge("1/(1-1)+1", [1, 1, 1, 1]).error == "it divides by zero"


def test_key_counts_divisions_multiplications_subtractions() -> None:
    assert judge("6 x (5:6+1)", [6, 6, 5, 1]).key == (1, 1, 0)
    assert judge("6-5-(1-1)", [6, 5, 1, 1]).key == (0, 0, 3)


def trees() -> st.SearchStrategy:
    return st.recursive(
        st.integers(1, 6).map(Num),
        lambda sub: st.builds(BinOp, st.sampled_from("+-*/"), sub, sub),
        max_leaves=8,
    )


def safe_value(node) -> Fraction | None:
    try:
        return evaluate(node)
    except ExpressionError:
        return None


@given(trees())
def test_printed_expression_reads_back_to_the_same_value_and_operations(node) -> None:
    again = parse(to_text(node))
    assert safe_value(again) == safe_value(node)
    assert operations(again) == operations(node)
    assert sorted(numbers(again)) == sorted(numbers(node))


@given(st.text(alphabet="0123456789+-*/x:()[] ab", max_size=20))
def test_any_text_is_read_or_refused_cleanly(text: str) -> None:
    try:
        node = parse(text)
    except ExpressionError:
        return
    safe_value(node)


@given(trees())
def test_judge_accepts_exactly_the_numbers_used(node) -> None:
    used = numbers(node)
    verdict = judge(to_text(node), used)
    assert verdict.error is None or verdict.error == "it divides by zero"
    assert judge(to_text(node), used + [7]).error is not None
