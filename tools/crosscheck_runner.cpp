// Runs convolution-backward cases for tools/torch_crosscheck.py through the public API, the way a CANN program
// would (aclInit, aclrtMalloc'd tensors, GetWorkspaceSize, aclnnConvolutionBackward on a stream).
//
//   crosscheck_runner <dir>
//
// <dir>/cases.txt holds one case per line: "<id> <descriptor>" (src/conv_bwd/descriptor.hpp). For each case the
// runner reads <dir>/<id>.gradOutput, .input, .weight (contiguous, raw little-endian elements of the dtypes the
// descriptor names), writes <dir>/<id>.gradInput, .gradWeight, .gradBias (same encoding) for the outputs the mask
// requests, and appends "<id> <status> <message>" to <dir>/results.txt. Exit code: 0 when every case ran (a
// non-zero status is a result, not a runner failure), 2 on unusable arguments or files.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_cpu/ext.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/descriptor.hpp"
#include "core/config.hpp"
#include "core/dtype.hpp"

namespace {

using aclnn_cpu::conv_bwd::ConvDesc;

const char *const kNames[6] = {"gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"};

std::vector<int64_t> contiguous_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(1, shape[i]);
  return strides;
}

int64_t element_count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

std::string recent() {
  const char *e = aclGetRecentErrMsg();
  return e ? e : "";
}

// One tensor in device memory (aclrtMalloc) with its aclTensor.
struct DeviceTensor {
  std::vector<int64_t> shape;
  aclDataType dtype = ACL_FLOAT;
  size_t bytes = 0;
  void *data = nullptr;
  aclTensor *tensor = nullptr;

  bool create(const std::vector<int64_t> &s, aclDataType t, aclFormat format) {
    shape = s;
    dtype = t;
    bytes = static_cast<size_t>(element_count(shape)) * aclnn_cpu::dtype_size(dtype);
    if (bytes > 0 && aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
    const std::vector<int64_t> strides = contiguous_strides(shape);
    const int64_t storage = element_count(shape);
    tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, format, &storage, 1, data);
    return tensor != nullptr;
  }
  ~DeviceTensor() {
    if (tensor) aclDestroyTensor(tensor);
    if (data) aclrtFree(data);
  }
};

