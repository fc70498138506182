#include <c10/core/DispatchKey.h>

bool is_gpu_key(c10::DispatchKey k) {
  return k == c10::DispatchKey::CUDA ||  // expect: cpp-dispatch-key-cuda:report
         k == c10::DispatchKey::AutocastCUDA;  // expect: cpp-dispatch-key-cuda
}
bool cpu(c10::DispatchKey k) { return k == c10::DispatchKey::CPU; }
