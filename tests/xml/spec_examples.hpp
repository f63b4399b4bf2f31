// The example documents of gator-protocol-v6.8.txt ("XML" section), verbatim: what the seed
// says Streamline sends and expects. Shared by the XML test files.
#pragma once

#include <string_view>

namespace apcgate::xml::testing {

// Long lines are the spec's own.
// clang-format off

inline constexpr std::string_view kSpecRequest = R"xml(<?xml version="1.0" encoding="US-ASCII"?>
<request type="events">
</request>
)xml";

inline constexpr std::string_view kSpecEvents = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<events>
  <counter_set name="ARMv7_Cortex_A8_cnt" count="4"/>
  <category name="Cortex-A8" counter_set="ARMv7_Cortex_A8_cnt" per_cpu="yes" supports_event_based_sampling="yes">
    <event counter="ARMv7_Cortex_A8_ccnt" event="0xff" title="Clock" name="Cycles" display="hertz" units="Hz" average_selection="yes" average_cores="yes" description="The number of core clock cycles"/>
    <event event="0x0" title="Software" name="Increment" description="Incremented only on writes to the Software Increment Register"/>
    <event event="0x1" title="Cache" name="Instruction refill" description="Instruction fetch that causes a refill of at least the level of instruction or unified cache closest to the processor"/>
    <!-- ... -->
  </category>
  <category name="CCI-400" counter_set="cci-400_cnt" supports_event_based_sampling="yes">
    <event counter="cci-400_ccnt" event="0xff" title="CCI-400" name="Cycles" display="hertz" units="Hz" average_selection="yes" description="The number of core clock cycles"/>
    <option_set name="Slave">
      <option event_delta="0x0" name="S0" description="Slave interface 0"/>
      <option event_delta="0x20" name="S1" description="Slave interface 1"/>
      <option event_delta="0x40" name="S2" description="Slave interface 2"/>
      <!-- ... -->
    </option_set>
    <event event="0x0" option_set="Slave" title="CCI-400" name="Read: any" description="Read request handshake: any"/>
    <event event="0x1" option_set="Slave" title="CCI-400" name="Read: transaction" description="Read request handshake: device transaction"/>
    <event event="0x2" option_set="Slave" title="CCI-400" name="Read: normal" description="Read request handshake: normal, non-shareable or system-shareable, but not barrier or cache maintenance operation"/>
    <!-- ... -->
    <option_set name="Master">
      <option event_delta="0xa0" name="M0" description="Master interface 0"/>
      <option event_delta="0xc0" name="M1" description="Master interface 1"/>
      <option event_delta="0xe0" name="M2" description="Master interface 2"/>
      <!-- ... -->
    </option_set>
    <event event="0x14" option_set="Master" title="CCI-400" name="Retry fetch" description="RETRY of speculative fetch transaction"/>
    <event event="0x15" option_set="Master" title="CCI-400" name="Read stall: address hazard" description="Read request stall cycle because of an address hazard"/>
    <event event="0x16" option_set="Master" title="CCI-400" name="Read stall: ID hazard" description="Read request stall cycle because of an ID hazard"/>
    <!-- ... -->
  </category>
  <category name="Mali GPU Fragment Processor">
    <counter_set name="ARM_Mali-400_FP0_cnt" title="Mali-400 FP0" description="Mali GPU Fragment Processor 0" count="2"/>
    <counter_set name="ARM_Mali-400_FP1_cnt" title="Mali-400 FP1" description="Mali GPU Fragment Processor 1" count="2"/>
    <counter_set name="ARM_Mali-400_FP2_cnt" title="Mali-400 FP2" description="Mali GPU Fragment Processor 2" count="2"/>
    <!-- ... -->
    <event event="0x0" title="Mali-400 FP" name="Active clock cycles" description="Active clock cycles, between polygon start and IRQ."/>
    <event event="0x2" title="Mali-400 FP" name="Total bus reads" description="Total number of 64-bit words read from the bus."/>
    <event event="0x3" title="Mali-400 FP" name="Total bus writes" description="Total number of 64-bit words written to the bus."/>
    <!-- ... -->
  </category>
  <category name="Linux">
    <event counter="Linux_irq_softirq" title="Interrupts" name="SoftIRQ" per_cpu="yes" description="Linux SoftIRQ taken"/>
    <event counter="Linux_irq_irq" title="Interrupts" name="IRQ" per_cpu="yes" description="Linux IRQ taken"/>
    <event counter="Linux_block_rq_wr" title="Disk IO" name="Write" units="B" description="Disk IO Bytes Written"/>
    <!-- ... -->
  </category>
  <category name="hwmon">
    <event counter="hwmon_ab8500-isa-0000_0" title="Temperature" name="ext_rtc_xtal" display="average" units="C" multiplier="0.001" average_selection="yes" description="libsensors Temperature sensor ext_rtc_xtal (hwmon_ab8500-isa-0000_0)"/>
    <event counter="hwmon_ab8500-isa-0000_1" title="Temperature" name="ext_db8500" display="average" units="C" multiplier="0.001" average_selection="yes" description="libsensors Temperature sensor ext_db8500 (hwmon_ab8500-isa-0000_1)"/>
    <event counter="hwmon_ab8500-isa-0000_2" title="Temperature" name="bat_temp" display="average" units="C" multiplier="0.001" average_selection="yes" description="libsensors Temperature sensor bat_temp (hwmon_ab8500-isa-0000_2)"/>
    <!-- ... -->
  </category>
