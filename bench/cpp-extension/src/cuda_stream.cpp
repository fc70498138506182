// CUDA-role code (RULES.md 5.1: kept): streams and guards from at::cuda / c10::cuda. Needs the
// CUDA toolkit's headers, which this machine does not have: Clang reports the missing
// cuda_runtime_api.h and the backend falls back to the lexical matcher.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

namespace ext {

void syncCurrent(const at::Tensor &X) {
  c10::cuda::CUDAGuard Guard(X.device());
  auto Stream = at::cuda::getCurrentCUDAStream();
  Stream.synchronize();
}

int devices() { return at::cuda::device_count(); }

} // namespace ext
