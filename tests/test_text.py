"""fdlab._text.whole_at_least and number_in: one reader per kind of number on the command line."""

from __future__ import annotations

import argparse
import math

import pytest

from fdlab._text import number_in, whole_at_least


@pytest.mark.parametrize(("low", "text", "value"), [(0, "0", 0), (0, " 7 ", 7), (1, "1", 1)])
def test_a_whole_number_from_low_is_read(low, text, value):
    assert whole_at_least(low)(text) == value


@pytest.mark.parametrize(
    ("low", "text", "message"),
    [
        (0, "-1", "must be at least 0, not -1"),
        (1, "0", "must be at least 1, not 0"),
        (1, "2.5", "expected a whole number, not '2.5'"),
        (0, "", "expected a whole number, not ''"),
    ],
)
def test_anything_else_is_one_clear_argparse_message(low, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        whole_at_least(low)(text)
    assert str(caught.value) == message


def test_argparse_names_the_option_before_the_message(capsys):
    parser = argparse.ArgumentParser(prog="fdlab playtest")
    parser.add_argument("--seed", type=whole_at_least(0), default=0)
    with pytest.raises(SystemExit) as stopped:
        parser.parse_args(["--seed", "-1"])
    assert stopped.value.code == 2
    assert "argument --seed: must be at least 0, not -1" in capsys.readouterr().err


def test_a_count_with_a_most_refuses_more():
    cars = whole_at_least(1, most=10)
    assert cars("10") == 10
    with pytest.raises(argparse.ArgumentTypeError, match="must be at most 10, not 11"):
        cars("11")


@pytest.mark.parametrize(
    ("reader", "text", "value"),
    [
        (number_in(0, 1), "0", 0.0),
        (number_in(0, 1), "1", 1.0),
        (number_in(0, 1, open_high=True), "0.999", 0.999),
        (number_in(0, math.inf, open_low=True), "1e-3", 0.001),
    ],
)
def test_a_number_in_range_is_read(reader, text, value):
    assert reader(text) == value


@pytest.mark.parametrize(
    ("reader", "text", "message"),
    [
        (number_in(0, 1), "1.5", "must be from 0 to 1, not 1.5"),
        (number_in(0, 1), "-0.1", "must be from 0 to 1, not -0.1"),
        (number_in(0, 1, open_high=True), "1", "must be at least 0 and below 1, not 1"),
        (number_in(0, math.inf, open_low=True), "0", "must be more than 0, not 0"),
        (number_in(0, 1), "half", "expected a number, not 'half'"),
        (number_in(0, 1), "nan", "expected a number, not 'nan'"),
        (number_in(0, math.inf), "inf", "expected a number, not 'inf'"),
        (number_in(0, 1, what="a share"), "most", "expected a share, not 'most'"),
    ],
)
def test_a_number_out_of_range_or_not_a_number_is_one_message(reader, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        reader(text)
    assert str(caught.value) == message


def test_the_cli_options_read_with_the_shared_readers(capsys):
    from fdlab.cli import main

    assert main(["validate", "x.json", "--cars", "11"]) == 2
    assert "argument --cars: must be at most 10, not 11" in capsys.readouterr().err
