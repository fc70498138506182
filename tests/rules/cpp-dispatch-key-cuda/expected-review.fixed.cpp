// CUDA dispatch keys where the code around lists every backend: kept (--show-kept lists them).
#include <c10/core/Backend.h>
#include <c10/core/DispatchKeySet.h>

// A key set that names other backends' keys too.
constexpr c10::DispatchKeySet autocast_keys = c10::DispatchKeySet({
    c10::DispatchKey::AutocastCPU,
    c10::DispatchKey::AutocastCUDA,
    c10::DispatchKey::AutocastXPU,
});
// One key alone is reported.
constexpr c10::DispatchKeySet cuda_keys = c10::DispatchKeySet(c10::DispatchKey::AutogradCUDA);  // expect: cpp-dispatch-key-cuda

// A conversion written as a ladder over the keys.
c10::Backend to_backend(c10::DispatchKey t) {
  if (t == c10::DispatchKey::CPU) {
    return c10::Backend::CPU;
  } else if (t == c10::DispatchKey::CUDA || t == c10::DispatchKey::AutogradCUDA) {
    return c10::Backend::CUDA;
  } else if (t == c10::DispatchKey::HIP) {
    return c10::Backend::HIP;
  }
  return c10::Backend::Undefined;
}

// And as a switch: the CUDA arm is kept, a label that names CUDA too.
c10::DispatchKey to_key(c10::Backend b) {
  switch (b) {
    case c10::Backend::CPU:
      return c10::DispatchKey::CPU;
    case c10::Backend::CUDA:
      return c10::DispatchKey::CUDA;
    default:
      return c10::DispatchKey::Undefined;
  }
}
const char *name(c10::DispatchKey k) {
  switch (k) {
    case c10::DispatchKey::AutocastCUDA:
      return "AutocastCUDA";
    case c10::DispatchKey::AutocastCPU:
      return "AutocastCPU";
    default:
      return k == c10::DispatchKey::SparseCUDA ? "SparseCUDA" : "";  // expect: cpp-dispatch-key-cuda
  }
}

