// devport-test: target-torch=2.7
#include <array>
#include <string>
#include <torch/types.h>
#include <utility>
#include <vector>
#include <ATen/DeviceAccelerator.h>

// A comment that says at::kCUDA is not code; "at::kCUDA" in a string is not either.
static const char *kName = "at::kCUDA";

torch::Tensor place(torch::Tensor x, int rank) {
  auto opts = torch::TensorOptions().device(at::accelerator::getAccelerator().value_or(at::kCUDA), rank);  // expect: cpp-cuda-device-type:unsafe
  at::Device d(at::accelerator::getAccelerator().value_or(at::kCUDA), 0);  // expect: cpp-cuda-device-type:unsafe
  auto y = x.to(at::accelerator::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type:unsafe
  auto z = x.to(at::accelerator::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type:unsafe
  auto w = torch::zeros({2, 2},
                        torch::TensorOptions()
                            .dtype(torch::kHalf)
                            .device(at::accelerator::getAccelerator().value_or(at::kCUDA)));  // expect: cpp-cuda-device-type:unsafe
  return y + z + w;
}

// Not the constant: other names that end the same way.
int kCUDAVersion = 0;
struct Xla { enum class XlaDeviceType { CPU, CUDA }; };
auto other = Xla::XlaDeviceType::CUDA;
template <class T> auto member(const T &opts) { return opts.kCUDA; }

// At namespace scope it would run during static initialization: no fix.
static const c10::DeviceType kDefault = c10::kCUDA;  // expect: cpp-cuda-device-type:report
// A constant expression cannot call a function: no fix.
void g() {
  constexpr auto t = torch::kCUDA;  // expect: cpp-cuda-device-type:report
}

// In a table's entry the call would run whenever the table is built, whichever entry is
// used: on a build without an accelerator every lookup would throw. No fix. (A flat list of
// alternatives has the same hazard and still gets the unsafe fix: not told apart from a
// braced Device.)
c10::DeviceType parse(const std::string &s) {
  static const std::array<std::pair<const char *, c10::DeviceType>, static_cast<size_t>(2)> types = {{
      {"cpu", c10::DeviceType::CPU},
      {"cuda", c10::DeviceType::CUDA},  // kept: it pairs the name "cuda" with its device
  }};
  std::vector<c10::DeviceType> wanted = {c10::kCPU, at::accelerator::getAccelerator().value_or(at::kCUDA)};  // expect: cpp-cuda-device-type:unsafe
  at::Device one{at::accelerator::getAccelerator().value_or(at::kCUDA), 0};  // expect: cpp-cuda-device-type:unsafe
  std::vector<at::Device> two = {{at::kCUDA, 0}, {at::kCUDA, 1}};  // expect: cpp-cuda-device-type:report
  return s == types[1].first ? types[1].second : wanted[0];
}

// A branch this build does not compile is code all the same: both engines report it.
#ifdef _WIN32
torch::Tensor on_windows(torch::Tensor x) { return x.to(at::accelerator::getAccelerator().value_or(at::kCUDA)); }  // expect: cpp-cuda-device-type:unsafe
#endif
