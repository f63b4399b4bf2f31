// Annotations through the real binary: applications speaking Arm's annotation protocol (the
// in-repo client) before and during a capture, from several threads and connections in odd-sized
// writes, one cut short; the capture's External frames decode back to exactly what each
// connection sent, each with its disconnect frame; the text form lands as Annotate messages with
// the writer's thread; `record` carries them the same way; a flood leaves the daemon's memory
// bounded and the capture valid.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include "annotate_client.hpp"
#include "carried_streams.hpp"
#include "protocol/apc/capture_stream.hpp"
#include "serve_fixture.hpp"

namespace apcgate::e2e {
namespace {

using namespace std::chrono_literals;
namespace client = annotate_test;
using client::Bytes;

struct Carried {
    std::map<std::uint32_t, client::CarriedStream> streams;  // by handshake tid
    std::vector<model::Annotation> annotations;
    std::vector<std::string> problems;
};

Carried carried(const std::vector<apc::DecodedFrame>& frames) {
    Carried out;
    auto events = apc::rebuild_events(frames);
    if (!events) {
        out.problems.push_back(events.error().to_string());
        return out;
    }
    for (auto& s : client::carried_streams(*events, out.problems, false))
        out.streams[client::handshake_tid(s.bytes)] = std::move(s);
    for (const auto& e : *events)
        if (const auto* a = std::get_if<model::Annotation>(&e)) out.annotations.push_back(*a);
    return out;
}

const model::Annotation* find_text(const Carried& c, const std::string& text) {
    for (const auto& a : c.annotations)
        if (const auto* t = std::get_if<model::TextAnnotation>(&a.body); t && t->text == text)
            return &a;
    return nullptr;
}

void write_fifo(const std::filesystem::path& fifo, const std::string& text) {
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0) << fifo;
    ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(fd);
}

// Connects (retrying while the daemon starts) the way the library connects its parent.
client::Conn parent_of(const std::string& name) {
    for (int i = 0; i < 200; ++i) {
        client::Conn c(client::connect_abstract(name + "-parent"));
        if (c.ok()) return c;
        std::this_thread::sleep_for(25ms);
    }
    return client::Conn();
}

// An application as the library behaves: data at once if a capture runs, else wait for the
// parent's byte. Sends `bytes` in the given write sizes and closes.
void application(const std::string& name, const Bytes& bytes, const std::vector<std::size_t>& sizes,
                 std::atomic<int>& failures) {
    client::Conn parent = parent_of(name);
    client::Conn data(client::connect_abstract(name));
    if (!data.ok()) {
        if (!parent.ok() || !parent.read_byte(30s)) {
            ++failures;
            return;
        }
        data = client::Conn(client::connect_abstract(name));
    }
    if (!data.send_in_pieces(bytes, sizes)) ++failures;
}

Bytes app_bytes(std::uint32_t tid, const std::string& tag, std::size_t image) {
    Bytes b = client::handshake(tid, static_cast<std::uint32_t>(::getpid()));
    for (int round = 0; round < 2; ++round) {
        const Bytes k = client::every_kind(client::monotonic_raw_ns(), tag + std::to_string(round),
                                           round == 0 ? image : 11);
        b.insert(b.end(), k.begin(), k.end());
    }
    return b;
}

class AnnotateServeTest : public ServeTest {
  protected:
    void SetUp() override {
        name_ = client::unique_socket_name("e2e");
        ports_ = client::free_port_pair();
        dir_ = temp_dir("annotate");
        fifo_ = dir_ / "annotate";
        start({"--annotate-socket-name", name_, "--annotate-tcp-port", std::to_string(ports_),
               "--annotate-fifo", fifo_.string()});
    }

    // Reads the capture in slices until `missing(frames)` names nothing (or 20 s pass; the
    // failure then says what was still missing).
    template <typename F>
    void read_until(HostClient& c, std::vector<std::string>& frames, F missing) {
        const auto deadline = std::chrono::steady_clock::now() + 20s;
        std::string still;
        while (std::chrono::steady_clock::now() < deadline) {
            auto r = read_stream(c, 200ms);
            frames.insert(frames.end(), r.frames.begin(), r.frames.end());
            still = missing(frames);
            if (still.empty()) return;
        }
        ADD_FAILURE() << "the capture never showed what was sent: " << still << "\n"
                      << daemon_->log();
    }

