#include "suite.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

Layer conv2d(const char *name, int64_t ic, int64_t oc, int64_t hw, int64_t k, int64_t s, int64_t p, int64_t d) {
  Layer l;
  l.name = name;
  l.rank = 2;
  l.ic = ic;
  l.oc = oc;
  l.in = {hw, hw, 1};
  l.k = {k, k, 1};
  l.s = {s, s, 1};
  l.p = {p, p, 0};
  l.d = {d, d, 1};
  return l;
}

Layer conv1d(const char *name, int64_t ic, int64_t oc, int64_t w, int64_t k, int64_t p, int64_t d) {
  Layer l;
  l.name = name;
  l.rank = 1;
  l.ic = ic;
  l.oc = oc;
  l.in = {w, 1, 1};
  l.k = {k, 1, 1};
  l.p = {p, 0, 0};
  l.d = {d, 1, 1};
  return l;
}

Layer conv3d(const char *name, int64_t c, int64_t depth, int64_t hw) {
  Layer l;
  l.name = name;
  l.rank = 3;
  l.ic = c;
  l.oc = c;
  l.in = {depth, hw, hw};
  l.k = {3, 3, 3};
  l.p = {1, 1, 1};
  return l;
}

// DCGAN-style up-sampling by 2: x [ic, hw, hw] -> gradOutput [oc, 2hw, 2hw].
Layer transposed2d(const char *name, int64_t ic, int64_t oc, int64_t hw, int64_t k) {
  Layer l = conv2d(name, ic, oc, hw, k, 2, 1, 1);
  l.transposed = true;
  l.op = k == 3 ? Spatial{1, 1, 0} : Spatial{0, 0, 0};  // k=3 needs outputPadding 1 to double the size
  return l;
}

Layer grouped2d(const char *name, int64_t c, int64_t g, int64_t hw, int64_t k, int64_t s) {
  Layer l = conv2d(name, c, c, hw, k, s, k / 2, 1);
  l.g = g;
  return l;
}

Layer stem2d(const char *name, int64_t oc, int64_t hw, int64_t k, int64_t s, int64_t p) {
  return conv2d(name, 3, oc, hw, k, s, p, 1);
}

Layer strided1d(const char *name, int64_t ic, int64_t oc, int64_t w, int64_t k, int64_t s) {
  Layer l = conv1d(name, ic, oc, w, k, 0, 1);
  l.s = {s, 1, 1};
  return l;
}

}  // namespace

std::vector<Layer> hard_suite(int64_t mb) {
  std::vector<Layer> suite = {
      grouped2d("mbv2_dw3x3_144", 144, 144, 56, 3, 1),     // MobileNetV2 depthwise, 56x56
      grouped2d("mbv2_dw3x3_s2_144", 144, 144, 56, 3, 2),  // its stride-2 block, 56 -> 28
      grouped2d("mbv2_dw3x3_384", 384, 384, 14, 3, 1),     // depthwise, 14x14
      grouped2d("rnx50_g32_128", 128, 32, 56, 3, 1),       // ResNeXt-50 32x4d conv2: 4 channels per group
      grouped2d("rnx50_g32_512", 512, 32, 14, 3, 1),       // conv4: 16 channels per group
      stem2d("rn50_stem", 64, 224, 7, 2, 3),               // Cin 3, 7x7 stride 2
      stem2d("mbv2_stem", 32, 224, 3, 2, 1),               // Cin 3, 3x3 stride 2
      conv2d("vit_patch16", 3, 768, 224, 16, 16, 0, 1),    // kernel = stride patchify
      strided1d("wav2vec_conv0", 1, 512, 16000, 10, 5),    // wav2vec 2.0 feature encoder, 1 s of 16 kHz
  };
  for (Layer &l : suite) l.mb = mb;
  // The seed's problem (N 2, C 2, 7x7, 1x1 kernel): a call's fixed cost, whatever the batch.
  Layer tiny = conv2d("tiny_seed", 2, 2, 7, 1, 1, 0, 1);
  tiny.mb = 2;
  suite.push_back(tiny);
  return suite;
}

std::vector<Layer> model_suite(int64_t mb) {
  std::vector<Layer> suite = {
      conv2d("rn50_3x3_64", 64, 64, 56, 3, 1, 1, 1),             // conv2_x 3x3
      conv2d("rn50_1x1_64to256", 64, 256, 56, 1, 1, 0, 1),       // conv2_x 1x1 expand
      conv2d("rn50_3x3_256", 256, 256, 14, 3, 1, 1, 1),          // conv4_x 3x3
      conv2d("rn50_3x3_s2_128", 128, 128, 56, 3, 2, 1, 1),       // conv3_1 strided 3x3
      conv2d("rn50_1x1_s2_256to512", 256, 512, 56, 1, 2, 0, 1),  // conv3_1 projection shortcut
      conv2d("rn50_3x3_512", 512, 512, 7, 3, 1, 1, 1),           // conv5_x 3x3: 49 positions
      conv2d("rn50_1x1_512to2048", 512, 2048, 7, 1, 1, 0, 1),    // conv5_x 1x1 expand: large N, 49 positions
      conv2d("rn50_1x1_2048to512", 2048, 512, 7, 1, 1, 0, 1),    // conv5_x 1x1 reduce: large K, 49 positions
      conv1d("audio_k3", 256, 256, 500, 3, 1, 1),                // 1-D conv block
      conv1d("audio_k3_d4", 256, 256, 500, 3, 4, 4),             // dilated (WaveNet/TCN-style)
      conv2d("dilated_3x3_d2", 128, 128, 28, 3, 1, 2, 2),        // DeepLab-style atrous
      conv3d("video_3x3x3_64", 64, 8, 14),                       // C3D/R3D-style
      transposed2d("dcgan_tr_k4s2", 256, 128, 16, 4),            // 16x16 -> 32x32
      transposed2d("dcgan_tr_k3s2", 128, 64, 32, 3),             // 32x32 -> 64x64
  };
  for (Layer &l : suite) l.mb = mb;
  return suite;
}

}  // namespace bench
}  // namespace aclnn_cpu
