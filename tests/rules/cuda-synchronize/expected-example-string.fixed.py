"""Doctests in strings that a module keeps for its documentation (diffusers' EXAMPLE_DOC_STRING,
handed to `@replace_example_docstring`): examples that users copy, reported as docstrings are."""
import torch

EXAMPLE_DOC_STRING = """
    Examples:
        ```py
        >>> import torch
        >>> torch.cuda.synchronize()  # expect: cuda-synchronize
        ```
"""

EXAMPLE_WITH_PREFIX = r"""
    >>> torch.cuda.synchronize()  # expect: cuda-synchronize
"""


class Pipeline:
    _EXAMPLE = """
    >>> torch.cuda.synchronize()  # expect: cuda-synchronize
    """

    def run(self):
        message = """Call torch.cuda.synchronize() first."""  # negative: prose, no doctest
        torch.accelerator.synchronize()  # expect: cuda-synchronize
        return message


def notes():
    # Negative: a string that is no example, and one handed to a call.
    text = "torch.cuda.synchronize()"
    print(""">>> torch.cuda.synchronize()""")
    return text


NOT_AN_EXAMPLE = f"""
    >>> torch.cuda.synchronize()  # negative: an f-string, whose fields the example is not
"""
