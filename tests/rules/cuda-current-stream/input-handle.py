import cupy
import torch


def launch(kernel, x):
    # The raw handle goes to CuPy: a generic torch.Stream has none.
    stream = torch.cuda.current_stream()  # expect: cuda-current-stream
    with cupy.cuda.ExternalStream(stream.cuda_stream):
        kernel(x)


def wait(x):
    # The stream is used only as a stream: ported.
    stream = torch.cuda.current_stream()  # expect: cuda-current-stream
    stream.synchronize()
    return stream.query()

