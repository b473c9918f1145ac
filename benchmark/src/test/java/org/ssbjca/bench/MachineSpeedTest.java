package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link MachineSpeed}: the ceiling's µs per message, by the wall clock and in CPU, against the last published run. */
class MachineSpeedTest {

    /** 4,000, 5,000 and 2,000 msg/s: 200 µs at the median, 250 to 500 over the rounds; CPU per message summed. */
    @Test
    void wallClockFromTheMedianRateAndCpuFromTheSums() {
        MachineSpeed s = MachineSpeed.of(new double[] {4_000, 5_000, 2_000}, 60_000_000_000L, 180_000_000_000L,
                1_000_000);
        assertEquals(250, s.wallMicros(), 1e-9);
        assertEquals(200, s.fastestMicros(), 1e-9);
        assertEquals(500, s.slowestMicros(), 1e-9);
        assertEquals(60, s.clientCpuMicros(), 1e-9);
        assertEquals(180, s.postgresCpuMicros(), 1e-9);
        assertEquals(240, s.cpuMicros(), 1e-9);
    }

    /** The last published run's own figures give 1.00× on both. */
    @Test
    void theLastPublishedRunIsOneOnBoth() {
        long messages = 1_000_000;
        MachineSpeed s = MachineSpeed.of(new double[] {LastPublished.CEILING_RATE}, 60_000_000_000L,
                209_000_000_000L, messages);
        assertEquals(1.0, s.againstPublished()[0], 1e-9);
        assertEquals(1.0, s.againstPublished()[1], 1e-9);
        assertTrue(s.text().contains("1.00× the last published run's 183; **269 µs CPU**"), s.text());
    }

    /** Without a CPU reading the wall clock still prints, and the CPU says it was not read. */
    @Test
    void noCpuReadingSaysSo() {
        MachineSpeed s = MachineSpeed.of(new double[] {5_000}, 0, 0, 0);
        assertTrue(Double.isNaN(s.cpuMicros()));
        assertTrue(s.text().startsWith("**200 µs wall clock** per message (rounds 200–200)"), s.text());
        assertTrue(s.text().endsWith("; CPU not read"), s.text());
    }

    /** 3% stolen is a quiet machine; 21% is no run of record; no /proc/stat, no line. */
    @Test
    void theCoresLineSaysWhenTooMuchWasStolen() {
        String quiet = MachineSpeed.coresText(new long[] {100, 0, 1_000}, new long[] {700, 30, 2_000});
        assertEquals("the machine's cores over the whole run: busy 60%, stolen 3%", quiet);
        String stolen = MachineSpeed.coresText(new long[] {0, 0, 0}, new long[] {500, 210, 1_000});
        assertTrue(stolen.startsWith("the machine's cores over the whole run: busy 50%, stolen 21%: **more than 5%"
                + " stolen, no run of record**"), stolen);
        assertNull(MachineSpeed.coresText(new long[] {-1, -1, -1},
                new long[] {500, 210, 1_000}));
    }
}
