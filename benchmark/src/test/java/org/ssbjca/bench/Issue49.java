package org.ssbjca.bench;

import java.util.List;
import java.util.Locale;

/** How issue 49's targets are judged on one run's figures: the benchmark measures, these decide. */
final class Issue49 {

    /** ssb-jca's rate against the loop inside WildFly running its own RECEIVE, at every reader count. */
    static final double ADAPTER_LINE = 0.97;
    /** The one-database phase: ssb-jca on the delivery's connection against Artemis with an XA datasource. */
    static final double ONE_DATABASE_LINE = 2.0;

    private Issue49() {
    }

    /** @return whether every count's median ratio reaches {@code line} (none measured: not met) */
    static boolean eachAtLeast(List<Spread> ratios, double line) {
        return !ratios.isEmpty() && ratios.stream().allMatch(s -> s.median() >= line);
    }

    /**
     * @return whether ssb-jca gained at least as much from 4 to 8 readers as the loop did from 4 to 8 threads (the
     *     rates' medians at each count)
     */
    static boolean scalesAsWell(double ssb4, double ssb8, double loop4, double loop8) {
        return ssb8 / ssb4 >= loop8 / loop4;
    }

    /**
     * @param p50 ssb-jca's p50, ms
     * @param artemisP50 Artemis's p50 in the same run, ms
     * @param roundTrip an idle round trip to the database in the same run (its p50), ms
     * @return whether ssb-jca's p50 is within one such round trip of Artemis's
     */
    static boolean withinRoundTrip(double p50, double artemisP50, double roundTrip) {
        return p50 <= artemisP50 + roundTrip;
    }

    /**
     * Whether the p50 target is out of reach, judged on two takes of one message after 10 ms idle, run from the
     * benchmark's JVM without a container or adapter (their p50s, ms): the ceiling's plain statement and the readers'
     * RECEIVE.
     *
     * @param bound Artemis's p50 plus one idle round trip, ms
     * @return what shows it out of reach, naming the measurement, or null when neither take exceeds the bound
     */
    static String p50OutOfReach(double bound, double ceilingTake, double readersTake) {
        return takeAbove("p50", bound, ceilingTake, readersTake);
    }

    /**
     * Whether a max above {@link LastPublished}'s is out of reach, judged on the same two takes after 10 ms idle as
     * {@link #p50OutOfReach} (their maxima, ms). Each message's latency holds one such take, so the slowest of a
     * number of messages is expected to be at least as slow as the slowest of as many takes; the takes are no more
     * than one round's messages (the max is over three rounds), so a take above the bound shows the bound out of
     * reach, and a take below it shows nothing. A p99 over its bound is never out of reach by this.
     *
     * @param p99 ssb-jca's p99, ms
     * @param max ssb-jca's max, ms
     * @return what shows the max out of reach, naming the measurement, or null when the p99 is over its bound, the
     *     max is not over its, or neither take's max exceeds the max's bound
     */
    static String maxOutOfReach(double p99, double max, double ceilingTakeMax, double readersTakeMax) {
        if (p99 > LastPublished.LATENCY_P99_MS || max <= LastPublished.LATENCY_MAX_MS) {
            return null;
        }
        String reach = takeAbove("max", LastPublished.LATENCY_MAX_MS, ceilingTakeMax, readersTakeMax);
        return reach == null ? null : "p99 met; the max " + reach;
    }

    /**
     * @param figure which figure of the takes, "p50" or "max"
     * @return which take alone exceeds {@code bound}, the ceiling's plain statement first, naming the row; or null
     */
    private static String takeAbove(String figure, double bound, double ceilingTake, double readersTake) {
        String row = "the latency row \"taking a message from PostgreSQL after 10 ms idle\"";
        if (ceilingTake > bound) {
            return String.format(Locale.ROOT, "out of reach of any consumer that takes each message from the database:"
                    + " the ceiling's plain statement alone took %.3f ms (%s; %s), above %.2f ms", ceilingTake, figure,
                    row, bound);
        }
        if (readersTake > bound) {
            return String.format(Locale.ROOT, "out of reach with ssb-jca's RECEIVE: the statement alone, without a"
                    + " container, took %.3f ms (%s; %s), above %.2f ms (the ceiling's plain statement %.3f ms)",
                    readersTake, figure, row, bound, ceilingTake);
        }
        return null;
    }

    /** @return whether ssb-jca's p99 and max are no worse than {@link LastPublished}'s */
    static boolean tailNoWorse(double p99, double max) {
        return p99 <= LastPublished.LATENCY_P99_MS && max <= LastPublished.LATENCY_MAX_MS;
    }
}
