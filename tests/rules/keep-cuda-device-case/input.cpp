#include <c10/core/DeviceType.h>
using namespace c10;

const char *name(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return "cpu";
    case kCUDA: return "cuda";  // expect: keep-cuda-device-case
    case c10::DeviceType::CUDA: return "cuda";  // expect: keep-cuda-device-case
    default: return "?";
  }
}
