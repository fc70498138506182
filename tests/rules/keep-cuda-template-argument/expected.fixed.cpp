#include <ATen/autocast_mode.h>

auto fn = &at::autocast::WrapFunction<c10::CastPolicy::lower_precision_fp, c10::DeviceType::CUDA>::type::call;  // expect: keep-cuda-template-argument
auto dt = at::autocast::get_lower_precision_fp_from_device_type<at::kCUDA>();  // expect: keep-cuda-template-argument
using K = Wrap<c10::DispatchKey::AutocastCUDA>;  // expect: keep-cuda-template-argument
std::vector<Wrap<c10::DeviceType::CUDA>> v;  // expect: keep-cuda-template-argument
