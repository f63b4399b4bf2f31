// Persists the delivered counter configuration so it applies to later captures, on the same
// connection or another one (Streamline configures on one connection and captures on the next),
// and across restarts. Lives in the state directory: --state-dir, else $STATE_DIRECTORY (set by
// systemd's StateDirectory=), else /var/lib/apcgate as root, else $XDG_STATE_HOME/apcgate or
// ~/.local/state/apcgate.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "protocol/model/capture_settings.hpp"
#include "protocol/wire/result.hpp"

namespace apcgate::daemon {

std::filesystem::path default_state_dir();

class ConfigStore {
  public:
    explicit ConfigStore(std::filesystem::path dir) : dir_(std::move(dir)) {}

    // The stored configuration, if any; a corrupt file is reported and ignored.
    Result<std::optional<model::Configuration>> load() const;
    // The text save() writes for `config`, or why load() could not read it back (larger than a
    // document may be once written out, say): a configuration that is accepted must not turn
    // into the defaults at the next start. Store and load share one limit this way.
    static Result<std::string> encode(const model::Configuration& config);
    // Writes configuration.xml atomically, creating the directory if needed.
    Status save(const model::Configuration& config) const;

    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
    [[nodiscard]] std::filesystem::path file() const { return dir_ / "configuration.xml"; }

  private:
    std::filesystem::path dir_;
};

}  // namespace apcgate::daemon
