#include "conv_bwd/descriptor.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "conv_bwd/output_size.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr char kDimLetter[3] = {'d', 'h', 'w'};

// The spatial dims a call of `rank` names, as indices into the D, H, W arrays.
int first_dim(int spatial_rank) { return 3 - spatial_rank; }

struct DtypeToken {
  const char *token;
  aclDataType dtype;
};
constexpr DtypeToken kDtypeTokens[] = {
    {"f32", ACL_FLOAT}, {"f16", ACL_FLOAT16}, {"bf16", ACL_BF16}, {"hif8", ACL_HIFLOAT8}, {"e4m3", ACL_FLOAT8_E4M3FN}};

bool parse_dtype_token(const std::string &token, aclDataType *dtype) {
  for (const DtypeToken &t : kDtypeTokens) {
    if (token == t.token) {
      *dtype = t.dtype;
      return true;
    }
  }
  return false;
}

void append_spatial(std::ostringstream &os, const char *kind, const int64_t *values, const ConvDesc &desc) {
  for (int d = first_dim(desc.spatial_rank); d < 3; ++d) os << kind << kDimLetter[d] << values[d];
}

bool all_equal_dtypes(const ConvDesc &desc) {
  for (int t = 0; t < 6; ++t) {
    if (!desc.present[t] || desc.dtype[t] != desc.dtype[0]) return false;
  }
  return true;
}

// One parsed "<name><int>[:<int>]" item.
struct Item {
  int64_t a = 0, b = 0;
  bool has_b = false;
};

