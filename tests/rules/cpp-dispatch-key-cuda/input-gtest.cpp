// A file of gtest cases (the dispatcher's own tests): its dispatch keys are test data, in a
// test case and in the kernels and helpers beside them. Kept (--show-kept lists them).
#include <c10/core/DispatchKeySet.h>
#include <c10/core/Backend.h>

#define TEST(Suite, Name) void Suite##_##Name()
TEST(DispatchKeySetTest, HoldsTheKey) {
  c10::DispatchKeySet ks(c10::DispatchKey::CUDA);
  (void)ks;
}
c10::DispatchKeySet helper() { return c10::DispatchKeySet(c10::DispatchKey::SparseCUDA); }
// Other findings of the file are reported.
bool on_gpu(c10::DeviceType d) { return d == c10::DeviceType::CUDA; }
