import torch


class Runner:
    def __init__(self):
        self.stream = torch.cuda.Stream()  # expect: cuda-stream-class

    def handle(self):
        return self.stream.cuda_stream


class Plain:
    def __init__(self):
        # Used only as a stream: ported.
        self.stream = torch.Stream()  # expect: cuda-stream-class

    def run(self, f):
        with torch.cuda.stream(self.stream):
            f()
        return self.stream.query()
