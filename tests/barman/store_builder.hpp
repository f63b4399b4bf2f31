// Test-side writer of Barman data stores, for the variants no shared buffer covers (other
// ABIs, no task infos, no custom charts, 64-bit big-endian, bad records) and for the fuzz seeds
// and the benchmark. Written from the spec's C structs independently of the reader's layout
// code, so a layout mistake in one does not hide in the other. Header-only.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace apcgate::barman_test {

struct StoreConfig {
    bool big_endian = false;
    unsigned pointer_size = 8;
    std::uint32_t version = 3;
    std::uint32_t max_cores = 2;
    std::uint32_t max_task_infos = 4;
    std::uint32_t max_mmap_layouts = 2;
    std::uint32_t max_pmu_counters = 4;
    std::uint32_t string_table = 256;
    std::uint32_t custom_series = 0;  // BM_NUM_CUSTOM_COUNTERS
    std::uint64_t ts_base = 0, ts_multiplier = 1, ts_divisor = 1;
    std::uint32_t timer_sample_rate = 1000;
    unsigned data_store_alignment = 8;  // 4 models an ABI that aligns u64 to 4 (i386)
    std::string target = "test-target";
};

class Bytes {
  public:
    explicit Bytes(bool big_endian) : big_(big_endian) {}
    void uint(std::uint64_t v, unsigned width) {
        for (unsigned i = 0; i < width; ++i) {
            const unsigned shift = big_ ? 8 * (width - 1 - i) : 8 * i;
            data.push_back(static_cast<std::uint8_t>(v >> shift));
        }
    }
    void u8(std::uint64_t v) { uint(v, 1); }
    void u32(std::uint64_t v) { uint(v, 4); }
    void u64(std::uint64_t v) { uint(v, 8); }
    void text(const std::string& s) { data.insert(data.end(), s.begin(), s.end()); }
    void pad_to(std::size_t alignment) {
        while (data.size() % alignment != 0) data.push_back(0);
    }
    std::vector<std::uint8_t> data;

  private:
    bool big_;
};

class StoreBuilder {
  public:
    explicit StoreBuilder(StoreConfig c) : c_(std::move(c)), cores_(c_.max_cores) {
        target_ = str(c_.target);
    }

    std::uint32_t str(const std::string& s) {
        const auto at = static_cast<std::uint32_t>(strings_.size());
        strings_.insert(strings_.end(), s.begin(), s.end());
        strings_.push_back(0);
        return at;
    }
    void core(std::uint32_t i, std::uint32_t midr, std::vector<std::uint32_t> types,
              std::uint64_t ts = 0) {
        cores_.at(i) = Core{ts, midr, 0x80000000u + i, 0, std::move(types)};
    }
    void task(std::uint32_t id, const std::string& name, std::uint64_t ts = 0) {
        tasks_.push_back({ts, id, str(name)});
    }
    void mmap(std::uint32_t task, std::uint64_t base, std::uint64_t length, std::uint64_t offset,
              const std::string& image) {
        mmaps_.push_back({task, base, length, offset, str(image)});
    }
    void chart(const std::string& name, std::uint8_t composition, std::uint8_t rendering,
               std::uint8_t flags) {
        charts_.push_back({str(name), composition, rendering, flags});
    }
    void series(std::uint32_t chart, const std::string& name, const std::string& units,
                std::uint32_t colour, double multiplier, std::uint8_t cls, std::uint8_t display,
                std::uint8_t flags) {
        series_.push_back(
            {chart, str(name), str(units), str(""), colour, multiplier, cls, display, flags});
    }
    // Overrides for hostile headers.
    std::optional<std::uint32_t> header_length_override, task_count_override, chart_count_override;

