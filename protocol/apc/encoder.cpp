// Encoder core: open-frame bookkeeping, the Summary frame, event dispatch and flushing.
#include <algorithm>
#include <cassert>

#include "protocol/apc/encoder_impl.hpp"
#include "protocol/wire/type_index.hpp"

namespace apcgate::apc {

using detail::MessageBuf;
using detail::OpenFrame;

namespace {
// model::Event's index of model::Annotation.
constexpr std::size_t kAnnotationIndex = wire::kTypeIndex<model::Annotation, model::Event>;
static_assert(kAnnotationIndex == 12);
}  // namespace

Encoder::Impl::Impl(Encoder& e)
    : enc(&e), cap(std::max(e.options_.max_frame_bytes, kMinFrameBytes)) {
    for (const model::KeyedCounter& k : e.counters_.enabled()) {
        if (k.key < 0) continue;
        const auto key = static_cast<std::size_t>(k.key);
        if (delivery_by_key.size() <= key) delivery_by_key.resize(key + 1, kNoCounter);
        delivery_by_key[key] = static_cast<std::uint8_t>(static_cast<int>(k.delivery) + 1);
    }
}

void Encoder::destroy(Impl* impl) {
    delete impl;
}

Encoder::Encoder(const model::CaptureCounters& counters, FrameSink& sink, EncoderOptions options)
    : counters_(counters), sink_(sink), options_(options), impl_(nullptr, &Encoder::destroy) {
    impl_.reset(new Impl(*this));
}

OpenFrame& Encoder::Impl::cored(FrameType t, std::int32_t core) {
    std::size_t slot = 0;
    while (kCoredTypes[slot] != t) ++slot;
    if (core >= 0 && core < kDenseCores) {
        auto& v = dense[slot];
        const auto i = static_cast<std::size_t>(core);
        while (v.size() <= i) v.emplace_back(t, static_cast<std::int32_t>(v.size()));
        return v[i];
    }
    return sparse.try_emplace({t, core}, t, core).first->second;
}

OpenFrame& Encoder::Impl::external(std::int32_t id) {
    auto it = externals.find(id);
    if (it == externals.end()) {
        it = externals.try_emplace(id, FrameType::External, 0).first;
        detail::BodyWriter(it->second.body).packed32(id);  // the id is part of every frame's header
        it->second.header_size = it->second.body.size();
    }
    return it->second;
}

void Encoder::Impl::send(OpenFrame& f) {
    enc->sink_.frame(f.body);
    ++enc->stats_.counts[EncoderStat::Frames];
    enc->stats_.counts[EncoderStat::Bytes] += f.body.size();
    f.body.resize(f.header_size);
    f.in_block = false;
}

std::string_view Encoder::Impl::fit_string(const OpenFrame& f, std::size_t fixed,
                                           std::string_view s) {
    const std::size_t limit = cap - f.header_size - fixed;  // cap >= 64 keeps this positive
    if (detail::packed_size(static_cast<std::int64_t>(s.size())) + s.size() <= limit) return s;
    ++enc->stats_.counts[EncoderStat::TruncatedNames];
    // The length prefix of the truncated string is no longer than that of the limit itself.
    return detail::utf8_prefix(s, limit - detail::packed_size(static_cast<std::int64_t>(limit)));
}

void Encoder::Impl::write_string(OpenFrame& f, std::string_view s) {
    detail::BodyWriter(f.body).packed_string(s);
}

// Summary frame, CPU Core Name message: [3][core][cpuid][name].
void Encoder::Impl::write_core_name(const model::CoreName& c) {
    MessageBuf m;
    m.p32(3);
    m.p32(c.core);
    m.p32(c.cpuid);
    const std::string_view name = fit_string(summary, m.size(), c.name);
    make_room(summary, m.size() + detail::packed_size(std::int64_t(name.size())) + name.size());
    summary.append(m);
    write_string(summary, name);
}

bool Encoder::Impl::add(const model::CoreName& e) {
    write_core_name(e);
    return true;
}

void Encoder::summary(const SummaryInfo& info, std::span<const model::CoreName> cores) {
    assert(!summary_sent_ && "Encoder::summary() called twice");
    if (summary_sent_) return;
    summary_sent_ = true;
    impl_->enc = this;
    OpenFrame& f = impl_->summary;
    if (!f.empty()) impl_->send(f);  // never happens: add() sends a summary first
    // Summary message: [1][canary][wallclock][uptime][monotonic delta]{[key][value]}[""].
    detail::BodyWriter w(f.body);
    w.packed32(1);
    w.packed_string(kNewlineCanary);
    w.packed64(info.wallclock_ns);
    w.packed64(info.uptime_ns);
    w.packed64(info.monotonic_delta_ns);
    for (const auto& [key, value] : info.attributes) {
        const std::size_t n = detail::packed_size(std::int64_t(key.size())) + key.size() +
                              detail::packed_size(std::int64_t(value.size())) + value.size();
        // Attributes that would push the one Summary message over the cap are left out: the
        // message cannot be split, and its other fields matter more.
        if (key.empty() || f.body.size() + n + 1 > impl_->cap) {
            ++stats_.counts[EncoderStat::TruncatedNames];
            continue;
        }
        w.packed_string(key);
        w.packed_string(value);
    }
    w.packed_string("");
    for (const auto& c : cores) impl_->write_core_name(c);
    impl_->send(f);
}

void Encoder::add(const model::Event& event) {
    assert(summary_sent_ && "Encoder::add() before Encoder::summary()");
    if (!summary_sent_) summary(SummaryInfo{});
    impl_->enc = this;
    if (const auto* run = std::get_if<model::SpanRun>(&event)) {
        // Its items are Annotate messages: counted as the Annotation events they stand for.
        impl_->add(*run);
        stats_.messages[kAnnotationIndex] += run->pending();
        return;
    }
    if (const auto* samples = std::get_if<model::SampleRun>(&event)) {
        impl_->add_samples(*samples, samples->pending());
        return;
    }
    if (std::visit([this](const auto& e) { return impl_->add(e); }, event))
        ++stats_.messages[event.index()];
}

void Encoder::add(const model::SampleRun& run, std::size_t n) {
    assert(summary_sent_ && "Encoder::add() before Encoder::summary()");
    if (!summary_sent_) summary(SummaryInfo{});
    impl_->enc = this;
    impl_->add_samples(run, std::min(n, run.pending()));
}

void Encoder::flush() {
    Impl& im = *impl_;
    im.enc = this;
    auto send_if = [&im](OpenFrame& f) {
        if (!f.empty()) im.send(f);
    };
    // Names first: the frames sent after them refer to their cookies and threads.
    send_if(im.summary);
    for (std::size_t slot = 0; slot < Impl::kCoredTypes.size(); ++slot) {
        for (auto& f : im.dense[slot]) send_if(f);
        for (auto& [key, f] : im.sparse)
            if (key.first == Impl::kCoredTypes[slot]) send_if(f);
    }
    send_if(im.counter);
    send_if(im.block);
    send_if(im.annotate);
    send_if(im.idle);
    send_if(im.activity);
    for (auto& [id, f] : im.externals) send_if(f);
}

}  // namespace apcgate::apc
