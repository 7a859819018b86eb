// External-allocator registration (acl_rt_allocator.h). Descriptors are plain objects; registering one is not
// supported: this host runtime's memory is ordinary host memory and needs no device allocator.
#include "acl/acl_rt.h"
#include "api/diagnostics.hpp"
#include "runtime/live_set.hpp"
#include "runtime/status.hpp"

namespace rt = aclnn_cpu::runtime;

namespace {

struct AllocatorDesc {
  aclrtAllocator allocator = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc alloc_advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc addr_from_block = nullptr;
};

rt::LiveSet &descriptors() {
  static rt::LiveSet *live = new rt::LiveSet;
  return *live;
}

aclError not_live(const char *api, aclrtAllocatorDesc handle) {
  return rt::invalid_argument(ACL_ERROR_INVALID_PARAM, api, "allocatorDesc", rt::pointer_text(handle),
                              "is not a live descriptor from aclrtAllocatorCreateDesc");
}

// Runs `set` on the descriptor when `handle` is a live one.
template <class Set>
aclError update(const char *api, aclrtAllocatorDesc handle, Set &&set) {
  return rt::guarded(api, [&]() -> aclError {
    if (handle == nullptr) return rt::null_argument(api, "allocatorDesc");
    const bool live = descriptors().with(handle, [&] { set(*static_cast<AllocatorDesc *>(handle)); });
    return live ? ACL_SUCCESS : not_live(api, handle);
  });
}

aclError not_supported(const char *api) {
  return rt::fail(ACL_ERROR_API_NOT_SUPPORT, api,
                  "external allocators are not supported by aclnn-cpu (device memory is host memory)");
}

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc() {
  try {
    auto *desc = new AllocatorDesc;
    try {
      descriptors().add(desc);
    } catch (...) {
      delete desc;
      throw;
    }
    return desc;
  } catch (...) {
    rt::fail(ACL_ERROR_BAD_ALLOC, "aclrtAllocatorCreateDesc", "out of host memory");
    return nullptr;
  }
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  static const char kApi[] = "aclrtAllocatorDestroyDesc";
  return rt::guarded(kApi, [&]() -> aclError {
    if (allocatorDesc == nullptr) return rt::null_argument(kApi, "allocatorDesc");
    if (!descriptors().remove(allocatorDesc)) return not_live(kApi, allocatorDesc);
    delete static_cast<AllocatorDesc *>(allocatorDesc);
    return ACL_SUCCESS;
  });
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  return update("aclrtAllocatorSetObjToDesc", allocatorDesc, [&](AllocatorDesc &d) { d.allocator = allocator; });
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  return update("aclrtAllocatorSetAllocFuncToDesc", allocatorDesc, [&](AllocatorDesc &d) { d.alloc = func; });
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  return update("aclrtAllocatorSetFreeFuncToDesc", allocatorDesc, [&](AllocatorDesc &d) { d.free = func; });
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func) {
  return update("aclrtAllocatorSetAllocAdviseFuncToDesc", allocatorDesc,
                [&](AllocatorDesc &d) { d.alloc_advise = func; });
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  return update("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", allocatorDesc,
                [&](AllocatorDesc &d) { d.addr_from_block = func; });
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  (void)stream;
  (void)allocatorDesc;
  return not_supported("aclrtAllocatorRegister");
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc, aclrtAllocator *allocator,
                                   aclrtAllocatorAllocFunc *allocFunc, aclrtAllocatorFreeFunc *freeFunc,
                                   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc) {
  (void)stream;
  (void)allocatorDesc;
  (void)allocator;
  (void)allocFunc;
  (void)freeFunc;
  (void)allocAdviseFunc;
  (void)getAddrFromBlockFunc;
  return not_supported("aclrtAllocatorGetByStream");
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  (void)stream;
  return not_supported("aclrtAllocatorUnregister");
}

}  // extern "C"

size_t aclnn_cpu::live_allocator_desc_count() { return descriptors().size(); }
