#include <ATen/core/Tensor.h>

bool on_device(const at::Tensor &t) {
  if (t.device().type() == at::kCUDA) {  // expect: cpp-cuda-device-type-check:report
    return true;
  }
  return c10::DeviceType::CUDA != t.device().type();  // expect: cpp-cuda-device-type-check:report
}

void allow(c10::DeviceType d) {
  TORCH_CHECK(d == at::kCPU || d == at::kCUDA, "unsupported device");  // expect: cpp-cuda-device-type-check
}

// Not checks: a choice, a comparison with another constant.
void other(at::Tensor t, c10::DeviceType d) {
  auto u = t.to(at::kCUDA);
  bool cpu = d == at::kCPU;
}

// The same checks where `==` is an operator call: type-dependent in a template,
// and an optional device type (c10::optional's operator== templates).
template <class T> bool on_device_t(const T &t) { return t.device().type() == at::kCUDA; }  // expect: cpp-cuda-device-type-check
bool is_gpu_type(c10::optional<c10::DeviceType> d) { return d == c10::DeviceType::CUDA; }  // expect: cpp-cuda-device-type-check
