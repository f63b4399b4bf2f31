// The LTTng-UST tracepoint provider of the test program: a few events with the field kinds
// real applications use (integers in decimal and hex, strings, doubles, an enumeration, a
// sequence), so the ingester's annotation text is checked on what LTTng-UST really writes.
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER apcgate_ctf_test
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "ctf_test_provider.hpp"

#if !defined(APCGATE_CTF_TEST_PROVIDER_HPP) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define APCGATE_CTF_TEST_PROVIDER_HPP

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_ENUM(apcgate_ctf_test, phase,
                          LTTNG_UST_TP_ENUM_VALUES(lttng_ust_field_enum_value("start", 0)
                                                       lttng_ust_field_enum_value("run", 1)
                                                           lttng_ust_field_enum_value("stop", 2)))

LTTNG_UST_TRACEPOINT_EVENT(apcgate_ctf_test, tick,
                           LTTNG_UST_TP_ARGS(int, i, const char*, label, double, ratio),
                           LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, i, i)
                                                   lttng_ust_field_string(label, label)
                                                       lttng_ust_field_float(double, ratio, ratio)))

LTTNG_UST_TRACEPOINT_EVENT(
    apcgate_ctf_test, state,
    LTTNG_UST_TP_ARGS(unsigned int, flags, int, phase, const int*, values, unsigned int, count),
    LTTNG_UST_TP_FIELDS(lttng_ust_field_integer_hex(unsigned int, flags, flags)
                            lttng_ust_field_enum(apcgate_ctf_test, phase, int, phase, phase)
                                lttng_ust_field_sequence(int, values, values, unsigned int, count)))

#endif

#include <lttng/tracepoint-event.h>