</events>
)xml";

inline constexpr std::string_view kSpecConfiguration = R"xml(<?xml version="1.0" encoding="US-ASCII"?>
<configurations revision="2">
  <configuration counter="ARMv7_Cortex_A8_ccnt" event="0xFF"/>
  <configuration counter="ARMv7_Cortex_A8_cnt0" event="0x8"/>
  <configuration counter="ARMv7_Cortex_A8_cnt1" event="0x44"/>
  <configuration counter="ARMv7_Cortex_A8_cnt2" event="0x43"/>
  <configuration counter="ARMv7_Cortex_A8_cnt3" event="0x10"/>
  <configuration counter="ARMv7_Cortex_A9_ccnt" event="0xFF"/>
  <configuration counter="ARMv7_Cortex_A9_cnt0" event="0x68"/>
  <configuration counter="ARMv7_Cortex_A9_cnt1" event="0x6"/>
  <configuration counter="ARMv7_Cortex_A9_cnt2" event="0x7"/>
  <configuration counter="ARMv7_Cortex_A9_cnt3" event="0x3"/>
  <configuration counter="ARMv7_Cortex_A9_cnt4" event="0x4"/>
  <configuration counter="Linux_block_rq_wr"/>
  <configuration counter="Linux_block_rq_rd"/>
  <configuration counter="Linux_meminfo_memused"/>
  <configuration counter="Linux_meminfo_memfree"/>
  <configuration counter="Linux_power_cpu_freq"/>
  <configuration counter="cci-400_cnt0" event="0xB4"/>
  <configuration counter="cci-400_cnt1" event="0xD4"/>
  <configuration counter="cci-400_cnt2" event="0xB5"/>
  <configuration counter="hwmon_arm,vexpress-amp-isa-0011_0"/>
  <configuration counter="hwmon_arm,vexpress-amp-isa-0010_0"/>
</configurations>
)xml";

inline constexpr std::string_view kSpecCounters = R"xml(<?xml version="1.0" encoding="utf-8"?>
<counters>
  <counter name="Linux_power_cpu_idle"/>
  <counter name="Linux_power_cpu_freq"/>
  <counter name="Linux_sched_switch"/>
  <counter name="ARMv7_Cortex_A8_cnt3"/>
  <counter name="ARMv7_Cortex_A8_cnt2"/>
  <counter name="ARMv7_Cortex_A8_cnt1"/>
  <counter name="ARMv7_Cortex_A8_cnt0"/>
  <counter name="ARMv7_Cortex_A8_ccnt"/>
  <counter name="Linux_net_tx"/>
  <counter name="Linux_net_rx"/>
  <counter name="mmaped_cnt2"/>
  <counter name="mmaped_cnt1"/>
  <counter name="mmaped_cnt0"/>
  <counter name="Linux_meminfo_bufferram"/>
  <counter name="Linux_meminfo_memused"/>
  <counter name="Linux_meminfo_memfree"/>
  <counter name="Linux_irq_softirq"/>
  <counter name="Linux_irq_irq"/>
  <counter name="Linux_block_rq_rd"/>
  <counter name="Linux_block_rq_wr"/>
</counters>
)xml";

inline constexpr std::string_view kSpecSession = R"xml(<?xml version="1.0" encoding="US-ASCII"?>
<session version="1" call_stack_unwinding="yes" parse_debug_info="yes" high_resolution="no" buffer_mode="streaming" sample_rate="low" duration="0" target_host="10.99.3.109" target_port="8080" live_rate="100">
  <image path="H:\ls"/>
  <image path="H:\libc.so.6"/>
  <energy_capture version="1" command_path="C:\Program Files (x86)\DS-5\bin\caiman.exe" type="none">
    <channel id="0" resistance="20" power="yes" voltage="yes" current="yes"/>
  </energy_capture>
</session>
)xml";

inline constexpr std::string_view kSpecCaptured = R"xml(<?xml version="1.0" encoding="utf-8"?>
<captured version="1" created="1361467764" protocol="25">
  <target sample_rate="100" cores="5" cpuid="0xc0f"/>
  <counters>
    <counter key="0x3" type="ARMv7_Cortex_A7_cnt1" event="0x10"/>
    <counter key="0x4" type="ARMv7_Cortex_A7_cnt2" event="0x16"/>
    <counter key="0x1" type="ARMv7_Cortex_A7_ccnt" event="0xff"/>
    <counter key="0x2" type="ARMv7_Cortex_A7_cnt0" event="0x8"/>
    <counter key="0x15" type="Linux_power_cpu_freq" event="0x0"/>
    <counter key="0x9" type="Linux_block_rq_rd" event="0x0"/>
    <counter key="0x8" type="Linux_block_rq_wr" event="0x0"/>
    <counter key="0xc" type="Linux_meminfo_memfree" event="0x0"/>
    <counter key="0xd" type="Linux_meminfo_memused" event="0x0"/>
    <counter key="0x12" type="Linux_net_rx" event="0x0"/>
    <counter key="0x13" type="Linux_net_tx" event="0x0"/>
  </counters>
</captured>
)xml";

// clang-format on

}  // namespace apcgate::xml::testing
