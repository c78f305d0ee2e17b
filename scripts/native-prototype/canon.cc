// A minimal N-API addon over Debian's native RDKit (librdkit-dev, 2022.09): canonical SMILES of
// an array of SMILES, on the calling thread. A prototype for docs/performance.md, "A native
// chemistry core?"; not used by Crucible (src/ never loads it).
//
//   canonicalSmiles(smiles: string[]): (string | null)[]   null when RDKit cannot read one
//   rdkitVersion(): string
#include <node_api.h>

#include <GraphMol/GraphMol.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>
#include <RDGeneral/RDLog.h>
#include <RDGeneral/versions.h>

#include <memory>
#include <string>
#include <vector>

#define CHECK(call)                                              \
  do {                                                           \
    if ((call) != napi_ok) {                                     \
      napi_throw_error(env, nullptr, "N-API call failed: " #call); \
      return nullptr;                                            \
    }                                                            \
  } while (0)

static napi_value CanonicalSmiles(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  bool isArray = false;
  if (argc < 1 || napi_is_array(env, argv[0], &isArray) != napi_ok || !isArray) {
    napi_throw_type_error(env, nullptr, "canonicalSmiles takes an array of strings");
    return nullptr;
  }
  uint32_t n = 0;
  CHECK(napi_get_array_length(env, argv[0], &n));
  napi_value out;
  CHECK(napi_create_array_with_length(env, n, &out));
  std::string buf;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item, result;
    CHECK(napi_get_element(env, argv[0], i, &item));
    size_t len = 0;
    if (napi_get_value_string_utf8(env, item, nullptr, 0, &len) != napi_ok) {
      CHECK(napi_get_null(env, &result));
      CHECK(napi_set_element(env, out, i, result));
      continue;
    }
    buf.resize(len + 1);
    CHECK(napi_get_value_string_utf8(env, item, buf.data(), len + 1, &len));
    buf.resize(len);
    std::unique_ptr<RDKit::ROMol> mol;
    try {
      mol.reset(RDKit::SmilesToMol(buf));
    } catch (...) {
      mol.reset();
    }
    if (!mol) {
      CHECK(napi_get_null(env, &result));
    } else {
      std::string smi = RDKit::MolToSmiles(*mol);
      CHECK(napi_create_string_utf8(env, smi.data(), smi.size(), &result));
    }
    CHECK(napi_set_element(env, out, i, result));
  }
  return out;
}

static napi_value RdkitVersion(napi_env env, napi_callback_info) {
  napi_value v;
  CHECK(napi_create_string_utf8(env, RDKit::rdkitVersion, NAPI_AUTO_LENGTH, &v));
  return v;
}

static napi_value Init(napi_env env, napi_value exports) {
  RDLog::InitLogs();
  boost::logging::disable_logs("rdApp.*");
  napi_property_descriptor props[] = {
      {"canonicalSmiles", nullptr, CanonicalSmiles, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"rdkitVersion", nullptr, RdkitVersion, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  CHECK(napi_define_properties(env, exports, 2, props));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