    // ---- records (block payloads, in order) ----
    Bytes record(std::uint32_t type, std::uint32_t core, std::uint64_t ts) {
        Bytes b(c_.big_endian);
        b.u32(type);
        b.u32(core);
        b.u64(ts);
        return b;
    }
    void sample(std::uint32_t core, std::uint64_t ts, std::uint32_t task,
                std::optional<std::uint64_t> pc, const std::vector<std::uint64_t>& pmu,
                const std::vector<std::pair<std::uint32_t, std::uint64_t>>& custom = {}) {
        Bytes b = record(pc ? 2 : 1, core, ts);
        if (c_.max_task_infos > 0) b.u32(task);
        if (c_.custom_series > 0) b.u32(custom.size());
        if (pc) b.uint(*pc, c_.pointer_size);
        for (auto v : pmu) b.u64(v);
        for (auto [id, v] : custom) {
            b.u32(id);
            b.u64(v);
        }
        block(b.data);
    }
    void task_switch(std::uint32_t core, std::uint64_t ts, std::uint32_t task,
                     std::uint8_t reason) {
        Bytes b = record(3, core, ts);
        b.u32(task);
        b.u8(reason);
        block(b.data);
    }
    void custom(std::uint32_t core, std::uint64_t ts, std::uint32_t task, std::uint32_t counter,
                std::uint64_t value) {
        Bytes b = record(4, core, ts);
        if (c_.max_task_infos > 0) b.u32(task);
        b.u32(counter);
        b.u64(value);
        block(b.data);
    }
    void annotation(std::uint32_t core, std::uint64_t ts, std::uint32_t task, std::uint8_t type,
                    std::uint32_t channel, std::uint32_t group, std::uint32_t colour,
                    const std::string& text) {
        Bytes b = record(5, core, ts);
        if (c_.max_task_infos > 0) b.u32(task);
        b.uint(text.size() + 1, c_.pointer_size);
        b.u32(channel);
        b.u32(group);
        b.u32(colour);
        b.u8(type);
        b.text(text);
        b.u8(0);
        block(b.data);
    }
    void halt(std::uint32_t core, std::uint64_t ts, bool entered) {
        Bytes b = record(6, core, ts);
        b.u8(entered ? 1 : 0);
        block(b.data);
    }
    // A block with these exact data bytes (padded to the pointer size like the agent does).
    void block(std::vector<std::uint8_t> data, bool padding = false) {
        blocks_.push_back({std::move(data), padding});
    }

    // The header alone, with the data store parameters given.
    std::vector<std::uint8_t> header(std::uint32_t type, std::uint64_t buffer_length,
                                     std::uint64_t write, std::uint64_t read,
                                     std::uint64_t total) const {
        Bytes h(c_.big_endian);
        h.text(c_.big_endian ? (c_.pointer_size == 8 ? "BARMAN64" : "BARMAN32")
                             : (c_.pointer_size == 8 ? "46NAMRAB" : "23NAMRAB"));
        h.u32(c_.version);
        h.u32(0);  // header_length, patched below
        h.u32(type);
        h.u32(target_);
        h.u64(0);
        h.u32(c_.timer_sample_rate);
        for (auto v : {c_.max_cores, c_.max_task_infos, c_.max_mmap_layouts, c_.max_pmu_counters,
                       c_.string_table, c_.custom_series})
            h.u32(v);
        for (auto v : {c_.ts_base, c_.ts_multiplier, c_.ts_divisor, std::uint64_t{0}}) h.u64(v);
        h.u32(std::min<std::size_t>(strings_.size(), c_.string_table));
        for (std::size_t i = 0; i < c_.string_table; ++i)
            h.u8(i < strings_.size() ? strings_[i] : 0);
        h.pad_to(4);
        for (const Core& core : cores_) {
            h.u64(core.ts);
            h.u32(core.midr);
            h.uint(core.mpidr, c_.pointer_size);
            h.u32(core.cluster);
            h.u32(core.types.size());
            for (std::uint32_t k = 0; k < c_.max_pmu_counters; ++k)
                h.u32(k < core.types.size() ? core.types[k] : 0);
        }
        if (c_.max_task_infos > 0) {
            h.pad_to(4);
            h.u32(task_count_override.value_or(tasks_.size()));
            for (std::uint32_t i = 0; i < c_.max_task_infos; ++i) {
                const Task t = i < tasks_.size() ? tasks_[i] : Task{};
                h.u64(t.ts);
                h.u32(t.id);
                h.u32(t.name);
            }
        }
        if (c_.max_mmap_layouts > 0) {
            h.pad_to(4);
            h.u32(mmaps_.size());
            for (std::uint32_t i = 0; i < c_.max_mmap_layouts; ++i) {
                const Mmap m = i < mmaps_.size() ? mmaps_[i] : Mmap{};
                if (c_.max_task_infos > 0) {
                    h.u64(0);
                    h.u32(m.task);
                }
                h.uint(m.base, c_.pointer_size);
                h.uint(m.length, c_.pointer_size);
                h.uint(m.offset, c_.pointer_size);
                h.u32(m.image);
            }
        }
        if (c_.custom_series > 0) {
            h.pad_to(4);
            h.u32(chart_count_override.value_or(charts_.size()));
            for (const Chart& ch : charts_) {
                h.u32(ch.name);
                h.u8(ch.composition);
                h.u8(ch.rendering);
                h.u8(ch.flags);
            }
            for (std::uint32_t i = 0; i < c_.custom_series; ++i) {
                const Series s = i < series_.size() ? series_[i] : Series{};
                for (auto v : {s.chart, s.name, s.units, s.description, s.colour}) h.u32(v);
                h.u64(std::bit_cast<std::uint64_t>(s.multiplier));
                h.u8(s.cls);
                h.u8(s.display);
                h.u8(s.flags);
            }
        }
        h.pad_to(c_.data_store_alignment);
        for (auto v : {buffer_length, write, read, total}) h.u64(v);
        h.uint(0xdead0000, c_.pointer_size);
        h.pad_to(c_.data_store_alignment);  // sizeof(struct bm_protocol_header)
        Bytes len(c_.big_endian);
        len.u32(header_length_override.value_or(h.data.size()));
        std::copy(len.data.begin(), len.data.end(), h.data.begin() + 12);
        return h.data;
    }

