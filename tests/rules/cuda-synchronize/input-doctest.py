import torch


def timed(fn):
    """Times fn on the accelerator.

    Example::

        >>> import torch
        >>> torch.cuda.synchronize()  # expect: cuda-synchronize
        >>> with timer():
        ...     torch.cuda.synchronize(  # expect: cuda-synchronize
        ...         device=0)
        >>> # torch.cuda.synchronize() in a doctest comment is not code

    Prose that mentions torch.cuda.synchronize() is not a doctest.
    """
    torch.cuda.synchronize()  # expect: cuda-synchronize
    return fn()


def incomplete():
    """A doctest that is not valid Python on its own: the note says so, not the file.

    >>> torch.cuda.synchronize() +  # expect: cuda-synchronize:report -- the doctest has a syntax error
    """
