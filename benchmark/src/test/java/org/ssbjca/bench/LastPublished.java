package org.ssbjca.bench;

/**
 * Figures of the last published run (docs/benchmarks.md as committed before issue 49's report: run V, on the adapter
 * of 184e165, finished 2026-11-28), which issue 49's targets and the machine's speed are compared with.
 */
final class LastPublished {

    /** Names the run in the report. */
    static final String RUN = "run V of 2026-11-28 (184e165)";
    /** ssb-jca's latency at 100 msg/s, 4 readers, p99 in ms. */
    static final double LATENCY_P99_MS = 1.52;
    /** ssb-jca's latency at 100 msg/s, 4 readers, max in ms. */
    static final double LATENCY_MAX_MS = 6.28;
    /** The plain JDBC loop's median rate in the throughput phase (4 threads), msg/s. */
    static final double CEILING_RATE = 5_455;
    /** The plain JDBC loop's CPU per message in the throughput phase, its JVM and PostgreSQL, µs. */
    static final double CEILING_CPU_MICROS = 60 + 209;

    private LastPublished() {
    }
}
