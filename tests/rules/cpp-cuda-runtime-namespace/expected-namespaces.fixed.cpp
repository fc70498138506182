// devport-test: lexical-only because it names namespaces that no header declares
// `cuda::` is resolved, never guessed: libcu++, Thrust and PyTorch's JIT fuser have a `cuda`
// namespace of their own.
#include <ATen/cuda/CUDAContext.h>

namespace at::native {
void in_at() { cuda::getCurrentCUDAStream(); }  // expect: cpp-cuda-runtime-namespace
} // namespace at::native

namespace torch::jit::fuser {
const char *code() { return cuda::half_support_literal; }
} // namespace torch::jit::fuser

void libcudacxx() { cuda::std::atomic<int> a; }

using namespace at;
void used() { cuda::getCurrentCUDAStream(); }  // expect: cpp-cuda-runtime-namespace
