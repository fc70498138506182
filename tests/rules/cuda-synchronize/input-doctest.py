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
