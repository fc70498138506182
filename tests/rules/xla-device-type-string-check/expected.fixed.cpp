#include <string>

bool is_tpu(const std::string &device_type) {
  if (device_type == "TPU") {  // expect: xla-device-type-string-check:report
    return true;
  }
  return "NEURON" != device_type;  // expect: xla-device-type-string-check
}
void log(const std::string &s) {
  std::string msg = "TPU";
  bool lower = s == "tpu";
}
