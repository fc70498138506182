// devport-test: rules=all target-torch=2.7
// The code around a device constant: where it is one arm, entry or case of a per-device choice,
// or in code named for CUDA, it is kept (--show-kept lists it), not reported.
#include <c10/core/DispatchKey.h>
#include <torch/types.h>
#include <string>
#include <utility>
#include <vector>
#include <ATen/DeviceAccelerator.h>

// A per-backend ladder: every arm, its CUDA one included, is kept.
c10::DeviceType pick(c10::DeviceType src) {
  c10::DeviceType device_type = at::kCPU;
  if (src == at::kCUDA) {
    device_type = at::kCUDA;
  } else if (src == at::kXPU) {
    device_type = at::kXPU;
  } else if (src == at::kMPS) {
    device_type = at::kMPS;
  }
  return device_type;
}

// A CPU/CUDA choice is not a ladder: it names no other accelerator.
c10::DeviceType choose(bool fast) {
  if (fast) {
    return at::accelerator::getAccelerator().value_or(at::kCUDA);  // expect: cpp-cuda-device-type:unsafe
  } else if (!fast) {
    return at::kCPU;
  }
  return at::kCPU;
}

// The CUDA arm of a switch, however many labels it has.
c10::DispatchKey to_key(c10::DeviceType t) {
  switch (t) {
    case at::kCPU:
      return c10::DispatchKey::CPU;
    case at::kMeta:
    case c10::DeviceType::CUDA: {
      auto d = c10::Device(at::kCUDA, 0);
      (void)d;
      return c10::DispatchKey::CUDA;
    }
    case at::kXPU:
      return c10::DispatchKey::XPU;
    default:
      return c10::Device(at::accelerator::getAccelerator().value_or(at::kCUDA)).type() == t ? c10::DispatchKey::CUDA  // expect: cpp-cuda-device-type:unsafe
                                                 : c10::DispatchKey::CPU;
  }
}

// A table that lists other backends' entries too.
const std::vector<std::pair<std::string, c10::DeviceType>> &names() {
  static const std::vector<std::pair<std::string, c10::DeviceType>> table = {
      {"cpu", at::kCPU},
      {"cuda", at::kCUDA},
      {"xpu", at::kXPU},
  };
  return table;
}

// A list of CPU and CUDA alone is a device choice: reported (no fix in a table's entry).
std::vector<c10::DeviceType> devices() {
  return {at::kCPU, at::accelerator::getAccelerator().value_or(at::kCUDA)};  // expect: cpp-cuda-device-type:unsafe
}

// Named for CUDA: a function, a method, a gtest case.
at::Tensor to_cuda_if_needed(const at::Tensor &t) { return t.to(at::kCUDA); }
struct Mover {
  at::Tensor moveToCUDA(const at::Tensor &t) const { return t.to(at::kCUDA); }
  at::Tensor move(const at::Tensor &t) const { return t.to(at::accelerator::getAccelerator().value_or(at::kCUDA)); }  // expect: cpp-cuda-device-type:unsafe
};
#define TEST(Suite, Name) void Suite##_##Name()
TEST(TensorTest, ToDevice_CUDA) {
  auto t = at::Tensor().to(at::kCUDA);
  (void)t;
}
TEST(TensorTest, ToDevice) {
  auto t = at::Tensor().to(at::accelerator::getAccelerator().value_or(at::kCUDA));  // expect: cpp-cuda-device-type:unsafe
  (void)t;
}
// A lambda inside a function named for CUDA is part of it.
void sync_cuda() {
  auto f = [](const at::Tensor &t) { return t.to(at::kCUDA); };
  (void)f;
}

// A name paired with its device, in an entry or a call's arguments: kept.
struct Case {
  const char *str;
  c10::DeviceType type;
  int index;
};
const Case cases[] = {{"cuda:0", c10::DeviceType::CUDA, 0}, {"cpu", c10::DeviceType::CPU, 0}};
struct EnumBuilder {
  EnumBuilder &value(const char *, c10::DeviceType) { return *this; }
};
void register_names(EnumBuilder &b) {
  b.value("CUDA", c10::DeviceType::CUDA).value("CPU", c10::DeviceType::CPU);
}
// A message is not a name.
void log(const char *, c10::DeviceType);
void message() { log("moving it to the cuda device", at::accelerator::getAccelerator().value_or(at::kCUDA)); }  // expect: cpp-cuda-device-type:unsafe

// Under a CUDA check that stays, a fix would be half a port: none.
at::Tensor guarded(const at::Tensor &t, bool cuda) {
  if (cuda) {
    return t.to(at::kCUDA);  // expect: cpp-cuda-device-type -- under `cuda`, which stays
  }
  auto d = cuda ? at::kCUDA : at::kCPU;  // expect: cpp-cuda-device-type
  auto e = cuda ? at::kCPU : at::accelerator::getAccelerator().value_or(at::kCUDA);  // expect: cpp-cuda-device-type:unsafe -- the false arm
  return t.to(d).to(e);
}
// A check that its own fix rewrites does not stay: both are fixed together.
at::Tensor moved(const at::Tensor &x, const at::Tensor &y) {
  return at::isAccelerator(x.device().type()) ? y.to(at::accelerator::getAccelerator().value_or(at::kCUDA)) : y.cpu();  // expect: cpp-cuda-device-type:unsafe
}

// In a test's assertion the constant is what the code under test must give: no fix.
#define ASSERT_EQ(a, b) (void)((a) == (b))
void parses() {
  c10::Device device("cuda:123");
  ASSERT_EQ(device, c10::Device(at::kCUDA, 123));  // expect: cpp-cuda-device-type -- in a test's assertion
}
