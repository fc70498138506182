// A generic file: nothing is kept as a CUDA-role file.
#include <ATen/ATen.h>
void launch(const at::Tensor &x) { auto opts = x.options().device(at::kCUDA); }
