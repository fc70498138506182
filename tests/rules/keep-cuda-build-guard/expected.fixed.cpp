// devport-test: rules=all
#include <ATen/core/Tensor.h>
#include <ATen/DeviceAccelerator.h>

void f(at::Tensor x) {
#ifdef USE_CUDA  // expect: keep-cuda-build-guard
  auto y = x.to(at::kCUDA);
#else
  auto y = x.to(at::kCPU);
#endif
#if defined(__CUDACC__) || defined(__HIPCC__)  // expect: keep-cuda-build-guard
  auto z = x.to(at::kCUDA);
#elif defined(USE_ROCM)  // expect: keep-cuda-build-guard
  auto z = x.to(at::kCUDA);
#else
  auto z = x.to(at::accelerator::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type -- the non-CUDA branch is generic
#endif
#if !defined(USE_CUDA)
  auto w = x.to(at::accelerator::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type
#endif
}