    // Encoded blocks, in order, as a linear store writes them.
    std::vector<std::uint8_t> encoded_blocks() const {
        Bytes out(c_.big_endian);
        for (const auto& b : blocks_) encode(out, b);
        return out.data;
    }

    // A linear store of `buffer_length` record bytes: blocks in order while they fit (a block
    // that does not fit is dropped and later smaller ones may still fit, as the agent does).
    std::vector<std::uint8_t> linear(std::uint64_t buffer_length) const {
        Bytes records(c_.big_endian);
        for (const auto& b : blocks_) {
            Bytes one(c_.big_endian);
            encode(one, b);
            if (records.data.size() + one.data.size() <= buffer_length)
                records.text(std::string(one.data.begin(), one.data.end()));
        }
        const std::uint64_t used = records.data.size();
        return assemble(1, buffer_length, used, 0, used, records.data);
    }

    // linear(buffer_length) a piece at a time, for stores too large to build in memory: the
    // file is linear_header() (written last, once `used` is known), then what drain_linear()
    // gives each time, then zeros up to buffer_length record bytes. drain_linear() appends the
    // blocks added since its last call to `out` as linear() lays them after `used` record bytes
    // (dropping those that do not fit, as it does), forgets them, and returns the new `used`.
    std::vector<std::uint8_t> linear_header(std::uint64_t buffer_length, std::uint64_t used) const {
        std::vector<std::uint8_t> h = header(1, buffer_length, used, 0, used);
        const std::uint64_t length = header_length_override.value_or(h.size());
        h.resize(std::max<std::uint64_t>(h.size(), (length + 7) & ~std::uint64_t{7}), 0);
        return h;
    }
    std::uint64_t drain_linear(std::vector<std::uint8_t>& out, std::uint64_t used,
                               std::uint64_t buffer_length) {
        for (const auto& b : blocks_) {
            Bytes one(c_.big_endian);
            encode(one, b);
            if (used + one.data.size() > buffer_length) continue;
            out.insert(out.end(), one.data.begin(), one.data.end());
            used += one.data.size();
        }
        blocks_.clear();
        return used;
    }

