#include "daemon/cli/interrupt_flag.hpp"

#include <pthread.h>

#include <csignal>

namespace apcgate::daemon {

namespace {

volatile std::sig_atomic_t g_signal = 0;
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

extern "C" void on_interrupt(int sig) {
    g_signal = sig;
}

}  // namespace

InterruptFlag::InterruptFlag() {
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;  // the second signal: the default action
    ::sigaction(SIGINT, &sa, &g_previous_int);
    ::sigaction(SIGTERM, &sa, &g_previous_term);
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    ::pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
}

InterruptFlag::~InterruptFlag() {
    ::sigaction(SIGINT, &g_previous_int, nullptr);
    ::sigaction(SIGTERM, &g_previous_term, nullptr);
}

int InterruptFlag::signal() const {
    return g_signal;
}

std::string stop_reason(int sig) {
    return sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)";
}

}  // namespace apcgate::daemon