    std::string name_;
    std::uint16_t ports_ = 0;
    std::filesystem::path dir_, fifo_;
};

TEST_F(AnnotateServeTest, ConnectionsAreCarriedByteForByteAndTextLinesAsAnnotations) {
    std::atomic<int> failures{0};
    std::map<std::uint32_t, Bytes> sent;
    // Waiting since before the capture: parent connected, data refused, then the start byte.
    sent[901] = app_bytes(901, "early", 70'000);
    std::thread early([&] { application(name_, sent[901], {1, 7, 4099}, failures); });

    HostClient c = client();
    ASSERT_EQ(c.request(kDeliverXml, kSession)->code, kAck);
    auto captured_xml = c.request_xml("captured");
    ASSERT_TRUE(captured_xml);
    auto captured = xml::parse_captured(captured_xml->body);
    ASSERT_TRUE(captured);
    std::this_thread::sleep_for(300ms);  // let the early application reach its wait
    ASSERT_TRUE(c.send_command(kApcStart));
    // The capture runs (its data sockets listen) once its first frame arrives.
    std::vector<std::string> frames;
    read_until(c, frames, [](const std::vector<std::string>& f) {
        return f.empty() ? std::string("no frame") : std::string();
    });

    // During the capture: three threads, two connections each (Unix and TCP), odd writes.
    for (std::uint32_t t = 0; t < 3; ++t)
        for (std::uint32_t k = 0; k < 2; ++k)
            sent[1000 + t * 10 + k] =
                app_bytes(1000 + t * 10 + k, "t" + std::to_string(t), 3000 + t);
    std::vector<std::thread> threads;
    for (std::uint32_t t = 0; t < 3; ++t) {
        threads.emplace_back([&, t] {
            client::Conn a(client::connect_abstract(name_));
            client::Conn b(client::connect_tcp(static_cast<std::uint16_t>(ports_ + 1)));
            if (!a.ok() || !b.ok()) ++failures;
            const Bytes& sa = sent.at(1000 + t * 10);
            const Bytes& sb = sent.at(1000 + t * 10 + 1);
            for (std::size_t pos = 0; pos < std::max(sa.size(), sb.size()); pos += 333) {
                if (pos < sa.size())
                    a.send_in_pieces(Bytes(sa.begin() + static_cast<std::ptrdiff_t>(pos),
                                           sa.begin() + static_cast<std::ptrdiff_t>(
                                                            std::min(sa.size(), pos + 333))),
                                     {1, 2, 5});
                if (pos < sb.size())
                    b.send_in_pieces(Bytes(sb.begin() + static_cast<std::ptrdiff_t>(pos),
                                           sb.begin() + static_cast<std::ptrdiff_t>(
                                                            std::min(sb.size(), pos + 333))),
                                     {3, 13});
            }
        });
    }
    // An application that dies in the middle of its visual's image.
    Bytes cut = app_bytes(777, "dies", 5000);
    cut.resize(cut.size() / 4);
    sent[777] = cut;
    std::thread dying([&] { application(name_, cut, {17}, failures); });
    write_fifo(fifo_, "phase 1\n");
    write_fifo(fifo_, std::string("\x1b\x00\xff\x00", 4) + "green\n");
    {
        client::Conn sock(client::connect_path(fifo_.string() + ".sock"));
        ASSERT_TRUE(sock.ok());
        ASSERT_TRUE(sock.send_in_pieces(Bytes{'s', 'c', 'r', 'i', 'p', 't', '\n'}));
    }
    for (auto& t : threads) t.join();
    early.join();
    dying.join();
    ASSERT_EQ(failures.load(), 0) << daemon_->log();

    read_until(c, frames, [&](const std::vector<std::string>& f) {
        const CheckedCapture checked = check_capture(f, *captured);
        const Carried got = carried(checked.frames);
        std::string missing;
        for (const auto& [tid, bytes] : sent) {
            const auto it = got.streams.find(tid);
            if (it == got.streams.end()) {
                missing += " stream " + std::to_string(tid);
            } else if (!it->second.disconnected) {
                missing += " stream " + std::to_string(tid) + " (" +
                           std::to_string(it->second.bytes.size()) + " of " +
                           std::to_string(bytes.size()) + " bytes, no disconnect)";
            }
        }
        for (const char* text : {"phase 1", "green", "script"})
            if (!find_text(got, text)) missing += std::string(" text '") + text + "'";
        return missing;
    });
    ASSERT_TRUE(c.send_command(kApcStop));
    StreamResult rest = read_stream(c, 10s);
    EXPECT_TRUE(rest.end_of_sequence);
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());

    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    const Carried got = carried(checked.frames);
    for (const auto& p : got.problems) ADD_FAILURE() << p;
    EXPECT_EQ(got.streams.size(), sent.size());
    std::set<std::int32_t> ids;
    for (const auto& [tid, bytes] : sent) {
        SCOPED_TRACE(tid);
        ASSERT_TRUE(got.streams.count(tid));
        const auto& s = got.streams.at(tid);
        EXPECT_TRUE(s.bytes == bytes) << s.bytes.size() << " of " << bytes.size() << " bytes";
        EXPECT_TRUE(s.disconnected);
        ids.insert(s.id);
    }
    EXPECT_GE(ids.size(), 3U);
    const auto* phase = find_text(got, "phase 1");
    ASSERT_TRUE(phase);
    EXPECT_EQ(phase->tid, daemon_->pid()) << "a FIFO's lines carry the daemon's pid";
    const auto* green = find_text(got, "green");
    ASSERT_TRUE(green);
    EXPECT_EQ(std::get<model::TextAnnotation>(green->body).color, (model::Rgb{0, 0xff, 0}));
    const auto* script = find_text(got, "script");
    ASSERT_TRUE(script);
    EXPECT_EQ(script->tid, ::getpid()) << "a socket's lines carry the writer's pid";
    EXPECT_NE(daemon_->log().find("annotations from pid " + std::to_string(::getpid())),
              std::string::npos);
}

TEST_F(AnnotateServeTest, AFloodLeavesTheDaemonBoundedAndTheCaptureValid) {
    HostClient c = client();
    auto captured = xml::parse_captured(c.request_xml("captured")->body);
    ASSERT_TRUE(captured);
    ASSERT_TRUE(c.send_command(kApcStart));
    std::vector<std::string> frames;
    for (int i = 0; i < 3; ++i) {
        auto r = read_stream(c, 100ms);
        frames.insert(frames.end(), r.frames.begin(), r.frames.end());
    }
    const long rss_before = daemon_->rss_kib();
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> flooded{0};
    std::vector<std::thread> flooders;
    flooders.reserve(3);
    for (int f = 0; f < 3; ++f) {
        flooders.emplace_back([&, f] {
            // Maximal strings, and visuals with 8 MiB images; dropped, it comes straight back.
            const Bytes msg = f == 2 ? client::visual_msg(1, "big", Bytes(8 << 20, 0x5a))
                                     : client::string_msg(1, 0, std::string(32000, 'x'));
            while (!stop) {
                client::Conn conn(f == 0
                                      ? client::connect_tcp(static_cast<std::uint16_t>(ports_ + 1))
                                      : client::connect_abstract(name_));
                if (!conn.send_in_pieces(client::handshake(500 + f, 500))) return;
                while (!stop && conn.send_in_pieces(msg)) flooded += msg.size();
            }
        });
    }
    const Bytes polite = [] {
        Bytes b = client::handshake(42, 42);
        const Bytes k = client::every_kind(1, "polite");
        b.insert(b.end(), k.begin(), k.end());
        return b;
    }();
    {
        client::Conn p(client::connect_abstract(name_));
        ASSERT_TRUE(p.send_in_pieces(polite, {7}));
    }
    long rss_max = rss_before;
    // At least 4 s, and until far more than the daemon may hold has been sent: a loaded machine
    // (or a sanitizer build) sends slower, and then floods for longer.
    const auto start = std::chrono::steady_clock::now();
    const auto flooding = [&] {
        const auto now = std::chrono::steady_clock::now();
        return now - start < 4s || (flooded.load() <= (16U << 20) && now - start < 60s);
    };
    while (flooding()) {
        auto r = read_stream(c, 100ms);
        frames.insert(frames.end(), r.frames.begin(), r.frames.end());
        rss_max = std::max(rss_max, daemon_->rss_kib());
    }
    stop = true;
    ASSERT_TRUE(c.send_command(kApcStop));
    StreamResult rest = read_stream(c, 20s);
    EXPECT_TRUE(rest.end_of_sequence) << daemon_->log();
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());
    for (auto& t : flooders) t.join();
    rss_max = std::max(rss_max, daemon_->rss_kib());