    // A circular store of `buffer_length` bytes, written the agent's way: monotonic offsets,
    // a padding block at the wrap when a block does not fit before the end, and the oldest
    // blocks freed to make room.
    std::vector<std::uint8_t> circular(std::uint64_t buffer_length) const {
        std::vector<std::uint8_t> ring(buffer_length, 0xcc);
        std::uint64_t head = 0, tail = 0, total = 0;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> live;  // (start, length) of blocks
        auto free_until = [&](std::uint64_t need_tail) {
            while (!live.empty() && need_tail - head > buffer_length) {
                head = live.front().first + live.front().second;
                live.erase(live.begin());
            }
        };
        auto put = [&](const std::vector<std::uint8_t>& bytes) {
            free_until(tail + bytes.size());
            for (std::size_t i = 0; i < bytes.size(); ++i)
                ring[(tail + i) % buffer_length] = bytes[i];
            live.emplace_back(tail, bytes.size());
            tail += bytes.size();
            total += bytes.size();
        };
        for (const auto& b : blocks_) {
            Bytes one(c_.big_endian);
            encode(one, b);
            if (one.data.size() > buffer_length) continue;
            const std::uint64_t room = buffer_length - tail % buffer_length;
            if (room < one.data.size()) {
                Bytes pad(c_.big_endian);
                const std::uint64_t pad_bit = std::uint64_t{1} << (c_.pointer_size * 8 - 1);
                pad.uint(pad_bit | (room - c_.pointer_size), c_.pointer_size);
                pad.data.resize(room, 0);
                put(pad.data);
            }
            put(one.data);
        }
        if (live.empty()) head = tail;
        std::vector<std::uint8_t> records(ring.begin(), ring.end());
        return assemble(2, buffer_length, tail, head, total, records);
    }

  private:
    struct Core {
        std::uint64_t ts = 0;
        std::uint32_t midr = 0;
        std::uint64_t mpidr = 0;
        std::uint32_t cluster = 0;
        std::vector<std::uint32_t> types;
    };
    struct Task {
        std::uint64_t ts = 0;
        std::uint32_t id = 0, name = 0;
    };
    struct Mmap {
        std::uint32_t task = 0;
        std::uint64_t base = 0, length = 0, offset = 0;
        std::uint32_t image = 0;
    };
    struct Chart {
        std::uint32_t name = 0;
        std::uint8_t composition = 0, rendering = 0, flags = 0;
    };
    struct Series {
        std::uint32_t chart = 0, name = 0, units = 0, description = 0, colour = 0;
        double multiplier = 1.0;
        std::uint8_t cls = 0, display = 0, flags = 0;
    };
    struct RawBlock {
        std::vector<std::uint8_t> data;
        bool padding = false;
    };

    void encode(Bytes& out, const RawBlock& b) const {
        const std::size_t p = c_.pointer_size;
        const std::size_t aligned = (b.data.size() + p - 1) / p * p;
        const std::uint64_t pad_bit = b.padding ? std::uint64_t{1} << (p * 8 - 1) : 0;
        out.uint(pad_bit | aligned, c_.pointer_size);
        out.data.insert(out.data.end(), b.data.begin(), b.data.end());
        out.data.resize(out.data.size() + (aligned - b.data.size()), 0);
    }

    std::vector<std::uint8_t> assemble(std::uint32_t type, std::uint64_t buffer_length,
                                       std::uint64_t write, std::uint64_t read, std::uint64_t total,
                                       const std::vector<std::uint8_t>& records) const {
        std::vector<std::uint8_t> file = header(type, buffer_length, write, read, total);
        std::uint64_t length = 0;
        for (int i = 0; i < 4; ++i)
            length = c_.big_endian ? (length << 8) | file[12 + i]
                                   : length | (std::uint64_t{file[12 + i]} << (8 * i));
        file.resize(std::max<std::uint64_t>(file.size(), (length + 7) & ~std::uint64_t{7}), 0);
        file.insert(file.end(), records.begin(), records.end());
        file.resize(
            file.size() + (buffer_length - std::min<std::uint64_t>(buffer_length, records.size())),
            0);
        return file;
    }

    StoreConfig c_;
    std::vector<std::uint8_t> strings_;
    std::uint32_t target_ = 0;
    std::vector<Core> cores_;
    std::vector<Task> tasks_;
    std::vector<Mmap> mmaps_;
    std::vector<Chart> charts_;
    std::vector<Series> series_;
    std::vector<RawBlock> blocks_;
};

}  // namespace apcgate::barman_test
