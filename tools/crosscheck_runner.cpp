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
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_cpu/ext.h"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/descriptor.hpp"
#include "core/config.hpp"
#include "harness/conv_call.hpp"
#include "harness/desc_attrs.hpp"
#include "harness/device_tensor.hpp"

namespace {

using aclnn_cpu::conv_bwd::ConvDesc;
namespace harness = aclnn_cpu::harness;

const char *const kNames[6] = {"gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"};

bool read_file(const std::string &path, std::vector<unsigned char> *out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

// The case's tensors in device memory, its inputs read from their files; returns false and fills *message when
// that fails.
bool upload_case(const std::string &dir, const std::string &id, const ConvDesc &d, harness::DeviceTensor t[6],
                 std::string *message) {
  std::vector<int64_t> shapes[6];
  aclnn_cpu::conv_bwd::desc_shapes(d, shapes);
  std::string error;
  for (int s = 0; s < 6; ++s) {
    if (!d.present[s]) continue;
    if (!t[s].create(shapes[s], d.dtype[s], harness::tensor_format(s, shapes[s].size()), &error)) {
      *message = std::string("cannot create ") + kNames[s];
      return false;
    }
    if (s >= 3) continue;
    std::vector<unsigned char> bytes;
    if (!read_file(dir + "/" + id + "." + kNames[s], &bytes) || bytes.size() != t[s].bytes()) {
      *message = std::string("missing or wrong-sized ") + kNames[s] + " file";
      return false;
    }
    if (!t[s].upload(bytes, &error)) {
      *message = "aclrtMemcpy failed";
      return false;
    }
  }
  return true;
}

// Writes the requested outputs next to the inputs; false (and *message) when one cannot be read back.
bool write_outputs(const std::string &dir, const std::string &id, const ConvDesc &d, const harness::DeviceTensor t[6],
                   std::string *message) {
  for (int s = 3; s < 6; ++s) {
    if (!d.present[s] || !d.mask[s - 3]) continue;
    std::vector<unsigned char> bytes;
    std::string error;
    if (!t[s].download(&bytes, &error)) {
      *message = "aclrtMemcpy of an output failed";
      return false;
    }
    std::ofstream f(dir + "/" + id + "." + kNames[s], std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  return true;
}

// Runs one case; returns the aclnn status and fills *message.
int run_case(const std::string &dir, const std::string &id, const ConvDesc &d, aclrtStream stream,
             std::string *message) {
  aclnnCpuSetSoc(aclnn_cpu::product_name(d.product));
  harness::DeviceTensor t[6];
  if (!upload_case(dir, id, d, t, message)) return -1;
  aclTensor *tensors[6];
  for (int s = 0; s < 6; ++s) tensors[s] = t[s].get();
  harness::Workspace workspace;
  const harness::Outcome outcome =
      harness::call(harness::ConvArgs(harness::desc_attrs(d)), tensors, &workspace, stream);
  if (outcome.failed == harness::Step::kWorkspace) {
    *message = "cannot allocate the workspace";
    return -1;
  }
  if (!outcome.ok()) {
    *message = harness::recent_error();
    return outcome.status;
  }
  if (!write_outputs(dir, id, d, t, message)) return -1;
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
    std::cerr << "aclInit/aclrtSetDevice failed: " << harness::recent_error() << "\n";
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