bool parse_int(const std::string &s, size_t *pos, int64_t *out) {
  size_t start = *pos;
  bool negative = false;
  if (*pos < s.size() && s[*pos] == '-') {
    negative = true;
    ++*pos;
  }
  int64_t v = 0;
  size_t digits = 0;
  while (*pos < s.size() && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
    const int digit = s[*pos] - '0';
    if (v > (INT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
    ++*pos;
    ++digits;
  }
  if (digits == 0) {
    *pos = start;
    return false;
  }
  *out = negative ? -v : v;
  return true;
}

// Splits "ih7iw7" style fields into named items.
bool parse_items(const std::string &field, std::map<std::string, Item> *items, std::string *error) {
  size_t pos = 0;
  while (pos < field.size()) {
    size_t start = pos;
    while (pos < field.size() && std::islower(static_cast<unsigned char>(field[pos]))) ++pos;
    std::string name = field.substr(start, pos - start);
    Item item;
    if (name.empty() || !parse_int(field, &pos, &item.a)) {
      *error = "cannot read \"" + field + "\": expected <name><integer> items";
      return false;
    }
    if (pos < field.size() && field[pos] == ':') {
      ++pos;
      if (!parse_int(field, &pos, &item.b)) {
        *error = "cannot read \"" + field + "\": expected an integer after ':'";
        return false;
      }
      item.has_b = true;
    }
    if (items->count(name) != 0) {
      *error = "\"" + name + "\" is given twice";
      return false;
    }
    (*items)[name] = item;
  }
  return true;
}

bool parse_dtypes(const std::string &spec, ConvDesc *desc, std::string *error) {
  std::vector<std::string> tokens;
  std::string token;
  std::istringstream is(spec);
  while (std::getline(is, token, ':')) tokens.push_back(token);
  if (tokens.size() == 1) tokens.assign(6, tokens[0]);
  if (tokens.size() != 6) {
    *error = "dt needs 1 or 6 dtypes (gradOutput:input:weight:gradInput:gradWeight:gradBias), got \"" + spec + "\"";
    return false;
  }
  for (int t = 0; t < 6; ++t) {
    if (t >= kDescGradInput && tokens[t] == "-") {
      desc->present[t] = false;
      continue;
    }
    desc->present[t] = true;
    if (!parse_dtype_token(tokens[t], &desc->dtype[t])) {
      *error = "unknown dtype \"" + tokens[t] + "\"; expected f32, f16, bf16, hif8 or e4m3" +
               (t >= kDescGradInput ? " (or - for an output not passed)" : "");
      return false;
    }
  }
  return true;
}

// Moves the spatial items of `items` into `desc` and erases them; fills `given_out`.
bool take_spatial(std::map<std::string, Item> *items, ConvDesc *desc, bool given_out[3], std::string *error) {
  struct Kind {
    const char *prefix;
    int64_t *values;
  };
  const Kind kinds[] = {{"i", desc->in},        {"o", desc->out},      {"k", desc->kernel},         {"s", desc->stride},
                        {"p", desc->pad_begin}, {"d", desc->dilation}, {"op", desc->output_padding}};
  int rank = 1;
  for (const Kind &kind : kinds) {
    for (int d = 0; d < 3; ++d) {
      const std::string name = std::string(kind.prefix) + kDimLetter[d];
      auto it = items->find(name);
      if (it == items->end()) continue;
      rank = std::max(rank, 3 - d);
      kind.values[d] = it->second.a;
      if (kind.values == desc->pad_begin) {
        desc->pad_end[d] = it->second.has_b ? it->second.b : it->second.a;
      } else if (it->second.has_b) {
        *error = "only padding takes a begin:end pair, got \"" + name + "\"";
        return false;
      }
      if (kind.values == desc->out) given_out[d] = true;
      items->erase(it);
    }
  }
  desc->spatial_rank = rank;
  return true;
}

}  // namespace

const char *dtype_token(aclDataType dtype) {
  for (const DtypeToken &t : kDtypeTokens) {
    if (t.dtype == dtype) return t.token;
  }
  return "?";
}

int64_t implied_out_size(const ConvDesc &desc, int d) {
  DimSizes sizes;
  sizes.in = desc.in[d];
  sizes.kernel = desc.kernel[d];
  sizes.attr.stride = desc.stride[d];
  sizes.attr.dilation = desc.dilation[d];
  sizes.attr.pad_begin = desc.pad_begin[d];
  sizes.attr.pad_end = desc.pad_end[d];
  sizes.attr.output_padding = desc.output_padding[d];
  // The forward formula divides by the stride, which a descriptor may hold as anything (validation refuses it later).
  if (!desc.transposed && sizes.attr.stride < 1) sizes.attr.stride = 1;
  // Attribute values may be as large as int64 allows; a size that does not fit gives -1.
  const Int128 size = desc.transposed ? transposed_output_size(sizes).exact : forward_output_size(sizes).exact;
  return size >= -1 && size <= INT64_MAX ? static_cast<int64_t>(size) : -1;
}

void desc_shapes(const ConvDesc &desc, std::vector<int64_t> shapes[6]) {
  const int64_t g = desc.groups > 0 ? desc.groups : 1;
  shapes[kDescGradOutput] = {desc.mb, desc.oc};
  shapes[kDescInput] = {desc.mb, desc.ic};
  shapes[kDescWeight] =
      desc.transposed ? std::vector<int64_t>{desc.ic, desc.oc / g} : std::vector<int64_t>{desc.oc, desc.ic / g};
  for (int d = first_dim(desc.spatial_rank); d < 3; ++d) {
    shapes[kDescGradOutput].push_back(desc.out[d]);
    shapes[kDescInput].push_back(desc.in[d]);
    shapes[kDescWeight].push_back(desc.kernel[d]);
  }
  shapes[kDescGradInput] = shapes[kDescInput];
  shapes[kDescGradWeight] = shapes[kDescWeight];
  shapes[kDescGradBias] = {desc.oc};
}

std::string format_desc(const ConvDesc &desc) {
  std::ostringstream os;
  os << "mb" << desc.mb << "_g" << desc.groups << "_ic" << desc.ic << "oc" << desc.oc << '_';
  append_spatial(os, "i", desc.in, desc);
  os << '_';
  append_spatial(os, "o", desc.out, desc);
  os << '_';
  append_spatial(os, "k", desc.kernel, desc);
  os << '_';
  append_spatial(os, "s", desc.stride, desc);
  os << '_';
  for (int d = first_dim(desc.spatial_rank); d < 3; ++d) {
    os << 'p' << kDimLetter[d] << desc.pad_begin[d];
    if (desc.pad_end[d] != desc.pad_begin[d]) os << ':' << desc.pad_end[d];
  }
  os << '_';
  append_spatial(os, "d", desc.dilation, desc);
  if (desc.transposed) {
    os << "_tr1_";
    append_spatial(os, "op", desc.output_padding, desc);
  }
  os << "_dt";
  if (all_equal_dtypes(desc)) {
    os << dtype_token(desc.dtype[0]);
  } else {
    for (int t = 0; t < 6; ++t) os << (t ? ":" : "") << (desc.present[t] ? dtype_token(desc.dtype[t]) : "-");
  }
  os << "_mask" << desc.mask[0] << desc.mask[1] << desc.mask[2] << "_cmt" << desc.cube_math_type << '_'
     << product_name(desc.product);
  return os.str();
}

bool parse_desc(const std::string &text, ConvDesc *out, std::string *error) {
  ConvDesc desc;
  std::map<std::string, Item> items;
  std::vector<std::string> fields;
  std::istringstream is(text);
  std::string piece;
  while (std::getline(is, piece, '_')) {
    // SoC names may themselves hold a '_' ("Ascend910_93").
    if (!fields.empty() && fields.back().compare(0, 6, "Ascend") == 0 && !piece.empty() &&
        piece.find_first_not_of("0123456789") == std::string::npos) {
      fields.back() += "_" + piece;
    } else {
      fields.push_back(piece);
    }
  }
  for (const std::string &field : fields) {
    if (field.empty()) continue;
    if (field.compare(0, 6, "Ascend") == 0) {
      if (!parse_product(field, &desc.product)) {
        *error = "unknown product \"" + field + "\"";
        return false;
      }
    } else if (field.compare(0, 2, "dt") == 0) {
      if (!parse_dtypes(field.substr(2), &desc, error)) return false;
    } else if (field.compare(0, 4, "mask") == 0) {
      const std::string bits = field.substr(4);
      if (bits.size() != 3 || bits.find_first_not_of("01") != std::string::npos) {
        *error = "mask needs three 0/1 digits, got \"" + bits + "\"";
        return false;
      }
      for (int i = 0; i < 3; ++i) desc.mask[i] = bits[i] == '1';
    } else if (!parse_items(field, &items, error)) {
      return false;
    }
  }
  bool given_out[3] = {false, false, false};
  if (!take_spatial(&items, &desc, given_out, error)) return false;
  for (const auto &kv : items) {
    const int64_t v = kv.second.a;
    if (kv.second.has_b) {
      *error = "only padding takes a begin:end pair, got \"" + kv.first + "\"";
      return false;
    }
    if (kv.first == "mb") {
      desc.mb = v;
    } else if (kv.first == "g") {
      desc.groups = v;
    } else if (kv.first == "ic") {
      desc.ic = v;
    } else if (kv.first == "oc") {
      desc.oc = v;
    } else if (kv.first == "tr") {
      desc.transposed = v != 0;
    } else if (kv.first == "cmt") {
      desc.cube_math_type = static_cast<int>(v);
    } else {
      *error = "unknown field \"" + kv.first + "\"";
      return false;
    }
  }
  for (int d = first_dim(desc.spatial_rank); d < 3; ++d) {
    if (!given_out[d]) desc.out[d] = implied_out_size(desc, d);
  }
  *out = desc;
  return true;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
