#include "server/frame_encoding.h"

#include <utility>

#include "image/image_encoding.h"

namespace crease::server {

std::unique_ptr<renderer::UvMaps> UvBufferPool::Take() {
  absl::MutexLock lock(&mu_);
  if (free_.empty()) return std::make_unique<renderer::UvMaps>();
  std::unique_ptr<renderer::UvMaps> maps = std::move(free_.back());
  free_.pop_back();
  return maps;
}

void UvBufferPool::Give(std::unique_ptr<renderer::UvMaps> maps) {
  absl::MutexLock lock(&mu_);
  if (free_.size() < 4) free_.push_back(std::move(maps));
}

void FrameEncoding::EncodeScreen() {
  outcome.encoded = encoding == ImageEncoding::kPng
                        ? image::EncodePng(pixels.rows())
                        : image::EncodeJpeg(pixels.rows(), jpeg_quality);
  pixels = renderer::ReadbackPixels();  // the slot goes back at once
  outcome.encode_ms = handed.Elapsed();
}

void FrameEncoding::EncodeNormal() {
  if (uv_maps_raw) {
    normal_map = std::string(uv_maps->normal.pixels.begin(),
                             uv_maps->normal.pixels.end());
  } else {
    normal_map = image::EncodePng(uv_maps->normal, 1, image::PngFilter::kSub);
  }
}

void FrameEncoding::EncodeHeight() {
  const renderer::UvMaps& maps = *uv_maps;
  if (uv_maps_raw) {
    std::string raw(2 * maps.height.size(), '\0');
    for (size_t i = 0; i < maps.height.size(); ++i) {
      raw[2 * i] = static_cast<char>(maps.height[i] & 0xff);
      raw[2 * i + 1] = static_cast<char>(maps.height[i] >> 8);
    }
    height_map = std::move(raw);
  } else {
    height_map = image::EncodePngGray16(maps.size, maps.size, maps.height, 1,
                                        image::PngFilter::kSub);
  }
}

void FrameEncoding::Answer() {
  if (uv_maps != nullptr) {
    if (!normal_map.ok()) {
      outcome.uv_maps = normal_map.status();
    } else if (!height_map.ok()) {
      outcome.uv_maps = height_map.status();
    } else {
      EncodedUvMaps encoded;
      encoded.size = uv_maps->size;
      encoded.height_range = uv_maps->height_range;
      encoded.height_zero = uv_maps->height_zero;
      encoded.normal_map = *std::move(normal_map);
      encoded.height_map = *std::move(height_map);
      outcome.uv_maps = std::move(encoded);
    }
    outcome.uv_maps_ms += handed.Elapsed();
    uv_pool->Give(std::move(uv_maps));
  }
  std::move(done)(std::move(outcome));
}

void PostEncodingTask(ThreadPool* encoders,
                      std::shared_ptr<FrameEncoding> encoding,
                      void (FrameEncoding::*task)()) {
  encoders->Post([encoding = std::move(encoding), task] {
    ((*encoding).*task)();
    if (encoding->left.fetch_sub(1) == 1) encoding->Answer();
  });
}

}  // namespace crease::server
