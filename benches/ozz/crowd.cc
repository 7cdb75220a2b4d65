// The crowd workload of `marionette bench crowd`, written against ozz-animation (0.16), so the
// two runtimes can be timed side by side (benches/ozz/compare.sh builds and runs it).
//
// N characters of one rig, each playing the same clips from its own phase (character i starts
// i * 0.37 s into each clip, looping), every frame advancing 1/60 s and, stage by stage over the
// whole crowd:
//   sample          a SamplingJob per clip, each character with its own Context per clip
//   blend           a BlendingJob of the clips at equal weights (50/50 for two)
//   local-to-model  a LocalToModelJob
//   palette         model matrix * inverse bind matrix per skin joint (ozz::math::Float4x4
//                   products, as ozz's skinning sample does); inverse binds read from the glTF
//                   skin, skin joints matched to ozz joints by name
// Warm-up frames first, then timed frames; prints one JSON line shaped like
// `marionette bench crowd --json` (paths[0] is "ozz"), with an extra "total_no_palette" stage
// (sample + blend + local-to-model per frame: the workload of ozz's own crowd samples).
//
// Usage:
//   ozz_crowd --skeleton skeleton.ozz --rig Fox.glb [--count N] [--frames F] [--warmup W]
//             [--dump I] Walk.ozz Run.ozz
// --dump I adds "dump": character I's clip times and model matrices (column-major, by joint
// name) after the last frame, to check the pose against another runtime.
//
// SPDX-License-Identifier: MIT

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/blending_job.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/containers/vector.h"
#include "ozz/base/io/archive.h"
#include "ozz/base/io/stream.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/soa_transform.h"
#include "ozz/base/span.h"

// tinygltf ships with ozz (src/animation/offline/gltf/extern), used here only to read the skin.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include "extern/tiny_gltf.h"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void Fail(const std::string& _message) {
  std::fprintf(stderr, "ozz_crowd: %s\n", _message.c_str());
  std::exit(1);
}

template <typename T>
void Load(const std::string& _path, T* _object, const char* _what) {
  ozz::io::File file(_path.c_str(), "rb");
  if (!file.opened()) {
    Fail("cannot open " + _path + ": give an existing " + _what + " file (.ozz)");
  }
  ozz::io::IArchive archive(&file);
  if (!archive.TestTag<T>()) {
    Fail(_path + " is not an ozz " + _what +
         " archive of this ozz version: convert the rig again with this ozz's gltf2ozz");
  }
  archive >> *_object;
}

// The skin of a glTF rig: ozz joint index and inverse bind matrix per skin joint.
struct Skin {
  std::vector<int> joints;
  std::vector<ozz::math::Float4x4> inverse_binds;
};

Skin LoadSkin(const std::string& _path, const ozz::animation::Skeleton& _skeleton) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  // Images are not needed (and not decoded: no stb_image).
  loader.SetImageLoader([](tinygltf::Image*, const int, std::string*, std::string*, int, int,
                           const unsigned char*, int, void*) { return true; },
                        nullptr);
  const bool glb = _path.size() >= 4 && _path.compare(_path.size() - 4, 4, ".glb") == 0;
  const bool ok = glb ? loader.LoadBinaryFromFile(&model, &err, &warn, _path)
                      : loader.LoadASCIIFromFile(&model, &err, &warn, _path);
  if (!ok) {
    Fail("cannot read the rig " + _path + ": " + err);
  }
  if (model.skins.empty()) {
    Fail(_path + " has no skin (skins is empty): give the skinned rig the .ozz files came from");
  }
  const tinygltf::Skin& gskin = model.skins[0];
  const auto names = _skeleton.joint_names();
  Skin skin;
  for (size_t k = 0; k < gskin.joints.size(); ++k) {
    const std::string& name = model.nodes.at(gskin.joints[k]).name;
    int found = -1;
    for (size_t j = 0; j < names.size(); ++j) {
      if (name == names[j]) {
        found = static_cast<int>(j);
        break;
      }
    }
    if (found < 0) {
      Fail(_path + ": skins[0].joints[" + std::to_string(k) + "] (node \"" + name +
           "\") is not a joint of the ozz skeleton: convert this rig with gltf2ozz");
    }
    skin.joints.push_back(found);
  }
  std::vector<float> ibm(16 * gskin.joints.size(), 0.f);
  for (size_t k = 0; k < gskin.joints.size(); ++k) {
    ibm[16 * k] = ibm[16 * k + 5] = ibm[16 * k + 10] = ibm[16 * k + 15] = 1.f;
  }
  if (gskin.inverseBindMatrices >= 0) {
    const tinygltf::Accessor& acc = model.accessors.at(gskin.inverseBindMatrices);
    if (acc.type != TINYGLTF_TYPE_MAT4 ||
        acc.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT ||
        acc.count < gskin.joints.size() || acc.bufferView < 0) {
      Fail(_path + ": skins[0].inverseBindMatrices is not a float MAT4 accessor per joint");
    }
    const tinygltf::BufferView& view = model.bufferViews.at(acc.bufferView);
    const tinygltf::Buffer& buffer = model.buffers.at(view.buffer);
    const size_t stride = view.byteStride ? view.byteStride : 64;
    const size_t base = view.byteOffset + acc.byteOffset;
    if (base + stride * (gskin.joints.size() - 1) + 64 > buffer.data.size()) {
      Fail(_path + ": skins[0].inverseBindMatrices runs past its buffer");
    }
    for (size_t k = 0; k < gskin.joints.size(); ++k) {
      std::memcpy(&ibm[16 * k], buffer.data.data() + base + stride * k, 64);
    }
  }
  for (size_t k = 0; k < gskin.joints.size(); ++k) {
    const float* m = &ibm[16 * k];  // column-major, as ozz's Float4x4
    skin.inverse_binds.push_back(
        {{ozz::math::simd_float4::LoadPtrU(m), ozz::math::simd_float4::LoadPtrU(m + 4),
          ozz::math::simd_float4::LoadPtrU(m + 8), ozz::math::simd_float4::LoadPtrU(m + 12)}});
  }
  return skin;
}

