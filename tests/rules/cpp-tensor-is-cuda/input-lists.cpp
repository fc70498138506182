// The code around `is_cuda()`: a list of backends keeps the finding without a fix; a per-backend
// ladder is kept whole (--show-kept lists it).
#include <ATen/core/Tensor.h>

// An allow-list: the rewrite would let every accelerator through, MPS too, which has no kernel here.
bool fused_ok(const at::Tensor &input, double p) {
  return input.is_cuda() || input.is_xpu() || input.is_lazy();  // expect: cpp-tensor-is-cuda -- one of a list of backends
}
bool in_condition(const at::Tensor &self) {
  if ((self.is_cuda() || self.is_xpu()) && self.dim() > 1) {  // expect: cpp-tensor-is-cuda -- one of a list of backends
    return true;
  }
  return false;
}

// Conditions joined with no other backend: the fixes stay.
bool both(const at::Tensor &a, const at::Tensor &b) {
  return a.is_cuda() && b.is_cuda();  // expect: cpp-tensor-is-cuda:unsafe
}
// Another backend named outside the condition does not make a list of it.
int pick(const at::Tensor &a, const at::Tensor &b) {
  if (a.is_cuda() && a.dim() > 0) {  // expect: cpp-tensor-is-cuda:unsafe
    return b.is_xpu() ? 1 : 2;
  }
  return 0;
}

// A ladder over backends: kept whole.
int ladder(const at::Tensor &t) {
  if (t.is_cuda()) {
    return 1;
  } else if (t.is_mps()) {
    return 2;
  }
  return 0;
}

// A cuDNN gate is CUDA's: kept.
bool acceptable(const at::Tensor &fw);
bool cudnn_acceptable(const at::Tensor &fw);
void flatten(const at::Tensor &fw) {
  if (!fw.is_cuda() || !cudnn_acceptable(fw)) {
    return;
  }
  if (!fw.is_cuda() || !acceptable(fw)) {  // expect: cpp-tensor-is-cuda:unsafe
    return;
  }
}
