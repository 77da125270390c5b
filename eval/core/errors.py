"""Errors of bad input that every layer raises: data files and strategy options."""


class DatasetError(ValueError):
    """Bad or missing input data; the message names the file, the line or record, and the field."""


class StrategyOptionError(ValueError):
    """A strategy option out of its range (e.g. `--samples 0`); the message names the option."""
