import unittest
from unittest import mock

import torch

torch.cuda._sleep(1000000)  # expect: keep-cuda-sleep

# Negatives.
time.sleep(1)