    EXPECT_GT(flooded.load(), 16U << 20) << "far more than the daemon may hold (< 1 MiB)";
#if defined(__SANITIZE_ADDRESS__)
    // ASan's quarantine holds freed memory back on purpose: RSS says nothing about bounds there.
    (void)rss_max;
#else
    // The hand-over holds at most 16 MiB; the merger, encoder and send queue follow it. Less
    // than the flood itself, so a daemon that kept what it was sent fails here.
    EXPECT_LT(rss_max - rss_before, 24 * 1024)
        << "RSS " << rss_before << " -> " << rss_max << " KiB";
#endif
    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) ADD_FAILURE() << e;
    const Carried got = carried(checked.frames);
    ASSERT_TRUE(got.streams.count(42));
    EXPECT_TRUE(got.streams.at(42).bytes == polite) << "the polite application was not disturbed";
    expect_serving();
    const std::string log = daemon_->log();
    std::size_t drops = 0;
    for (auto at = log.find("it never stops"); at != std::string::npos;
         at = log.find("it never stops", at + 1))
        ++drops;
    std::cerr << "flood: " << (flooded.load() >> 20) << " MiB sent, daemon RSS " << rss_before
              << " -> " << rss_max << " KiB, " << drops << " flooding connections dropped\n";
}

