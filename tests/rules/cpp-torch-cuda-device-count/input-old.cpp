// devport-test: target-torch=2.6
#include <torch/cuda.h>

// No at::accelerator::deviceCount in 2.6: reported only.
int count() { return torch::cuda::device_count(); }  // expect: cpp-torch-cuda-device-count:report
