# devport-test: target-torch=2.5
import torch

# No torch.accelerator before 2.6: reported without a fix.
torch.cuda.set_device(rank)  # expect: cuda-set-device
