#include "apps/mankalah/endgame/db_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <random>

#include "apps/mankalah/endgame/cpu_builder.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/endgame/database_builder.hpp"
#include "apps/mankalah/endgame/level_file.hpp"
#include "framework/process_group.hpp"

namespace mankalah::endgame {

namespace {

std::string rate_text(double per_second) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g M", per_second / 1e6);
  return text;
}

bool several(const clf::ProcessGroup* group) { return group != nullptr && group->size() > 1; }

void print_level(const LevelDone& done, std::ostream& out) {
  if (done.kept) {
    out << "level " << done.level << ": " << done.positions << " positions, kept\n" << std::flush;
    return;
  }
  char line[256];
  if (done.setup.seconds > 0) {
    std::snprintf(line, sizeof line,
                  "devices ready in %.2f s (lower levels loaded, %.2f GB of host memory pinned for "
                  "the level arrays in %.2f s)\n",
                  done.setup.seconds, static_cast<double>(done.setup.pinned_bytes) / 1e9,
                  done.setup.pinning_seconds);
    out << line;
  }
  const double rate = static_cast<double>(done.positions) / std::max(done.seconds, 1e-9);
  std::string details = done.passes > 0 ? ", " + std::to_string(done.passes) + " passes" : "";
  if (done.most_busy_seconds > done.least_busy_seconds) {
    std::snprintf(line, sizeof line, ", devices busy %.3f-%.3f s", done.least_busy_seconds,
                  done.most_busy_seconds);
    details += line;
  }
  if (done.most_read_seconds > 0) {
    std::snprintf(line, sizeof line, ", reading back %.3f s", done.most_read_seconds);
    details += line;
  }
  if (done.exchange_seconds > 0) {
    std::snprintf(line, sizeof line, ", %.3f s exchanging", done.exchange_seconds);
    details += line;
  }
  std::snprintf(line, sizeof line, "level %d: %llu positions in %.3f s (%s positions/s%s)",
                done.level, static_cast<unsigned long long>(done.positions), done.seconds,
                rate_text(rate).c_str(), details.c_str());
  out << line;
  if (const double left = seconds_left(done); left >= 0) {
    std::snprintf(line, sizeof line, ", about %.0f s left", left);
    out << line;
  }
  out << "\n" << std::flush;
}

int run_build(const DbOptions& options, const std::filesystem::path& dir, std::ostream& out,
              std::ostream& err) {
  DatabaseBuild build;
  build.dir = dir;
  build.max_stones = options.max_stones;
  build.builder = options.builder;
  build.threads = options.threads;
  build.devices = options.devices;
  build.group = options.group;
  const bool root = !several(options.group) || options.group->is_root();
  try {
    build_database(
        build,
        [&out, root](const LevelDone& done) {
          if (root) print_level(done, out);
        },
        err);
  } catch (const std::invalid_argument& error) {
    // The same settings on every process: each stops, process 0 says why.
    if (root) err << "cl-mankalah: db build: " << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    if (!several(options.group)) throw;
    // The other processes wait for this one in the next exchange: end them all. One write, so
    // that the processes' messages, which mpirun merges, never interleave mid-line.
    err << "cl-mankalah: db build: " + options.group->describe() + ": " + error.what() + "\n"
        << std::flush;
    options.group->abort(1);
  }
  if (root) out << "levels 0.." << options.max_stones << " in " << dir.string() << "\n";
  return 0;
}

int run_info(const std::filesystem::path& dir, std::ostream& out, std::ostream& err) {
  int top = -1;
  for (int n = 0; n <= KALAH_ENDGAME_MAX_LEVEL; ++n) {
    if (std::filesystem::exists(level_path(dir, n))) top = n;
  }
  int found = 0, bad = 0;
  for (int n = 0; n <= top; ++n) {
    const std::filesystem::path path = level_path(dir, n);
    if (!std::filesystem::exists(path)) {
      // The levels above read this one: a gap is a fault, as `db verify` says too.
      err << "cl-mankalah: " << path.string() << ": missing: levels " << n + 1 << ".." << top
          << " above it cannot be used\n";
      ++bad;
      continue;
    }
    ++found;
    if (std::optional<LevelFile> file = open_valid_level(dir, n, err)) {
      char line[160];
      std::snprintf(line, sizeof line,
                    "level %d: %llu positions, %llu bytes, checksum %016llx ok\n", n,
                    static_cast<unsigned long long>(file->count()),
                    static_cast<unsigned long long>(file->file_bytes()),
                    static_cast<unsigned long long>(file->checksum()));
      out << line;
    } else {
      ++bad;
    }
  }
  if (found == 0) out << "no endgame database levels in " << dir.string() << "\n";
  return bad == 0 ? 0 : 1;
}

int run_verify(const DbOptions& options, const std::filesystem::path& dir, std::ostream& out,
               std::ostream& err) {
  // Every level up to the highest file is checked: a gap below it is a fault, not the end.
  int top = -1;
  for (int n = 0; n <= KALAH_ENDGAME_MAX_LEVEL; ++n) {
    if (std::filesystem::exists(level_path(dir, n))) top = n;
  }
  if (top < 0) {
    err << "cl-mankalah: no endgame database levels in " << dir.string() << "\n";
    return 1;
  }
  int bad = 0;
  std::vector<LevelFile> files;  // levels 0..n-1, all good so far
  // The first level missing or damaged: the levels above it read it, so the database stops
  // there and their values cannot be recomputed; their files are still checked.
  int broken = -1;
  std::string broken_how;
  for (int n = 0; n <= top; ++n) {
    const std::filesystem::path path = level_path(dir, n);
    const bool exists = std::filesystem::exists(path);
    std::optional<LevelFile> file = open_valid_level(dir, n, err);  // says what is damaged
    if (!file) {
      ++bad;
      if (broken >= 0) {
        if (!exists) err << "cl-mankalah: " << path.string() << ": missing\n";
        continue;
      }
      broken = n;
      broken_how = exists ? "damaged" : "missing";
      err << "cl-mankalah: " << path.string() << ": " << broken_how;
      if (n < top) {
        err << ": levels " << n + 1 << ".." << top
            << " above it cannot be used until it is built again (cl-mankalah db build "
               "--max-stones "
            << top << ")";
      }
      err << "\n";
      continue;
    }
    if (broken >= 0) {
      out << "level " << n << ": checksum ok, not recomputed (level " << broken << " is "
          << broken_how << ")\n";
      continue;
    }
    files.push_back(std::move(*file));
    std::vector<const cl_char*> levels;
    for (const LevelFile& f : files) levels.push_back(f.values());
    const std::uint64_t count = files.back().count();
    const std::uint64_t samples = std::min<std::uint64_t>(count, std::max(options.sample, 0));
    std::mt19937_64 random(0x5eed0000u + static_cast<unsigned>(n));
    std::uint64_t wrong = 0;
    for (std::uint64_t s = 0; s < samples; ++s) {
      const std::uint64_t rank = samples == count ? s : random() % count;
      const KalahBoard position = kalah_endgame_unrank(n, rank);
      if (value_from_children(position, levels) != levels.back()[rank]) {
        if (wrong++ == 0) {
          err << "cl-mankalah: " << files.back().path().string() << ": position " << rank
              << " disagrees with its children\n";
        }
      }
    }
    out << "level " << n << ": checksum ok, " << samples << " positions recomputed, " << wrong
        << " wrong\n";
    if (wrong > 0) ++bad;
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace

CLI::App* add_db_command(CLI::App& app, DbOptions& options) {
  CLI::App* db = app.add_subcommand("db", "endgame databases: build, info, verify");
  db->require_subcommand(1);
  // --db-dir and the device options may also follow `build`, `info` or `verify`.
  db->fallthrough();
  db->add_option("--db-dir", options.db_dir,
                 "database folder (default: $XDG_CACHE_HOME/cl-mankalah)");
  CLI::App* build = db->add_subcommand("build", "build the missing levels 0..N, in order");
  build->add_option("--max-stones", options.max_stones, "N: the most stones in play")
      ->capture_default_str();
  build->add_option("--builder", options.builder, "gpu (the OpenCL device) or cpu")
      ->capture_default_str();
  build->add_option("--threads", options.threads, "cpu builder threads (0: one per core)");
  CLI::App* verify =
      db->add_subcommand("verify", "check checksums and recompute positions from their children");
  verify->add_option("--sample", options.sample, "positions recomputed per level")
      ->capture_default_str();
  db->add_subcommand("info", "the levels found, their sizes and checksums");
  for (CLI::App* action : {build, verify, db->get_subcommand("info")}) {
    action->fallthrough();
    action->callback([&options, action]() { options.action = action->get_name(); });
  }
  return db;
}

int run_db(const DbOptions& options, std::ostream& out, std::ostream& err) {
  const std::filesystem::path dir =
      options.db_dir.empty() ? default_database_dir() : std::filesystem::path(options.db_dir);
  try {
    if (options.action == "build") return run_build(options, dir, out, err);
    if (several(options.group) && !options.group->is_root()) return 0;  // process 0 reports
    if (options.action == "info") return run_info(dir, out, err);
    if (options.action == "verify") return run_verify(options, dir, out, err);
    err << "cl-mankalah: db: build, info or verify\n";
    return 2;
  } catch (const DatabaseError& error) {
    err << "cl-mankalah: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace mankalah::endgame
