#include <torch/torch.h>

void f() {
  torch::Device device("cuda:0");  // expect: cpp-cuda-device-string:report
  auto d = c10::Device("cuda");  // expect: cpp-cuda-device-string
  torch::Device cpu("cpu");
  std::string name = "cuda";
}
