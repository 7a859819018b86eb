// Loads one CANN library by path and resolves every entry point the public headers declare through it, as
// loaders that dlopen libopapi.so / libopapi_nn.so and dlsym the aclnn functions do. An alias must find
// libascendcl.so by itself (RUNPATH $ORIGIN), so no LD_LIBRARY_PATH is set for this test.
#include <dlfcn.h>

#include <cstdio>

namespace {

const char *const kEntryPoints[] = {
#define ACLNN_CPU_ENTRY_POINT(name) name,
#include "entry_points.inc"
#undef ACLNN_CPU_ENTRY_POINT
};

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s /path/to/libX.so\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "dlopen(%s) failed: %s\n", argv[1], dlerror());
    return 1;
  }
  int missing = 0;
  for (const char *name : kEntryPoints) {
    if (dlsym(lib, name) == nullptr) {
      std::fprintf(stderr, "dlsym(%s, %s) failed: %s\n", argv[1], name, dlerror());
      ++missing;
    }
  }
  const int total = static_cast<int>(sizeof(kEntryPoints) / sizeof(kEntryPoints[0]));
  std::printf("%s: %d of %d declared entry points resolved\n", argv[1], total - missing, total);
  dlclose(lib);
  return missing == 0 ? 0 : 1;
}
