// Progress on stderr while cl-bench measures.
#include "apps/cl-bench/harness.hpp"

#include <iostream>

#include "apps/cl-bench/harness_helpers.hpp"

namespace bench {

Progress::Progress(std::size_t total_measurements, bool terminal)
    : total_(total_measurements), terminal_(terminal), start_seconds_(now_seconds()) {}

void Progress::begin(const std::string& label) {
  label_ = label;
  phase_.clear();
  draw();
}

void Progress::phase(const std::string& phase) {
  phase_ = phase;
  // Runs on a GPU take microseconds: redraw at most ten times a second.
  if (now_seconds() - last_draw_seconds_ >= 0.1) draw();
}

void Progress::end() {
  ++done_;
  phase_.clear();
  draw();
}

void Progress::case_done(const std::string& label, std::size_t sizes, std::size_t failures,
                         double seconds) {
  if (terminal_) return;
  std::cerr << "cl-bench: [" << done_ << "/" << total_ << "] " << label << ": " << sizes
            << (sizes == 1 ? " size" : " sizes")
            << (failures > 0 ? ", " + std::to_string(failures) + " not ok" : std::string()) << ", "
            << figure(seconds) << " s" << std::endl;
}

void Progress::clear() {
  if (terminal_ && drawn_) {
    std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }
}

void Progress::draw() {
  if (!terminal_) return;
  constexpr std::size_t kWidth = 24;
  const std::size_t filled = total_ == 0 ? kWidth : done_ * kWidth / total_;
  std::string bar = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "]";
  std::string line = bar + " " + std::to_string(done_) + "/" + std::to_string(total_) + "  " +
                     figure(now_seconds() - start_seconds_) + " s  " + label_;
  if (!phase_.empty()) line += "  (" + phase_ + ")";
  if (line.size() > 120) line.resize(120);
  std::cerr << "\r\033[K" << line << std::flush;
  drawn_ = true;
  last_draw_seconds_ = now_seconds();
}

}  // namespace bench