// The same wrap as Marionette's Clip::wrap_time(t, Loop) for a clip starting at 0.
float Wrap(float _t, float _duration) {
  if (!(_duration > 0.f) || !std::isfinite(_t)) {
    return 0.f;
  }
  float r = std::fmod(_t, _duration);
  if (r < 0.f) {
    r += _duration;
  }
  return std::min(r, _duration);
}

struct Character {
  std::vector<float> times;
  std::vector<std::unique_ptr<ozz::animation::SamplingJob::Context>> contexts;
  std::vector<ozz::vector<ozz::math::SoaTransform>> locals;
  ozz::vector<ozz::math::SoaTransform> blended;
  ozz::vector<ozz::math::Float4x4> models;
  ozz::vector<ozz::math::Float4x4> palette;
};

struct Times {
  double sample = 0, blend = 0, local_to_model = 0, palette = 0, one_pass = 0;
};

double Seconds(Clock::time_point _a, Clock::time_point _b) {
  return std::chrono::duration<double>(_b - _a).count();
}

// Median (the upper one for an even count, as `marionette bench crowd`) and minimum.
std::string Figure(std::vector<double> _v, double _per) {
  std::sort(_v.begin(), _v.end());
  const double median = _v.empty() ? 0 : _v[_v.size() / 2];
  const double min = _v.empty() ? 0 : _v[0];
  char out[256];
  std::snprintf(out, sizeof(out),
                "{\"ms_median\":%.6f,\"ms_min\":%.6f,\"ns_per_joint_median\":%.4f,"
                "\"ns_per_joint_min\":%.4f}",
                median * 1e3, min * 1e3, median * 1e9 / _per, min * 1e9 / _per);
  return out;
}

std::string Quote(const std::string& _s) {
  std::string out = "\"";
  for (char c : _s) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    if (static_cast<unsigned char>(c) >= 0x20) {
      out += c;
    }
  }
  return out + "\"";
}

std::string Stem(const std::string& _path) {
  const size_t slash = _path.find_last_of('/');
  std::string name = slash == std::string::npos ? _path : _path.substr(slash + 1);
  const size_t dot = name.rfind(".ozz");
  return dot == std::string::npos ? name : name.substr(0, dot);
}

long Count(const char* _flag, const char* _value) {
  char* end = nullptr;
  const long n = std::strtol(_value, &end, 10);
  if (end == _value || *end != '\0' || n < 0) {
    Fail(std::string(_flag) + " takes a count, not \"" + _value + "\"");
  }
  return n;
}

}  // namespace

