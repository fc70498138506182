// A check that guards CUDA-only code keeps no fix: rewritten, it would send an XPU or MPS
// tensor to the CUDA kernel (detectron2's ROIAlignRotated.h has this shape).
#include <ATen/core/Tensor.h>
#include <ATen/DeviceAccelerator.h>

at::Tensor roi_align_forward_cuda(const at::Tensor &input);
at::Tensor roi_align_forward_cpu(const at::Tensor &input);

at::Tensor roi_align_forward(const at::Tensor &input) {
  if (input.is_cuda()) {  // expect: cpp-tensor-is-cuda -- it guards roi_align_forward_cuda
#if defined(WITH_CUDA)
    return roi_align_forward_cuda(input);
#else
    TORCH_CHECK(false, "not compiled with GPU support");
#endif
  }
  return roi_align_forward_cpu(input);
}

// A block that is portable as it is: the fix stays.
at::Tensor contiguous_on_accelerator(const at::Tensor &t) {
  if (at::isAccelerator(t.device().type())) {  // expect: cpp-tensor-is-cuda:unsafe
    return t.contiguous();
  }
  return t;
}
