// devport-test: target-torch=2.7
// A default argument: every call that leaves it out gets CUDA; reported without a fix.
#include <torch/types.h>
#include <ATen/DeviceAccelerator.h>

at::Tensor cast(const at::Tensor &t, c10::DeviceType device_type = c10::DeviceType::CUDA);  // expect: cpp-cuda-device-type:report -- a default argument
template <class T> T prioritize(T t, int n, c10::DeviceType d = at::kCUDA) { return t; }  // expect: cpp-cuda-device-type:report
struct Opts {
  void set(int i, c10::Device d = c10::Device(at::kCUDA, 0));  // expect: cpp-cuda-device-type:report
};
// Not a default argument: a variable in a function.
void g(at::Tensor t) {
  c10::DeviceType d = at::accelerator::getAccelerator().value_or(at::kCUDA);  // expect: cpp-cuda-device-type:unsafe
  t.to(d);
}
// In a `#define` body a constant may have to stay one where the macro is used (a template
// argument): no fix.
#define TO_GPU(t) (t).to(at::kCUDA)  // expect: cpp-cuda-device-type:report -- in a macro's definition