int main(int _argc, char** _argv) {
  std::string skeleton_path, rig_path;
  std::vector<std::string> clip_paths;
  long count = 1000, frames = 300, warmup = 30, dump = -1;
  for (int i = 1; i < _argc; ++i) {
    const std::string arg = _argv[i];
    const bool has_value = i + 1 < _argc;
    if (arg == "--skeleton" && has_value) {
      skeleton_path = _argv[++i];
    } else if (arg == "--rig" && has_value) {
      rig_path = _argv[++i];
    } else if (arg == "--count" && has_value) {
      count = Count("--count", _argv[++i]);
    } else if (arg == "--frames" && has_value) {
      frames = Count("--frames", _argv[++i]);
    } else if (arg == "--warmup" && has_value) {
      warmup = Count("--warmup", _argv[++i]);
    } else if (arg == "--dump" && has_value) {
      dump = Count("--dump", _argv[++i]);
    } else if (arg.rfind("--", 0) == 0) {
      Fail("unknown option " + arg +
           "; usage: ozz_crowd --skeleton S.ozz --rig RIG.glb [--count N] [--frames F] "
           "[--warmup W] [--dump I] CLIP.ozz...");
    } else {
      clip_paths.push_back(arg);
    }
  }
  if (dump >= count) {
    Fail("--dump " + std::to_string(dump) + " names no character of " + std::to_string(count));
  }
  if (skeleton_path.empty() || rig_path.empty() || clip_paths.empty()) {
    Fail("usage: ozz_crowd --skeleton S.ozz --rig RIG.glb [--count N] [--frames F] "
         "[--warmup W] [--dump I] CLIP.ozz...");
  }

  ozz::animation::Skeleton skeleton;
  Load(skeleton_path, &skeleton, "skeleton");
  std::vector<std::unique_ptr<ozz::animation::Animation>> clips;
  for (const auto& path : clip_paths) {
    clips.push_back(std::make_unique<ozz::animation::Animation>());
    Load(path, clips.back().get(), "animation");
    if (clips.back()->num_tracks() != skeleton.num_joints()) {
      Fail(path + " has " + std::to_string(clips.back()->num_tracks()) +
           " tracks for a skeleton of " + std::to_string(skeleton.num_joints()) +
           " joints: convert both from the same rig");
    }
  }
  const Skin skin = LoadSkin(rig_path, skeleton);
  const int joints = skeleton.num_joints();
  const int soa_joints = skeleton.num_soa_joints();
  const size_t nclips = clips.size();

  // Check of the skin mapping: at the rest pose the palette is the identity when the rig's bind
  // pose is its rest pose (it is for the Fox), whatever the joint order.
  float bind_check = 0.f;
  {
    ozz::vector<ozz::math::Float4x4> models(joints);
    ozz::animation::LocalToModelJob ltm;
    ltm.skeleton = &skeleton;
    ltm.input = skeleton.joint_rest_poses();
    ltm.output = make_span(models);
    if (!ltm.Run()) {
      Fail("LocalToModelJob failed at the rest pose");
    }
    for (size_t k = 0; k < skin.joints.size(); ++k) {
      const ozz::math::Float4x4 p = models[skin.joints[k]] * skin.inverse_binds[k];
      float m[16];
      for (int c = 0; c < 4; ++c) {
        ozz::math::StorePtrU(p.cols[c], m + 4 * c);
      }
      for (int e = 0; e < 16; ++e) {
        bind_check = std::max(bind_check, std::fabs(m[e] - (e % 5 == 0 ? 1.f : 0.f)));
      }
    }
  }

  std::vector<Character> crowd(count);
  for (long i = 0; i < count; ++i) {
    Character& ch = crowd[i];
    for (size_t k = 0; k < nclips; ++k) {
      ch.times.push_back(Wrap(static_cast<float>(i) * 0.37f, clips[k]->duration()));
      ch.contexts.push_back(std::make_unique<ozz::animation::SamplingJob::Context>(joints));
      ch.locals.emplace_back(skeleton.joint_rest_poses().begin(),
                             skeleton.joint_rest_poses().end());
    }
    ch.blended.resize(soa_joints);
    ch.models.resize(joints, ozz::math::Float4x4::identity());
    ch.palette.resize(skin.joints.size(), ozz::math::Float4x4::identity());
  }

  const float dt = 1.f / 60.f;
  bool ok = true;
  // One character's stages (as ozz's samples run them: a job per character and stage).
  auto sample = [&](Character& ch) {
      for (size_t k = 0; k < nclips; ++k) {
        const float duration = clips[k]->duration();
        ch.times[k] = Wrap(ch.times[k] + dt, duration);
        ozz::animation::SamplingJob job;
        job.animation = clips[k].get();
        job.context = ch.contexts[k].get();
        job.ratio = duration > 0.f ? ch.times[k] / duration : 0.f;
        job.output = make_span(ch.locals[k]);
        ok &= job.Run();
      }
  };
  auto blend = [&](Character& ch) {
      ozz::animation::BlendingJob::Layer layers[8];
      const size_t n = std::min<size_t>(nclips, 8);
      for (size_t k = 0; k < n; ++k) {
        layers[k].transform = make_span(ch.locals[k]);
        layers[k].weight = 1.f / static_cast<float>(n);
      }
      ozz::animation::BlendingJob job;
      job.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(layers, n);
      job.rest_pose = skeleton.joint_rest_poses();
      job.output = make_span(ch.blended);
      ok &= job.Run();
  };
  auto local_to_model = [&](Character& ch) {
      ozz::animation::LocalToModelJob job;
      job.skeleton = &skeleton;
      job.input = make_span(ch.blended);
      job.output = make_span(ch.models);
      ok &= job.Run();
  };
  auto palette = [&](Character& ch) {
      const size_t n = skin.joints.size();
      for (size_t k = 0; k < n; ++k) {
        ch.palette[k] = ch.models[skin.joints[k]] * skin.inverse_binds[k];
      }
  };
  std::vector<Times> timed;
  timed.reserve(frames);
  // Seconds `stage` takes over the whole crowd.
  auto over_crowd = [&](auto& stage) {
    const auto start = Clock::now();
    for (Character& ch : crowd) {
      stage(ch);
    }
    return Seconds(start, Clock::now());
  };
  for (long f = 0; f < warmup + frames; ++f) {
    // A frame stage by stage over the crowd (each stage timed), then a frame in one pass per
    // character (every stage while its data is in cache), as `marionette bench crowd` does.
    Times t;
    t.sample = over_crowd(sample);
    t.blend = over_crowd(blend);
    t.local_to_model = over_crowd(local_to_model);
    t.palette = over_crowd(palette);
    const auto t0 = Clock::now();
    for (Character& ch : crowd) {
      sample(ch);
      blend(ch);
      local_to_model(ch);
      palette(ch);
    }
    t.one_pass = Seconds(t0, Clock::now());
    if (f >= warmup) {
      timed.push_back(t);
    }
  }
  if (!ok) {
    Fail("an ozz job reported invalid inputs");
  }

  // Keeps the palettes alive (and is a checksum of the last frame).
  double checksum = 0;
  for (const Character& ch : crowd) {
    for (const auto& m : ch.palette) {
      checksum += ozz::math::GetX(m.cols[3]) + ozz::math::GetY(m.cols[3]);
    }
  }

  const double per = std::max(1.0, static_cast<double>(count) * joints);
  auto column = [&](double (*pick)(const Times&)) {
    std::vector<double> v;
    for (const Times& t : timed) {
      v.push_back(pick(t));
    }
    return Figure(v, per);
  };
  std::string dumped;
  if (dump >= 0) {
    const Character& ch = crowd[dump];
    dumped = ",\"dump\":{\"character\":" + std::to_string(dump) + ",\"times\":[";
    char number[32];
    for (size_t k = 0; k < nclips; ++k) {
      std::snprintf(number, sizeof(number), "%s%.9g", k ? "," : "", ch.times[k]);
      dumped += number;
    }
    dumped += "],\"model\":{";
    for (int j = 0; j < joints; ++j) {
      float m[16];
      for (int c = 0; c < 4; ++c) {
        ozz::math::StorePtrU(ch.models[j].cols[c], m + 4 * c);
      }
      dumped += (j ? "," : "") + Quote(skeleton.joint_names()[j]) + ":[";
      for (int e = 0; e < 16; ++e) {
        std::snprintf(number, sizeof(number), "%s%.9g", e ? "," : "", m[e]);
        dumped += number;
      }
      dumped += "]";
    }
    dumped += "}}";
  }
  std::string names;
  for (size_t k = 0; k < nclips; ++k) {
    names += (k ? "," : "") + Quote(Stem(clip_paths[k]));
  }
  std::printf(
      "{\"runtime\":\"ozz-animation\",\"simd\":%s,\"rig\":%s,\"joints\":%d,\"skin_joints\":%zu,"
      "\"clips\":[%s],\"count\":%ld,\"frames\":%ld,\"warmup\":%ld,\"bind_check\":%g,"
      "\"checksum\":%.3f,\"paths\":[{\"path\":\"ozz\",\"threads\":1,\"sample\":%s,\"blend\":%s,"
      "\"local_to_model\":%s,\"palette\":%s,\"local_to_model_palette\":%s,\"total\":%s,"
      "\"total_no_palette\":%s,\"one_pass\":%s}]%s}\n",
      Quote(ozz::math::SimdImplementationName()).c_str(), Quote(rig_path).c_str(), joints,
      skin.joints.size(), names.c_str(), count, frames, warmup, bind_check, checksum,
      column([](const Times& t) { return t.sample; }).c_str(),
      column([](const Times& t) { return t.blend; }).c_str(),
      column([](const Times& t) { return t.local_to_model; }).c_str(),
      column([](const Times& t) { return t.palette; }).c_str(),
      column([](const Times& t) { return t.local_to_model + t.palette; }).c_str(),
      column([](const Times& t) {
        return t.sample + t.blend + t.local_to_model + t.palette;
      }).c_str(),
      column([](const Times& t) { return t.sample + t.blend + t.local_to_model; }).c_str(),
      column([](const Times& t) { return t.one_pass; }).c_str(),
      dumped.c_str());
  return 0;
}
