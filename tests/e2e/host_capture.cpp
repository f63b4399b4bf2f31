// The host emulator as a program, for checks that run the daemon where a test cannot start it (in
// a container, .ci/container-check): one capture over 127.0.0.1:PORT the way Streamline runs it,
// written as an .apc directory for `apcgate inspect`.
//
//   host_capture PORT OUT.apc stop MS     capture for MS ms, then APC Stop
//   host_capture PORT OUT.apc wait SECS   capture until the daemon ends it (its own stop, e.g.
//                                         on SIGTERM), at most SECS s
//
// Prints "capturing" once the first frames have arrived (in `wait` mode the caller stops the
// daemon after that). Exits 0 only when the stream ended with the end of sequence and every frame
// decoded and kept the frame rules; 1 otherwise, with the reason on stderr.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "capture_check.hpp"
#include "host_client.hpp"

namespace {

using namespace apcgate::e2e;

int fail(const std::string& why) {
    std::cerr << "host_capture: " << why << "\n";
    return 1;
}

bool write_file(const std::filesystem::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
    return static_cast<bool>(out.flush());
}

// The local-capture data file: [int32 LE length][frame body] per frame.
std::string data_file(const std::vector<std::string>& frames) {
    std::string out;
    for (const auto& f : frames) {
        const auto n = static_cast<std::uint32_t>(f.size());
        for (int shift = 0; shift < 32; shift += 8)
            out.push_back(static_cast<char>((n >> shift) & 0xFFU));
        out += f;
    }
    return out;
}

constexpr const char* kSession =
    "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n"
    "<session version=\"1\" call_stack_unwinding=\"yes\" parse_debug_info=\"yes\" "
    "high_resolution=\"no\" buffer_mode=\"streaming\" sample_rate=\"normal\" duration=\"0\" "
    "target_host=\"127.0.0.1\" target_port=\"8080\" live_rate=\"100\">\n"
    "  <energy_capture version=\"1\" type=\"none\"/>\n</session>\n";

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) return fail("usage: host_capture PORT OUT.apc stop MS | wait SECS");
    const int port = std::stoi(argv[1]);
    const std::filesystem::path out = argv[2];
    const std::string mode = argv[3];
    const int amount = std::stoi(argv[4]);
    if (mode != "stop" && mode != "wait") return fail("mode must be stop or wait");

    auto c = HostClient::connect(port);
    if (!c) return fail("cannot connect to 127.0.0.1:" + std::to_string(port));
    const auto hello = c->handshake();
    if (hello != std::optional<std::string>("GATOR 680\n"))
        return fail("handshake answered '" + hello.value_or("(nothing)") + "'");
    const auto events = c->request_xml("events");
    if (!events || events->code != kXml) return fail("no events XML");
    const auto ack = c->request(kDeliverXml, kSession);
    if (!ack || ack->code != kAck) return fail("session not acknowledged");
    const auto captured_xml = c->request_xml("captured");
    if (!captured_xml || captured_xml->code != kXml) return fail("no captured XML");
    const auto captured = apcgate::xml::parse_captured(captured_xml->body);
    if (!captured) return fail("captured XML does not parse");

    if (!c->send_command(kApcStart)) return fail("APC Start not sent");
    StreamResult first = read_stream(*c, std::chrono::milliseconds(500));
    if (first.frames.empty()) return fail("no frames within 0.5 s of APC Start");
    std::cout << "capturing" << std::endl;
    StreamResult rest;
    if (mode == "stop") {
        StreamResult more = read_stream(*c, std::chrono::milliseconds(amount));
        first.frames.insert(first.frames.end(), more.frames.begin(), more.frames.end());
        first.end_of_sequence = more.end_of_sequence;
        if (first.end_of_sequence) return fail("the capture ended before APC Stop");
        if (!c->send_command(kApcStop)) return fail("APC Stop not sent");
        rest = read_stream(*c, std::chrono::seconds(10));
    } else {
        rest = read_stream(*c, std::chrono::seconds(amount));
    }
    auto frames = std::move(first.frames);
    frames.insert(frames.end(), rest.frames.begin(), rest.frames.end());

    std::filesystem::create_directories(out);
    if (!write_file(out / "captured.xml", captured_xml->body) ||
        !write_file(out / "session.xml", kSession) ||
        !write_file(out / "events.xml", events->body) ||
        !write_file(out / "0000000000", data_file(frames)))
        return fail("cannot write " + out.string());
    std::cout << frames.size() << " frames written to " << out.string() << std::endl;

    if (!rest.end_of_sequence) return fail("the stream did not end with the end of sequence");
    const CheckedCapture checked = check_capture(frames, *captured);
    for (const auto& e : checked.errors) std::cerr << "host_capture: " << e << "\n";
    if (!checked.errors.empty()) return 1;
    std::cout << "end of sequence; " << checked.frames.size() << " frames decoded, rules kept"
              << std::endl;
    return 0;
}