bool read_file(const std::string &path, std::vector<char> *out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

aclFormat format_of(size_t rank) { return rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW; }

// Runs one case; returns the aclnn status and fills *message.
int run_case(const std::string &dir, const std::string &id, const ConvDesc &d, aclrtStream stream,
             std::string *message) {
  aclnnCpuSetSoc(aclnn_cpu::product_name(d.product));
  std::vector<int64_t> shapes[6];
  aclnn_cpu::conv_bwd::desc_shapes(d, shapes);
  DeviceTensor t[6];
  for (int s = 0; s < 6; ++s) {
    if (!d.present[s]) continue;
    if (!t[s].create(shapes[s], d.dtype[s], s == 5 ? ACL_FORMAT_ND : format_of(shapes[s].size()))) {
      *message = std::string("cannot create ") + kNames[s];
      return -1;
    }
    if (s >= 3) continue;
    std::vector<char> bytes;
    if (!read_file(dir + "/" + id + "." + kNames[s], &bytes) || bytes.size() != t[s].bytes) {
      *message = std::string("missing or wrong-sized ") + kNames[s] + " file";
      return -1;
    }
    if (!bytes.empty() &&
        aclrtMemcpy(t[s].data, t[s].bytes, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
      *message = "aclrtMemcpy failed";
      return -1;
    }
  }
  const int first = 3 - d.spatial_rank;
  std::vector<int64_t> stride, pad, dil, out_pad;
  bool asymmetric = false;
  for (int i = first; i < 3; ++i) {
    stride.push_back(d.stride[i]);
    pad.push_back(d.pad_begin[i]);
    dil.push_back(d.dilation[i]);
    out_pad.push_back(d.output_padding[i]);
    asymmetric = asymmetric || d.pad_begin[i] != d.pad_end[i];
  }
  if (asymmetric) pad = {d.pad_begin[1], d.pad_end[1], d.pad_begin[2], d.pad_end[2]};
  const int64_t bias = d.oc;
  aclIntArray *bias_sizes = aclCreateIntArray(&bias, 1);
  aclIntArray *stride_a = aclCreateIntArray(stride.data(), stride.size());
  aclIntArray *pad_a = aclCreateIntArray(pad.data(), pad.size());
  aclIntArray *dil_a = aclCreateIntArray(dil.data(), dil.size());
  aclIntArray *out_pad_a = aclCreateIntArray(out_pad.data(), out_pad.size());
  const bool mask[3] = {d.mask[0], d.mask[1], d.mask[2]};
  aclBoolArray *mask_a = aclCreateBoolArray(mask, 3);
  uint64_t workspace_size = 0;
  aclOpExecutor *executor = nullptr;
  int status = aclnnConvolutionBackwardGetWorkspaceSize(
      t[0].tensor, t[1].tensor, t[2].tensor, bias_sizes, stride_a, pad_a, dil_a, d.transposed, out_pad_a,
      static_cast<int>(d.groups), mask_a, static_cast<int8_t>(d.cube_math_type), t[3].tensor, t[4].tensor,
      t[5].tensor, &workspace_size, &executor);
  aclDestroyIntArray(bias_sizes);
  aclDestroyIntArray(stride_a);
  aclDestroyIntArray(pad_a);
  aclDestroyIntArray(dil_a);
  aclDestroyIntArray(out_pad_a);
  aclDestroyBoolArray(mask_a);
  if (status != 0) {
    *message = recent();
    return status;
  }
  void *workspace = nullptr;
  if (workspace_size > 0 && aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    *message = "cannot allocate the workspace";
    return -1;
  }
  status = aclnnConvolutionBackward(workspace, workspace_size, executor, stream);
  if (status == 0) status = aclrtSynchronizeStream(stream);
  if (workspace) aclrtFree(workspace);
  if (status != 0) {
    *message = recent();
    return status;
  }
  for (int s = 3; s < 6; ++s) {
    if (!d.present[s] || !d.mask[s - 3]) continue;
    std::vector<char> bytes(t[s].bytes);
    if (!bytes.empty() &&
        aclrtMemcpy(bytes.data(), bytes.size(), t[s].data, t[s].bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      *message = "aclrtMemcpy of an output failed";
      return -1;
    }
    std::ofstream f(dir + "/" + id + "." + kNames[s], std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  *message = "ok";
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::string(argv[1]) == "--algorithm-sweeps") {
    // One ACLNN_CPU_ALGO value per algorithm of the table, under which it is its output's first choice.
    for (const auto *e = aclnn_cpu::conv_bwd::algorithms_begin(); e != aclnn_cpu::conv_bwd::algorithms_end(); ++e) {
      std::cout << e->name << ' ' << aclnn_cpu::conv_bwd::setting_with_first(*e) << '\n';
    }
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " <dir with cases.txt and input files> | --algorithm-sweeps\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::ifstream cases(dir + "/cases.txt");
  std::ofstream results(dir + "/results.txt");
  if (!cases || !results) {
    std::cerr << "cannot open " << dir << "/cases.txt or results.txt\n";
    return 2;
  }
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    std::cerr << "aclInit/aclrtSetDevice failed: " << recent() << "\n";
    return 2;
  }
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  std::string line;
  int ran = 0;
  while (std::getline(cases, line)) {
    std::istringstream is(line);
    std::string id, text;
    if (!(is >> id >> text)) continue;
    ConvDesc desc;
    std::string message;
    int status = -1;
    if (aclnn_cpu::conv_bwd::parse_desc(text, &desc, &message)) status = run_case(dir, id, desc, stream, &message);
    for (char &c : message) c = c == '\n' ? ' ' : c;
    results << id << ' ' << status << ' ' << message << '\n';
    ++ran;
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::cerr << "crosscheck_runner: ran " << ran << " cases\n";
  return 0;
}
