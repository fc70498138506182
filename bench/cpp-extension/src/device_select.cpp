// Device choices and checks with only c10's device headers.
#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>

#include <vector>

namespace ext {

using namespace c10;

Device pickDevice(bool Gpu, DeviceIndex I) {
  return Gpu ? Device(kCUDA, I) : Device(kCPU);
}

bool isGpu(Device D) { return D.type() == DeviceType::CUDA || D.is_cuda(); }

const char *name(DeviceType T) {
  switch (T) {
  case DeviceType::CUDA:
    return "cuda";
  case kCPU:
    return "cpu";
  default:
    return "other";
  }
}

std::vector<DeviceType> supported() { return {kCPU, kCUDA, DeviceType::XPU}; }

} // namespace ext
