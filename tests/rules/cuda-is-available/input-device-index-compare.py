# devport-test: rules=all
"""A chosen device with no index compared with a tensor's `.device` (deepchem's device tests).

On the CPU both have no index and compare equal; on a Mac the tensor says `mps:0` against the
picked `mps`.
"""
import unittest

import torch


def change_basis(k, device=None):
    q = torch.zeros((2 * k + 1, 2 * k + 1))
    return q.to(device=device)


class TestBasis(unittest.TestCase):
    def test_device(self):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- no index
        q = change_basis(1, device=device)
        self.assertEqual(q.device, device)

    def test_compared(self):
        self.device = torch.device("cpu" if not torch.cuda.is_available() else "cuda")  # expect: cuda-is-available:unsafe -- no index
        q = change_basis(1, device=self.device)
        assert q.device == self.device

    def test_types(self):
        # Negative: device types compare equal either way.
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:safe
        q = change_basis(1, device=device)
        self.assertEqual(q.device.type, device.type)

    def test_indexed(self):
        # Negative: an index on the pick (the fix keeps it).
        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:safe
        q = change_basis(1, device=device)
        self.assertEqual(q.device, device)
