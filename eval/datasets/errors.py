"""The one error type data loading raises."""


class DatasetError(ValueError):
    """Bad or missing input data; the message names the file, the line or record, and the field."""
