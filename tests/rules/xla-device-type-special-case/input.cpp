namespace torch_xla {
enum class XlaDeviceType : int8_t { CPU = 0, CUDA, TPU, NEURON, SPMD, PLUGIN };

bool UseFastPath(XlaDeviceType hw_type) {
  if (hw_type == XlaDeviceType::TPU) {  // expect: xla-device-type-special-case:report
    return true;
  }
  switch (hw_type) {
    case XlaDeviceType::NEURON:  // expect: xla-device-type-special-case
      return false;
    default:
      break;
  }
  static const std::vector<XlaDeviceType> kSupported = {
      XlaDeviceType::CUDA, XlaDeviceType::SPMD};  // expect: xla-device-type-special-case, xla-device-type-special-case
  return hw_type != XlaDeviceType::CPU;  // expect: xla-device-type-special-case
}
}  // namespace torch_xla

// Another enum that happens to share a name is not XLA's.
enum class DeviceKind { TPU };
auto k = DeviceKind::TPU;
