namespace torch_xla {
std::string DeviceTypeToString(XlaDeviceType hw_type) {
  switch (hw_type) {
    case XlaDeviceType::CPU: return "CPU";  // expect: keep-xla-device-type-names
    case XlaDeviceType::TPU: return "TPU";  // expect: keep-xla-device-type-names
    default: return "";
  }
}
static const std::map<XlaDeviceType, std::string> kNames = {
    {XlaDeviceType::CUDA, "CUDA"},  // expect: keep-xla-device-type-names
};
bool special(XlaDeviceType t) { return t == XlaDeviceType::TPU; }
}  // namespace torch_xla