TEST(AnnotateRecord, LocalCaptureCarriesAnnotationsTheSameWay) {
    const std::string name = client::unique_socket_name("rec");
    const std::uint16_t ports = client::free_port_pair();
    const auto dir = temp_dir("annotate-rec");
    const auto out = dir / "run.apc";
    const auto fifo = dir / "annotate";
    DaemonProcess p({"record", "-o", out.string(), "-d", "3", "--annotate-socket-name", name,
                     "--annotate-tcp-port", std::to_string(ports), "--annotate-fifo", fifo.string(),
                     "--log-level", "debug"});
    std::atomic<int> failures{0};
    const Bytes bytes = app_bytes(4321, "rec", 100'000);
    std::thread app([&] { application(name, bytes, {5, 1000}, failures); });
    for (int i = 0; i < 200 && !std::filesystem::exists(fifo); ++i)
        std::this_thread::sleep_for(10ms);
    app.join();  // it connected its data socket: the capture runs
    write_fifo(fifo, "recorded line\n");
    EXPECT_EQ(failures.load(), 0);
    ASSERT_EQ(p.wait(20s), std::optional<int>(0)) << p.log();
    EXPECT_FALSE(std::filesystem::exists(fifo)) << "the FIFO is removed at exit";

    std::ifstream in(out / "0000000000", std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto decoded = apc::decode_capture(
        std::span(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));  // NOLINT
    ASSERT_FALSE(decoded.error) << decoded.error->to_string();
    const Carried got = carried(decoded.frames);
    for (const auto& pr : got.problems) ADD_FAILURE() << pr;
    ASSERT_TRUE(got.streams.count(4321)) << p.log();
    EXPECT_TRUE(got.streams.at(4321).bytes == bytes);
    EXPECT_TRUE(got.streams.at(4321).disconnected);
    const auto* line = find_text(got, "recorded line");
    ASSERT_TRUE(line) << p.log();
    EXPECT_EQ(line->tid, p.pid());
    auto [rc, report] = run_apcgate({"inspect", "--json", out.string()});
    EXPECT_EQ(rc, 0) << report;
    EXPECT_NE(report.find("\"valid\": true"), std::string::npos) << report;
}

}  // namespace
}  // namespace apcgate::e2e
