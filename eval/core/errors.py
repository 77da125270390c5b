"""Errors of bad input that every layer raises: data files and strategy options."""


class DatasetError(ValueError):
    """Bad or missing input data; the message names the file, the line or record, and the field."""


class StrategyOptionError(ValueError):
    """A strategy option out of its range (e.g. `--samples 0`); the message names the option."""


# pydantic's wording → a command line's (the library's phrases, most specific first)
LIBRARY_WORDS = (("Value error, ", ""), ("Assertion failed, ", ""), ("Field required", "missing"),
                 ("Extra inputs are not permitted", "not a known field"), ("Input should be", "must be"),
                 ("a valid integer", "a whole number"), ("a valid number", "a number"),
                 ("a valid boolean", "true or false"), ("a valid string", "text"), ("a valid list", "a list"),
                 ("a valid dictionary", "a JSON object"), ("a valid", "a"),
                 (", unable to parse string as an integer", ""), (", unable to parse string as a number", ""),
                 (", got a number with a fractional part", ""))


def plain_words(message: str) -> str:
    """A validation message in the words of a command line rather than of the pydantic library."""
    for library, plain in LIBRARY_WORDS:
        message = message.replace(library, plain)
    return message
