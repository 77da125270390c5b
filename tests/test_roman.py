"""The one Roman-numeral parser, and the two graders' uses of it (regnal numbers, ordinals)."""

from __future__ import annotations

import pytest

from factprobe.eval.grading.equivalents import in_gold_wording
from factprobe.eval.grading.markers import markers
from factprobe.eval.grading.roman import roman_value


@pytest.mark.parametrize("numeral, value", [("I", 1), ("IV", 4), ("IX", 9), ("XIV", 14), ("XXXIX", 39),
                                            ("XL", 40), ("XCIX", 99), ("CCCXCIX", 399)])
def test_canonical_numerals_have_their_value(numeral: str, value: int) -> None:
    assert roman_value(numeral) == value


@pytest.mark.parametrize("text", ["", "IIII", "VX", "IC", "XXXX", "CD", "M", "xiv", "X I", "VV"])
def test_anything_else_has_no_value(text: str) -> None:
    assert roman_value(text) is None


def test_regnal_numbers_stop_at_thirty_nine_and_ordinals_go_beyond() -> None:
    assert [m.value for m in markers("Pope Pius XXXIX")] == ["39"]
    assert markers("Pope Pius XL") == []
    assert in_gold_wording("Amendment XLII", "42nd Amendment") == "Amendment 42nd"
    assert in_gold_wording("Amendment XLII", "41st Amendment") == "Amendment XLII"
